/**
 * The profile directory's key filter (platform/collections/key-filter.ts): never "absent" for a key it
 * was given, whatever the keys look like, and rarely "present" for one it was not.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { KeyFilter } from '../src/platform/collections/key-filter.js';

describe('the key filter in front of the profile shards', () => {
  it('finds every key it was given, and few it was not, at its capacity', () => {
    const filter = new KeyFilter(50_000);
    const added = Array.from({ length: 50_000 }, (_, i) => (i % 3 === 0 ? `session:s-${i}-${(i * 7919) % 1000}` : i % 3 === 1 ? `p_${i.toString(36)}Ab_-` : `id:customer-id:${i}`));
    for (const key of added) filter.add(key);
    for (const key of added) assert.equal(filter.mightHave(key), true, key);
    let wrong = 0;
    for (let i = 0; i < 50_000; i++) if (filter.mightHave(`session:other-${i}`)) wrong++;
    // About 1% at capacity (10 bits and 7 probes per key); 3% would mean a broken hash.
    assert.ok(wrong < 1_500, `${wrong} of 50,000 keys never added were reported present`);
    assert.equal(filter.overfull, false);
  });

  it('treats keys that differ in one character, in case, or only past the ASCII range as different', () => {
    const filter = new KeyFilter(1_000);
    for (const key of ['session:abc', 'ds:shop:Ü-1', 'id:crm:😀', '']) filter.add(key);
    for (const key of ['session:abc', 'ds:shop:Ü-1', 'id:crm:😀', '']) assert.equal(filter.mightHave(key), true, key);
    const near = ['session:abd', 'session:ABC', 'ds:shop:U-1', 'id:crm:😁', 'session:abc '];
    assert.ok(near.filter((key) => filter.mightHave(key)).length <= 1, 'near misses are told apart');
  });

  it('says when it holds more keys than it was sized for', () => {
    const filter = new KeyFilter(100);
    for (let i = 0; i <= 100; i++) filter.add(`k${i}`);
    assert.equal(filter.overfull, true);
    for (let i = 0; i <= 100; i++) assert.equal(filter.mightHave(`k${i}`), true);
  });
});
