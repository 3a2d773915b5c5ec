/**
 * The learned ranking's buyer and title features, computed by hand on tiny items: the buyers' history
 * depth (in training, the buyers as they stood at the example's cut), its gap to the shopper's, the idf-weighted share
 * of a candidate's title words found in the shopper's history; the stats training derives them from,
 * and their way through the ranker file.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FEATURE_COUNT, featuresOf, RANKER_FEATURES, shopperFacts, titleWords, type CandidateFacts, type ItemStats } from '../src/domains/recommendations/ranker-features.js';
import { trainRanker } from '../src/domains/recommendations/ranker-training.js';
import { decodeRanker, encodeRanker, LearnedRanker } from '../src/domains/recommendations/learned-ranker.js';
import { trainEase } from '../src/domains/recommendations/ease.js';

const DEPTH = RANKER_FEATURES.indexOf('buyer depth');
const GAP = RANKER_FEATURES.indexOf('buyer depth gap');
const TITLE = RANKER_FEATURES.indexOf('title words');
const L300 = Math.log1p(300);

/** Two items, both known; item 0 bought by two shoppers of 3 and 7 history items. Words: 0 "lunch" (idf 2), 1 "bag" (idf 1). */
function stats(): ItemStats {
  return {
    short: Float32Array.of(0, 0),
    long: Float32Array.of(0, 0),
    shoppers: Float32Array.of(2, 1),
    born: Int32Array.of(10, 10),
    maxShort: 0,
    maxLong: 0,
    maxShoppers: 2,
    at: 1000,
    weekOffsets: Int32Array.of(0, 0, 0),
    weeks: new Int32Array(0),
    weekCounts: new Float32Array(0),
    weekTotals: new Map(),
    buyers: Float32Array.of(2, 0),
    buyerDepth: Float32Array.of(Math.log1p(3) + Math.log1p(7), 0),
    vocabulary: ['lunch', 'bag'],
    idf: Float32Array.of(2, 1),
  };
}

function shopper(historyLength: number, words: Array<[number, number]>) {
  const facts = shopperFacts({ count: 0, item: () => 0, last: () => 0 }, () => undefined, () => 0, 1000);
  return { ...facts, historyLength, words: new Map(words) };
}

function features(candidate: Partial<CandidateFacts>, facts: ReturnType<typeof shopper>): Float64Array {
  const out = new Float64Array(FEATURE_COUNT);
  featuresOf({ rank: 0, model: 0, item: 0, family: undefined, price: NaN, lastVisit: 0, ...candidate }, facts, stats(), out);
  return out;
}

const close = (actual: number, expected: number) => assert.ok(Math.abs(actual - expected) < 1e-6, `${actual} is not ${expected}`);

