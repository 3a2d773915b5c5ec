/**
 * The first page of a match set without sorting it all (domains/search/order/ranking.ts `firstInOrder`):
 * whatever shortcuts it takes on scores and their ties, its first k must be the first k of the whole
 * set sorted in the search pipeline's order (score, then the default order's rank, then the slot; or a
 * requested sort's rank first).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { firstInOrder } from '../src/domains/search/order/ranking.js';

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

describe('sort orders after catalog writes', () => {
  it('are recomputed after writes, also when a write lands while they are being recomputed', async () => {
    const { startSearchCatalog, SEARCH_ENV, SEARCH_TENANT, SEARCH_TOKEN } = await import('./support/search-catalog.js');
    const { catalogRequests } = await import('./support/catalog-requests.js');
    const ITEMS = 9_000;
    const shop = await startSearchCatalog({
      configuration: { id: 'default', fields: [{ attribute: 'title', weight: 1 }], facets: [], defaultSort: [{ attribute: 'popularity', order: 'desc' }] },
      attributes: ['title'],
      numbers: ['popularity', 'price'],
      items: (version) => Array.from({ length: ITEMS }, (_, n) => ({ id: `p${n}`, catalogVersion: version, type: 'product', attributes: { title: `lamp ${n}`, popularity: n, price: n + 10 } })),
    });
    try {
      const search = shop.server.deps.services.search;
      search.resultCacheSize = 0;
      const configuration = shop.server.deps.registry.searchToken(SEARCH_TOKEN).token.configurations[0]!;
      const first = (sortBy: { attribute: string; order: 'asc' | 'desc' }[]) =>
        search.search({ tenantId: SEARCH_TENANT, environmentId: SEARCH_ENV, configuration, query: 'lamp', offset: 0, limit: 3, sortBy, facets: [], filter: undefined, disabled: new Set() }).items.map((hit) => hit.id);
      const byPrice = [{ attribute: 'price', order: 'asc' as const }];
      // Both orders are kept from here on (the default one and price).
      assert.deepEqual(first([]).length, 3);
      assert.deepEqual(first(byPrice).length, 3);
      const catalog = catalogRequests(shop.server.deps.services.catalog);
      // Two writes, the second sent while the first's orders may still be being recomputed.
      const one = catalog.items.patch(SEARCH_TENANT, SEARCH_ENV, [{ id: 'p5', catalogVersion: shop.version, type: 'product', attributes: { popularity: 50_000 } }]);
      await new Promise((resolve) => setImmediate(resolve));
      const two = catalog.items.patch(SEARCH_TENANT, SEARCH_ENV, [
        { id: 'p7', catalogVersion: shop.version, type: 'product', attributes: { popularity: 60_000, price: -1 } },
        { id: 'p9', catalogVersion: shop.version, type: 'product', attributes: { price: -2 } },
      ]);
      await Promise.all([one, two]);
      await search.settled();
      assert.deepEqual(first([]), ['p7', 'p5', `p${ITEMS - 1}`], 'the default order after both writes');
      assert.deepEqual(first(byPrice), ['p9', 'p7', 'p0'], 'the price order after both writes');
    } finally {
      await shop.close();
    }
  });
});

describe('folding', () => {
  it('lowers case and drops accents, the same for plain ASCII and for text with marks', async () => {
    const { fold } = await import('../src/domains/search/index/analyzer.js');
    assert.equal(fold('Red LANTERN 12'), 'red lantern 12');
    assert.equal(fold('Crème Brûlée'), 'creme brulee');
    assert.equal(fold('ÜBER Straße'), 'uber straße');
    assert.equal(fold('ﬁne'), 'fine', 'a compatibility ligature decomposes');
    assert.equal(fold(''), '');
  });
});
