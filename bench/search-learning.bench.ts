/**
 * What search learning adds to an in-process search (issue 37's bar: at most 10% of the median): the
 * search bench's generated catalog and queries (with its facet and filter), learning off and on, in
 * alternating rounds so that a drifting machine weighs on both alike, after one query in ten got
 * votes from five shoppers (their lifts then apply). Its own file so that it runs in a few minutes:
 * `npm run bench -- search-learning` (BENCH_LEARNING_PRODUCTS: the catalog's size, default 100,000).
 */
import type { SearchQuery, SearchService } from '../packages/server/src/domains/search/search-service.js';
import type { ActivityService } from '../packages/server/src/domains/tracking/activity-service.js';
import { newActivity } from '../packages/server/src/domains/tracking/new-activity.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Benchmark } from './run.js';
import { measure, round } from './harness.js';
import { createDiscoveryServer } from '../packages/server/src/app/server.js';
import { parseItemBatch, parseSchemaRequest } from '../packages/server/src/apis/catalog/catalog-requests.js';
import { validateConfig } from '../packages/server/src/platform/config/load.js';
import { createLogger } from '../packages/server/src/platform/logger.js';
import { GENERATED_SCHEMA, batchOf, benchQueries, generatedSearchConfig } from './relevance/generated-catalog.js';

const TENANT = 'bench-shop';
const ENV = 'production';
const TOKEN = 'bench-search';
const TOTAL = Number(process.env.BENCH_LEARNING_PRODUCTS ?? 100_000);
const BATCH = 10_000;

const ROUNDS = 3;

async function learningCost(options: { search: SearchService; activities: ActivityService; tenantId: string; queries: readonly string[]; request: (query: string) => SearchQuery }): Promise<Array<Record<string, string | number>>> {
  const { search, queries, request } = options;
  const batch = [];
  for (let q = 0; q < queries.length; q += 10) {
    const shown = search.search(request(queries[q]!)).items;
    const item = shown.at(-1);
    if (item === undefined) continue;
    for (let s = 0; s < 5; s++) batch.push(newActivity({ profileId: `bench-voter-${q}-${s}`, source: 'collect', verb: 'click', type: 'product', itemId: item.id, timestamp: Date.now(), query: queries[q]!, details: { metadata: { position: shown.length } } }));
  }
  await options.activities.recordActivities(options.tenantId, batch);
  const on = request(queries[0]!).configuration;
  const off = { ...on, learning: { ...on.learning, enabled: false } };
  const medians = { on: [] as number[], off: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, configuration] of [['off', off], ['on', on]] as const) {
      const stats = await measure(1_000, (i) => search.search({ ...request(queries[i % queries.length]!), configuration }), 100);
      medians[name].push(stats.medianMs);
    }
  }
  const median = (list: number[]) => list.toSorted((a, b) => a - b)[Math.floor(list.length / 2)]!;
  const offMs = median(medians.off);
  const onMs = median(medians.on);
  return [
    { step: `in process, learning off (${ROUNDS} alternating rounds of 1,000 queries, median of the medians)`, medianMs: offMs },
    { step: `in process, learning on, ${batch.length / 5} of ${queries.length} queries learned`, medianMs: onMs, ratio: round(onMs / offMs, 3) },
  ];
}

const benchmark: Benchmark = async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'discovery-bench-learning-'));
  const generated = generatedSearchConfig(TENANT, ENV, TOKEN) as { tenants: Record<string, unknown>[] };
  const config = validateConfig({ tenants: generated.tenants, publicRateLimits: { enabled: false } }, '(bench)', dataDir);
  const server = await createDiscoveryServer({ config, dataDir, logger: createLogger('silent') });
  try {
    const { catalog, search, activities } = server.deps.services;
    const schema = await catalog.schemas.create(TENANT, ENV, parseSchemaRequest(GENERATED_SCHEMA));
    const { version } = await catalog.catalogs.create(TENANT, ENV, { catalogItemSchemas: [{ name: schema.name, version: schema.version }] });
    for (let start = 0; start < TOTAL; start += BATCH) await catalog.items.load(TENANT, ENV, parseItemBatch(batchOf(start, version, Math.min(BATCH, TOTAL - start))));
    await (await catalog.catalogs.promote(TENANT, ENV, version)).activation;
    // The engine alone, as the search bench measures it: no answer cache.
    search.resultCacheSize = 0;
    const configuration = server.deps.registry.searchToken(TOKEN).token.configurations[0]!;
    const request = (query: string): SearchQuery => ({ tenantId: TENANT, environmentId: ENV, configuration, query, offset: 0, limit: 10, sortBy: [], facets: [{ id: 'color', values: ['red', 'blue'] }], filter: 'in_stock = 1 AND price < 4000', disabled: new Set() });
    const rows = await learningCost({ search, activities, tenantId: TENANT, queries: benchQueries(1_000, 42), request });
    return { name: `search learning's cost (${TOTAL} products, the search bench's 1,000 queries with a facet and a filter)`, rows };
  } finally {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
};

export default benchmark;

