/**
 * The matcher stamps documents with 16-bit generations that wrap every 65,535 (domains/search/
 * match-scratch.ts): answers must not change across the wrap. A real server's search service, called
 * in process so that enough queries run to pass it several times; the result cache is off so every
 * call reaches the matcher.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { createDiscoveryServer, type DiscoveryServer } from '../src/app/server.js';
import { validateConfig } from '../src/platform/config/load.js';
import { createLogger } from '../src/platform/logger.js';
import type { SearchQuery } from '../src/domains/search/search-service.js';
import { FIXTURES, makeDataDir, testConfigWithSearch } from './support/test-server.js';
import { catalogRequests } from './support/catalog-requests.js';

const TOKEN = 'shop-search';
const T = 'tenant-a';
const E = 'prod';
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

let dataDir: string;
let server: DiscoveryServer;

before(async () => {
  dataDir = await makeDataDir();
  server = await createDiscoveryServer({ config: validateConfig(testConfigWithSearch(TOKEN, CONFIGURATION), '(test)', FIXTURES), dataDir, logger: createLogger('silent') });
  const catalog = catalogRequests(server.deps.services.catalog);
  const schema = await catalog.schemas.create(T, E, { name: 'product', attributes: ['title', 'description'].map((name) => ({ name, type: 'TEXT' })) });
  const { version } = await catalog.catalogs.create(T, E, { catalogItemSchemas: [{ name: schema.name, version: schema.version }] });
  const items = Array.from({ length: 300 }, (_, n) => ({
    id: `p${n}`,
    catalogVersion: version,
    type: 'product',
    attributes: { title: `${COLOURS[n % 5]} ${NOUNS[n % 8]} ${NOUNS[(n * 3) % 8]}`, description: `with a ${NOUNS[(n + 5) % 8]}` },
  }));
  await catalog.items.load(T, E, items);
  await (await server.deps.services.catalog.catalogs.promote(T, E, version)).activation;
});

after(async () => {
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('matcher generations', () => {
  it('answer the same before, across and after their wrap', () => {
    const search = server.deps.services.search;
    search.resultCacheSize = 0;
    const configuration = server.deps.registry.searchToken(TOKEN).token.configurations[0]!;
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
