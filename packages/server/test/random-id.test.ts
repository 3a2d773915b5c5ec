/** Random ids from the pooled random bytes (platform/random-id.ts): what a new shopper's profile id is made of. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBase64Url } from '../src/platform/random-id.js';
import { newProfileId } from '../src/domains/tracking/profiles.js';

describe('randomBase64Url', () => {
  it('gives distinct base64url ids of the asked size, across many refills of the pool', () => {
    const seen = new Set<string>();
    // 20,000 ids of 12 bytes: about 60 fills of the 4 KB pool, and sizes that do not divide it.
    for (let i = 0; i < 20_000; i++) seen.add(randomBase64Url(i % 7 === 0 ? 9 : 12));
    assert.equal(seen.size, 20_000);
    for (const id of seen) assert.match(id, /^[A-Za-z0-9_-]{12}$|^[A-Za-z0-9_-]{16}$/);
    // Every one of the 64 characters turns up first in the 16-character ids (the bytes are random, not reused or zero).
    const firstChars = new Set([...seen].filter((id) => id.length === 16).map((id) => id[0]));
    assert.equal(firstChars.size, 64);
  });

  it('refuses sizes it cannot serve', () => {
    for (const bad of [0, -1, 65, 1.5, Number.NaN]) assert.throws(() => randomBase64Url(bad), RangeError);
  });

  it('makes profile ids as before: p_ and 16 characters', () => {
    assert.match(newProfileId(), /^p_[A-Za-z0-9_-]{16}$/);
    assert.notEqual(newProfileId(), newProfileId());
  });
});