describe('the learned ranking: buyer depth and title words', () => {
  it('takes the mean history depth of the item\'s buyers and its distance from the shopper\'s', () => {
    const out = features({}, shopper(7, []));
    const depth = (Math.log1p(3) + Math.log1p(7)) / 2 / L300;
    close(out[DEPTH]!, depth);
    close(out[GAP]!, Math.abs(depth - Math.log1p(7) / L300));
  });

  it('says nothing of an item nobody bought', () => {
    const alone = features({ item: 1 }, shopper(7, []));
    assert.equal(alone[DEPTH], 0);
    assert.equal(alone[GAP], 0);
  });

  it('counts in training only the buyers who had bought the candidate by the example\'s cut: not the shopper, not anyone later', () => {
    // Shopper 0 bought items 0 and 1 early and viewed item 3 (depth log1p(3)). Shoppers 1–10 bought item 1 early, then item 0
    // on a later visit (their examples: item 0 is the positive). Shopper 11 bought item 0 and item 2 after all of them.
    const offsets = [0];
    const items: number[] = [];
    const weights: number[] = [];
    const first: number[] = [];
    const entry = (item: number, minute: number, weight = 1) => {
      items.push(item);
      weights.push(weight);
      first.push(minute);
    };
    entry(0, 100);
    entry(1, 100);
    entry(3, 100, 0.3);
    offsets.push(items.length);
    for (let shopper = 1; shopper <= 10; shopper++) {
      entry(1, 100 + shopper);
      entry(0, 100_000 + shopper);
      offsets.push(items.length);
    }
    entry(0, 200_000);
    entry(2, 200_000);
    offsets.push(items.length);
    const rows = { offsets: Int32Array.from(offsets), items: Int32Array.from(items), weights: Float32Array.from(weights), first: Int32Array.from(first), itemCount: 4 };
    const facts = { families: Int32Array.of(-1, -1, -1, -1), prices: new Float32Array(4) };
    const { examples, stats: trained } = trainRanker(rows, (r) => trainEase(r, { lambda: 1, maxItems: 10, neighbours: 10, minShoppers: 1 }), facts, { maxExamples: 20, visitsPerShopper: 1, candidates: 10, popularityWeight: 0.6, keepExamples: true });
    assert.ok(examples !== undefined, 'no examples were made');
    let positives = 0;
    for (let r = 0; r < examples.y.length; r++) {
      if (examples.y[r] !== 1) continue;
      positives++;
      close(examples.x[r * FEATURE_COUNT + DEPTH]!, Math.log1p(3) / L300);
    }
    assert.equal(positives, 10);
    // Served, every buyer counts: the stats at the end of the snapshot hold all twelve.
    assert.equal(trained.buyers[0], 12);
  });

  it('weighs the candidate\'s title words by idf, a word of one history item at log 2 and of two or more at 1', () => {
    const words = Int32Array.of(0, 1);
    close(features({ words }, shopper(3, [[0, 1]]))[TITLE]!, (2 * Math.LN2) / 3);
    close(features({ words }, shopper(3, [[0, 2], [1, 1]]))[TITLE]!, (2 + Math.LN2) / 3);
    close(features({ words }, shopper(3, [[0, 5], [1, 9]]))[TITLE]!, 1);
    assert.equal(features({ words }, shopper(3, []))[TITLE], 0);
    assert.equal(features({}, shopper(3, [[0, 1]]))[TITLE], 0);
  });

  it('counts history words per item from the shopper\'s items', () => {
    const itemWords = [Int32Array.of(0, 1), Int32Array.of(1)];
    const facts = shopperFacts({ count: 2, item: (k) => k, last: () => 5 }, () => undefined, () => 0, 10, (item) => itemWords[item]);
    assert.deepEqual([...facts.words], [[0, 1], [1, 2]]);
    assert.deepEqual(titleWords('Lunch Bag, RED retrospot lunch'), ['lunch', 'bag', 'red', 'retrospot']);
  });

  it('trains buyer stats and idf from the rows and titles, and keeps them through the ranker file', () => {
    // Shoppers: 0 bought items 0 and 1; 1 bought item 0 and viewed item 2; 2 bought items 0, 1 and 2.
    const rows = {
      offsets: Int32Array.of(0, 2, 4, 7),
      items: Int32Array.of(0, 1, 0, 2, 0, 1, 2),
      weights: Float32Array.of(1, 1, 1, 0.3, 1, 1, 1),
      first: Int32Array.of(100, 200, 100, 2000, 100, 200, 3000),
      itemCount: 3,
    };
    // Titles: "lunch bag", "red bag", "red" → vocabulary lunch, bag, red.
    const titles = { offsets: Int32Array.of(0, 2, 4, 5), words: Int32Array.of(0, 1, 2, 1, 2), vocabulary: ['lunch', 'bag', 'red'] };
    const facts = { families: Int32Array.of(-1, -1, -1), prices: new Float32Array(3), titles };
    const { stats: trained } = trainRanker(rows, (r) => trainEase(r, { lambda: 1, maxItems: 10, neighbours: 10, minShoppers: 1 }), facts, { maxExamples: 10, visitsPerShopper: 1, candidates: 10, popularityWeight: 0.6 });
    assert.deepEqual([...trained.buyers], [3, 2, 1]);
    close(trained.buyerDepth[0]!, 2 * Math.log1p(2) + Math.log1p(3));
    close(trained.buyerDepth[1]!, Math.log1p(2) + Math.log1p(3));
    close(trained.buyerDepth[2]!, Math.log1p(3));
    close(trained.idf[0]!, Math.log(4 / 2));
    close(trained.idf[1]!, Math.log(4 / 3));

    const weights = { features: [...RANKER_FEATURES], mean: new Array(FEATURE_COUNT).fill(0), scale: new Array(FEATURE_COUNT).fill(1), coef: new Array(FEATURE_COUNT).fill(0), bias: 0, examples: 1, positives: 1, shoppers: 1 };
    const decoded = decodeRanker(encodeRanker({ tenantId: 't', trainedAt: 1, weights, itemIds: ['a', 'b', 'c'], stats: trained }), 't');
    assert.ok(!('problem' in decoded), 'problem' in decoded ? decoded.problem : '');
    assert.deepEqual([...decoded.stats.buyers], [...trained.buyers]);
    assert.deepEqual([...decoded.stats.buyerDepth], [...trained.buyerDepth]);
    assert.deepEqual([...decoded.stats.idf], [...trained.idf]);
    assert.deepEqual(decoded.stats.vocabulary, titles.vocabulary);
    // Served under other item numbers (c is item 0 now): the buyer stats follow the ids; words unknown to the training are left out.
    const live = new Map([['c', 0], ['a', 1], ['b', 2]]);
    const ranker = new LearnedRanker(decoded, 3, (id) => live.get(id));
    const explained = ranker.explain({ rank: 0, model: 0, item: 1, family: undefined, price: NaN, lastVisit: 0 }, shopper(2, []));
    close(explained.features[DEPTH]!.value, Math.round(((2 * Math.log1p(2) + Math.log1p(3)) / 3 / L300) * 1e4) / 1e4);
    assert.deepEqual([...ranker.wordsOf(['red', 'tin', 'lunch'])!], [2, 0]);
  });
});
