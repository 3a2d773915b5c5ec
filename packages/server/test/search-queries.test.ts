// Autocomplete's query statistics on their own: distinct shoppers per query, and a bounded number of
// queries however many different ones the public sends.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_QUERY_LENGTH, SearchQueries } from '../src/domains/search/analytics/search-queries.js';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const suggest = (queries: SearchQueries, prefix: string, minShoppers = 2): string[] => queries.suggest(prefix, { now: NOW, sinceDays: 7, limit: 10, minShoppers }).map((s) => s.query);

describe('search queries', () => {
  it('counts distinct shoppers, not views', () => {
    const queries = new SearchQueries();
    for (let i = 0; i < 50; i++) queries.recordView('paper lantern', NOW - i * 1000, 'same-shopper');
    assert.deepEqual(suggest(queries, 'pap'), []);
    queries.recordView('paper lantern', NOW, 'another');
    assert.deepEqual(suggest(queries, 'pap'), ['paper lantern']);
    // A shopper's view older than the window does not count.
    queries.recordView('paper chain', NOW - 8 * 24 * 3600 * 1000, 'old');
    queries.recordView('paper chain', NOW, 'new');
    assert.deepEqual(suggest(queries, 'paper c'), []);
  });

  it('keeps at most its cap of queries, letting unviewed ones go first, and ignores very long ones', () => {
    const queries = new SearchQueries(500);
    queries.recordView('keep me', NOW, 'a');
    queries.recordView('keep me', NOW, 'b');
    for (let i = 0; i < 2_000; i++) queries.recordSearch(`random ${i}`, NOW, 1, 'typed');
    assert.ok(queries.size <= 500, String(queries.size));
    assert.deepEqual(suggest(queries, 'keep'), ['keep me']);
    queries.recordSearch('x'.repeat(MAX_QUERY_LENGTH + 1), NOW, 1, 'typed');
    assert.ok(queries.size <= 500);
    assert.deepEqual(suggest(queries, 'xxx', 0), []);
  });
});
