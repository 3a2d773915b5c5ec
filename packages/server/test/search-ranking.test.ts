/**
 * The first page of a match set without sorting it all (domains/search/ranking.ts `firstInOrder`):
 * whatever shortcuts it takes on scores and their ties, its first k must be the first k of the whole
 * set sorted in the search pipeline's order (score, then the default order's rank, then the slot; or a
 * requested sort's rank first).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { firstInOrder } from '../src/domains/search/ranking.js';

function rng(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1_103_515_245 + 12_345) % 2_147_483_648;
    return x / 2_147_483_648;
  };
}

describe('first in order', () => {
  it('gives the first k of the full sort, with scores and ranks that mostly tie', () => {
    const r = rng(3);
    for (let round = 0; round < 200; round++) {
      const length = 1 + Math.floor(r() * 400);
      // Few distinct scores and ranks, so most comparisons are ties broken further down.
      const distinctScores = 1 + Math.floor(r() * 4);
      const distinctRanks = 1 + Math.floor(r() * 6);
      const docs = Int32Array.from({ length }, () => Math.floor(r() * 100_000));
      const scores = Float32Array.from({ length }, () => Math.floor(r() * distinctScores) / 2);
      const rank = new Int32Array(100_000);
      for (const doc of docs) rank[doc] = Math.floor(r() * distinctRanks);
      const withRank = r() < 0.7;
      const order = (a: number, b: number): number => scores[b]! - scores[a]! || (withRank ? rank[docs[a]!]! - rank[docs[b]!]! : 0) || docs[a]! - docs[b]! || a - b;
      const k = 1 + Math.floor(r() * 30);
      const expected = Array.from({ length }, (_, i) => i).sort(order).slice(0, k).map((i) => docs[i]);
      const plain = firstInOrder(length, k, order).map((i) => docs[i]);
      const led = firstInOrder(length, k, order, undefined, scores, { docs, rank: withRank ? rank : undefined }).map((i) => docs[i]);
      assert.deepEqual(plain, expected, `round ${round}: without shortcuts`);
      assert.deepEqual(led, expected, `round ${round}: scores and ties first`);
      // A requested sort first (its rank), then the score and the rest.
      const sorted = (a: number, b: number): number => rank[docs[a]!]! - rank[docs[b]!]! || scores[b]! - scores[a]! || docs[a]! - docs[b]! || a - b;
      const expectedSorted = Array.from({ length }, (_, i) => i).sort(sorted).slice(0, k).map((i) => docs[i]);
      assert.deepEqual(firstInOrder(length, k, sorted, undefined, undefined, undefined, { docs, rank }).map((i) => docs[i]), expectedSorted, `round ${round}: by a sort's rank`);
    }
  });
});
