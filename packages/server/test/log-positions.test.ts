/**
 * The per-profile index of log segments that a returning shopper's history is read back from: bounded
 * per profile, the newest kept past the bound, saved and restored with the snapshot, and distrusted
 * (every read scans the whole log) after a snapshot that held none.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LogPositions, MAX_POSITIONS } from '../src/domains/tracking/log-positions.js';

const segment = (n: number) => `segment-${String(n).padStart(6, '0')}.jsonl`;

describe('LogPositions', () => {
  it('lists each segment once per profile, and every profile of a merged person', () => {
    const index = new LogPositions();
    for (const n of [1, 1, 1, 3, 3, 4]) index.note('anon', segment(n));
    index.note('known', segment(2));
    assert.deepEqual(index.positionsOf(['anon']), [segment(1), segment(3), segment(4)]);
    assert.deepEqual(index.positionsOf(['known', 'anon'])!.sort(), [1, 2, 3, 4].map(segment));
    assert.deepEqual(index.positionsOf(['never-seen']), []);
  });

  it(`keeps the newest ${MAX_POSITIONS} segments of a profile; the whole history then needs a full scan`, () => {
    const index = new LogPositions();
    for (let n = 1; n <= MAX_POSITIONS + 5; n++) index.note('busy', segment(n));
    assert.equal(index.positionsOf(['busy']), undefined, 'partial: a whole-history page reads every segment');
    assert.deepEqual(index.newestOf(['busy']), Array.from({ length: MAX_POSITIONS }, (_, i) => segment(i + 6)));
  });

  it('forgets erased profiles and segments retention dropped', () => {
    const index = new LogPositions();
    for (const n of [1, 2]) index.note('a', segment(n));
    index.note('b', segment(1));
    index.dropped([segment(1)]);
    assert.deepEqual(index.positionsOf(['a', 'b']), [segment(2)]);
    index.forget(['a']);
    assert.deepEqual(index.positionsOf(['a']), []);
  });

  it('comes back whole from its snapshot chunks, and is distrusted after a snapshot without them', () => {
    const index = new LogPositions();
    for (let n = 1; n <= MAX_POSITIONS + 1; n++) index.note('busy', segment(n));
    index.note('quiet', segment(7));
    const restored = new LogPositions();
    for (const chunk of index.save()) restored.restore(chunk);
    assert.equal(restored.positionsOf(['busy']), undefined);
    assert.deepEqual(restored.newestOf(['busy']), index.newestOf(['busy']));
    assert.deepEqual(restored.positionsOf(['quiet']), [segment(7)]);
    restored.distrust();
    assert.equal(restored.trusted, false, 'and not saved as if whole');
    assert.equal(restored.positionsOf(['quiet']), undefined);
    assert.equal(restored.newestOf(['quiet']), undefined);
    restored.clear();
    assert.deepEqual(restored.positionsOf(['quiet']), [], 'a whole-log replay starts a trusted index');
  });
});
