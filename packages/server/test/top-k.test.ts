/** kthLargest (quickselect) answers what a full sort would, ties and negative scores included: every top-k cut of the rankings rests on it. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { kthLargest } from '../src/domains/recommendations/top-k.js';

/** A small deterministic generator, so a failure names a case that reproduces. */
function scores(seed: number, count: number, distinct: number): Float64Array {
  let state = seed;
  const values = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    values[i] = (state % distinct) - distinct / 3;
  }
  return values;
}

describe('kthLargest', () => {
  it('equals the k-th value of a descending sort, for every k, with many ties', () => {
    for (const [seed, count, distinct] of [[1, 1, 5], [2, 7, 3], [3, 64, 10], [4, 300, 1000], [5, 257, 2]] as const) {
      const sorted = [...scores(seed, count, distinct)].sort((a, b) => b - a);
      for (let k = 1; k <= count; k++) {
        assert.equal(kthLargest(scores(seed, count, distinct), count, k), sorted[k - 1], `seed ${seed}, ${count} values, k ${k}`);
      }
    }
  });

  it('looks only at the first `count` values', () => {
    const values = Float64Array.from([3, 1, 2, 100, 200]);
    assert.equal(kthLargest(values, 3, 1), 3);
  });
});
