/**
 * The matcher stamps documents with 16-bit generations that wrap every 65,535 (domains/search/
 * query/match-scratch.ts): answers must not change across the wrap. A real server's search service, called
 * in process so that enough queries run to pass it several times; the result cache is off so every
 * call reaches the matcher.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { SearchQuery } from '../src/domains/search/search-service.js';
import { SEARCH_ENV as E, SEARCH_TENANT as T, SEARCH_TOKEN as TOKEN, startSearchCatalog, type SearchCatalog } from './support/search-catalog.js';

const CONFIGURATION = {
  id: 'default',
  fields: [
    { attribute: 'title', weight: 3 },
    { attribute: 'description', weight: 1 },
  ],
  facets: [],
  defaultSort: [],
};
const NOUNS = ['lantern', 'shirt', 'holder', 'towel', 'cup', 'table', 'lamp', 'blanket'];
const COLOURS = ['red', 'blue', 'white', 'green', 'black'];
/** Several words each, so every call takes several generations (one per word and per alternative). */
const QUERIES = ['red lantern holder', 'blue cup table', 'white lamp blankt', 'green towel sh', 'black table lantern cup'];

let shop: SearchCatalog;

before(async () => {
  shop = await startSearchCatalog({
    configuration: CONFIGURATION,
    attributes: ['title', 'description'],
    items: (version) =>
      Array.from({ length: 300 }, (_, n) => ({
        id: `p${n}`,
        catalogVersion: version,
        type: 'product',
        attributes: { title: `${COLOURS[n % 5]} ${NOUNS[n % 8]} ${NOUNS[(n * 3) % 8]}`, description: `with a ${NOUNS[(n + 5) % 8]}` },
      })),
  });
});

after(() => shop.close());

describe('matcher generations', () => {
  it('answer the same before, across and after their wrap', () => {
    const search = shop.server.deps.services.search;
    search.resultCacheSize = 0;
    const configuration = shop.server.deps.registry.searchToken(TOKEN).token.configurations[0]!;
    const request = (query: string): SearchQuery => ({ tenantId: T, environmentId: E, configuration, query, offset: 0, limit: 50, sortBy: [], facets: [], filter: undefined, disabled: new Set() });
    const answer = (query: string) => {
      const result = search.search(request(query));
      return { count: result.count, hits: result.items.map((hit) => `${hit.id} ${hit.score}`) };
    };
    const first = QUERIES.map(answer);
    for (const [i, a] of first.entries()) assert.ok(a.count > 0, `${QUERIES[i]} matches`);
    // Each call takes over a dozen generations (a word and its alternatives, relaxation's retries): 20,000
    // calls pass 65,535 about four times.
    for (let call = 0; call < 20_000; call++) {
      const i = call % QUERIES.length;
      assert.deepEqual(answer(QUERIES[i]!), first[i], `call ${call}: ${QUERIES[i]}`);
    }
  });
});
