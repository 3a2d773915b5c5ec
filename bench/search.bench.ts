/**
 * Search on a generated 100,000-product catalog (every fourth item a variant), loaded through the
 * catalog service of a real server and promoted, which builds the index. Reports the promotion with
 * the latency of other requests served meanwhile (another tenant's search, /health, a catalog status
 * call; bench/harness.ts `probe`) beside the same requests idle, the index build time and heap,
 * in-process latency with facets and a filter on (result cache off: the engine alone), the one-typo
 * hit rate, text similarity, a write reaching the index, and the HTTP figures of search-http.ts
 * (uncached and cached search, suggest, autocomplete, bare Koa, at 50 connections) for this catalog
 * and for one with a realistic vocabulary (realistic-catalog.ts). autocannon runs in its own process.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Benchmark, BenchResult } from './run.js';
import { httpFigures, type HttpTarget } from './search-http.js';
import { realisticCatalog, retailTitles, RETAIL_DATA } from './realistic-catalog.js';
import { heapUsedMb, measure, probe, round, startBareKoa, stepped, type ProbeTarget } from './harness.js';
import { createDiscoveryServer } from '../packages/server/src/app/server.js';
import { parseItemBatch, parseSchemaRequest } from '../packages/server/src/apis/catalog/catalog-requests.js';
import { validateConfig } from '../packages/server/src/platform/config/load.js';
import { createLogger } from '../packages/server/src/platform/logger.js';
import { SearchIndex } from '../packages/server/src/domains/search/index/search-index.js';
import { decodeSnapshot } from '../packages/server/src/domains/search/index/index-snapshot.js';
import { runAtOnce } from '../packages/server/src/platform/sliced-work.js';
import type { SearchQuery, SearchService } from '../packages/server/src/domains/search/search-service.js';
import type { CatalogService } from '../packages/server/src/domains/catalog/catalog-service.js';
import { startCompanion } from '../apps/companion/src/companion.js';
import { DEMO_CONFIG } from '../apps/companion/src/options.js';
import { judgeSet, type SetOutcome } from './relevance/judge.js';
import { DEMO_QUERIES } from './relevance/demo-queries.js';
import { GENERATED_QUERIES } from './relevance/generated-queries.js';
import { GENERATED_SCHEMA, batchOf, benchQueries, generatedSearchConfig, product, rng } from './relevance/generated-catalog.js';

/**
 * A full collection on demand, so the index heap figure is steady under plain `npm run bench` (no
 * --expose-gc): V8 lets a new context see `gc` once the flag is set at run time.
 */
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const TOTAL = 100_000;
/** Search threads of the server (`searchThreads`); the HTTP rows show searches with and without them. */
const SEARCH_THREADS = 1;
const BATCH = 5_000;
const TENANT = 'bench';
const ENV = 'prod';
const TOKEN = 'bench-search';
const OTHER_TENANT = 'bench-other';
const OTHER_TOKEN = 'bench-other-search';
const RETAIL_TENANT = 'bench-retail';
const RETAIL_TOKEN = 'bench-retail-search';
/** The bench's own service account, for the catalog status calls probed during the promotion. */
const STATUS_SECRET = 'bench-status-secret';

/** One edit (substitution, deletion or insertion) at a random place, as a shopper's typo. */
function misspell(word: string, r: () => number): string {
  const at = 1 + Math.floor(r() * (word.length - 1));
  const letter = String.fromCharCode(97 + Math.floor(r() * 26));
  const kind = Math.floor(r() * 3);
  if (kind === 0) return word.slice(0, at) + (word[at] === letter ? 'q' : letter) + word.slice(at + 1);
  if (kind === 1) return word.slice(0, at) + word.slice(at + 1);
  return word.slice(0, at) + letter + word.slice(at);
}

const benchmark: Benchmark = async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'discovery-bench-search-'));
  const generated = generatedSearchConfig(TENANT, ENV, TOKEN) as { tenants: Record<string, unknown>[] };
  const other = generatedSearchConfig(OTHER_TENANT, ENV, OTHER_TOKEN) as { tenants: Record<string, unknown>[] };
  const retail = generatedSearchConfig(RETAIL_TENANT, ENV, RETAIL_TOKEN) as { tenants: Record<string, unknown>[] };
  const statusAccount = { clientId: 'bench-status', realm: 'tenant', clientSecretHash: `sha256:${createHash('sha256').update(STATUS_SECRET).digest('hex')}` };
  const config = validateConfig(
    // One load generator plays every shopper from one address: the public rate limits would measure themselves.
    // One search thread beside the main thread: what this 2-core machine takes (the load generator needs the rest).
    { tenants: [{ ...generated.tenants[0], serviceAccounts: [statusAccount] }, other.tenants[0], retail.tenants[0]], publicRateLimits: { enabled: false }, searchThreads: SEARCH_THREADS },
    '(bench)',
    dataDir,
  );
  const server = await createDiscoveryServer({ config, dataDir, logger: createLogger('silent') });
  const bare = await startBareKoa();
  try {
    const { url } = await server.listen(0);
    const catalog = server.deps.services.catalog;
    const search = server.deps.services.search;
    const schema = await catalog.schemas.create(TENANT, ENV, parseSchemaRequest(GENERATED_SCHEMA));
    const { version } = await catalog.catalogs.create(TENANT, ENV, { catalogItemSchemas: [{ name: schema.name, version: schema.version }] });
    for (let start = 0; start < TOTAL; start += BATCH) await catalog.items.load(TENANT, ENV, parseItemBatch(batchOf(start, version, BATCH)));

    // Requests of another tenant, the health check and a catalog status call, answered idle and then
    // while the 100,000-item promotion builds its index: the build must not hold them up.
    const otherSchema = await catalog.schemas.create(OTHER_TENANT, ENV, parseSchemaRequest(GENERATED_SCHEMA));
    const otherCatalog = await catalog.catalogs.create(OTHER_TENANT, ENV, { catalogItemSchemas: [{ name: otherSchema.name, version: otherSchema.version }] });
    await catalog.items.load(OTHER_TENANT, ENV, parseItemBatch(batchOf(0, otherCatalog.version, 2_000)));
    await (await catalog.catalogs.promote(OTHER_TENANT, ENV, otherCatalog.version)).activation;
    const tokenRes = await fetch(`${url}/auth/realms/${TENANT}/protocol/openid-connect/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`bench-status:${STATUS_SECRET}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    const { access_token: accessToken } = (await tokenRes.json()) as { access_token: string };
    const probes: ProbeTarget[] = [
      { name: 'POST /search, another tenant', method: 'POST', url: `${url}/search`, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: OTHER_TOKEN, query: 'red lantern' }), pauseMs: 5 },
      { name: 'GET /health', method: 'GET', url: `${url}/health`, pauseMs: 5 },
      { name: 'GET catalog status', method: 'GET', url: `${url}/catalog/catalogs/${version}?tenant=${TENANT}&environment=${ENV}`, headers: { authorization: `Bearer ${accessToken}` }, pauseMs: 5 },
    ];
    // The server's own event-loop delay too: what any request arriving at that moment would wait, with no network in between.
    const loopDelay = monitorEventLoopDelay({ resolution: 5 });
    loopDelay.enable();
    const idle = await probe(probes, () => new Promise((resolve) => setTimeout(resolve, 3_000)));
    loopDelay.disable();
    const idleLoop = { p99Ms: round(loopDelay.percentile(99) / 1e6, 1), maxMs: round(loopDelay.max / 1e6, 1) };
    loopDelay.reset();
    loopDelay.enable();
    const promoted = await probe(probes, async () => {
      const promoteStart = performance.now();
      await (await catalog.catalogs.promote(TENANT, ENV, version)).activation;
      return performance.now() - promoteStart;
    });
    loopDelay.disable();
    const promotionLoop = { p99Ms: round(loopDelay.percentile(99) / 1e6, 1), maxMs: round(loopDelay.max / 1e6, 1) };
    const promoteMs = promoted.result;

    // The build alone, and the heap one index holds, measured on the same items outside the server.
    const items = await catalog.allItems(TENANT, ENV, version);
    collectGarbage();
    const heapBefore = heapUsedMb();
    const buildStart = performance.now();
    const fields = ['title', 'brand', 'categories', 'description'];
    let index: SearchIndex | undefined = new SearchIndex(items, fields);
    const buildMs = performance.now() - buildStart;
    collectGarbage();
    const indexMb = round(heapUsedMb() - heapBefore, 1);
    const documents = index.size;
    // Its snapshot (what a restart restores instead of building), written and restored outside the server too.
    const warm = { languages: ['english' as const], facets: [], attributes: [], sorts: [] };
    // Step by step, as the server writes it in slices: its longest step is what a request waits at most for it.
    const snapshotStart = performance.now();
    const { value: snapshotBytes, steps: snapshotSteps, longestMs: longestSnapshotStepMs } = stepped(index.snapshot(version));
    const snapshotMs = performance.now() - snapshotStart;
    index = undefined;
    collectGarbage();
    const restoreStart = performance.now();
    const decoded = decodeSnapshot(snapshotBytes);
    if (typeof decoded === 'string') throw new Error(decoded);
    let restored: SearchIndex | string | undefined = runAtOnce(SearchIndex.restoring(items, fields, warm, decoded));
    const restoreMs = performance.now() - restoreStart;
    if (typeof restored === 'string') throw new Error(restored);
    restored = undefined;
    // The measured index is garbage now: collected here, not in the middle of the latency measurements.
    collectGarbage();

    const queries = benchQueries(1_000, 42);
    const request = (query: string): SearchQuery => ({
      tenantId: TENANT,
      environmentId: ENV,
      // The registry's configuration, as HTTP requests resolve it: the server composes its own at start
      // (file and stored settings), so the validated file's objects would miss the index's warm facet columns.
      configuration: server.deps.registry.searchToken(TOKEN).token.configurations[0]!,
      query,
      offset: 0,
      limit: 10,
      sortBy: [],
      facets: [{ id: 'color', values: ['red', 'blue'] }],
      filter: 'in_stock = 1 AND price < 4000',
      disabled: new Set(),
    });
    // The engine alone: the result cache (on in the server) would answer a repeated query from memory.
    const cacheSize = search.resultCacheSize;
    search.resultCacheSize = 0;
    // Warmed by one pass over the queries: each product view is built at a document's first appearance
    // in a page and kept, so a serving index pays it once, not in every measured query.
    const inProcess = await measure(2_000, (i) => search.search(request(queries[i % queries.length]!)), queries.length);
    const commonWord = await measure(200, () => search.search(request('the')));
    // The same queries for a shopper whose store fires a `when` rule (docs/search.md): two pins and a rule filter joining the request's.
    const base = request('').configuration;
    const withRules = { ...base, contextVariables: { store: 'string' as const }, rules: [...base.rules, { when: { store: 'paris' }, pin: ['p4', 'p8'], boost: [], bury: [], filter: 'price > 100' }] };
    const inStore = await measure(2_000, (i) => search.search({ ...request(queries[i % queries.length]!), configuration: withRules, variables: { store: { type: 'string', value: 'paris' } } }), queries.length);

    // Typos in words of five letters or more, with one correct word beside them.
    const tr = rng(7);
    let hits = 0;
    const TYPOS = 500;
    for (let i = 0; i < TYPOS; i++) {
      const n = Math.floor(tr() * TOTAL / 4) * 4;
      const words = String(product(n).title).split(' ');
      const long = words.filter((w) => w.length >= 5);
      const target = long.length > 0 ? long[Math.floor(tr() * long.length)]! : words[0]!;
      const other = words.find((w) => w !== target)!;
      const result = search.search({ ...request(`${misspell(target, tr)} ${other}`), facets: [], filter: undefined, ordered: true });
      const found = result.ordered.findIndex((hit) => hit.item.id === `p${n}`);
      if (found >= 0) hits++;
    }

    // Our relevance set on this catalog (bench/relevance): first-page precision, judged on titles.
    const relevance = await judgeSet(GENERATED_QUERIES, async (query) => search.search({ ...request(query), facets: [], filter: undefined }).items.map((hit) => String(hit.product?.title ?? '')));

    // Bad input must still get a normal answer quickly: the slowest of a few runs of each.
    const BAD_INPUT: Record<string, string> = {
      '1,000 characters': 'vintage lantern '.repeat(63).slice(0, 1_000),
      'only stop words': 'the and of for with a',
      emoji: '🎄🎁❤️ 🕯️',
      'mixed scripts': 'лампа 灯笼 lantern ランタン',
      '200 one-letter words': Array.from({ length: 200 }, (_, i) => String.fromCharCode(97 + (i % 26))).join(' '),
    };
    const badInput = Object.entries(BAD_INPUT).map(([label, query]) => {
      let worst = 0;
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        search.search(request(query));
        worst = Math.max(worst, performance.now() - started);
      }
      return { step: `bad input: ${label}, slowest of 5`, ms: round(worst, 2) };
    });

    // Text similarity as recommendations call it, for random items.
    const similar = await measure(1_000, (i) => search.similarText(TENANT, ENV, `p${(i * 7919) % (TOTAL / 4) * 4}`, 10));

    // A write to the active catalog: 100 titles changed, then the next search sees them.
    const patch = Array.from({ length: 100 }, (_, i) => ({ id: `p${i * 4}`, catalogVersion: version, type: 'product', attributes: { title: `zanzibar lantern ${i}` } }));
    const writeStart = performance.now();
    await catalog.items.patch(TENANT, ENV, parseItemBatch(patch));
    await search.settled();
    const writeMs = performance.now() - writeStart;
    const afterWrite = search.search({ ...request('zanzibar'), facets: [], filter: undefined }).count;

    // Searches naming sort orders nobody asked for yet (text, several keys): each is ranked over the
    // whole catalog while its request waits; another tenant's searches must not wait with it.
    const NEW_ORDERS = [
      [{ attribute: 'title', order: 'asc' }],
      [{ attribute: 'brand', order: 'desc' }, { attribute: 'title', order: 'asc' }],
      [{ attribute: 'color', order: 'asc' }, { attribute: 'price', order: 'desc' }],
      [{ attribute: 'title', order: 'desc' }],
    ];
    const sortedSearch = (sortBy: unknown) =>
      fetch(`${url}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: TOKEN, query: '', options: { limit: 10, sortBy } }) }).then((res) => res.arrayBuffer());
    loopDelay.reset();
    loopDelay.enable();
    const newOrders = await probe([probes[0]!], async () => {
      const started = performance.now();
      await Promise.all(NEW_ORDERS.map(sortedSearch));
      return performance.now() - started;
    });
    loopDelay.disable();
    const newOrdersLoop = { p99Ms: round(loopDelay.percentile(99) / 1e6, 1), maxMs: round(loopDelay.max / 1e6, 1) };

    search.resultCacheSize = cacheSize;
    const threads = server.deps.services.searchThreads!;
    const setCacheSize = (size: number) => {
      search.resultCacheSize = size;
      threads.setResultCacheSize(size);
    };
    const threadsOf = (tenantId: string) => ({
      count: SEARCH_THREADS,
      setPaused: (paused: boolean) => void (threads.paused = paused),
      stats: () => threads.stats(),
      inStep: async () => {
        while (!threads.inStepFor(tenantId, ENV)) await new Promise((resolve) => setTimeout(resolve, 100));
      },
    });
    const httpTarget = { url, bareUrl: bare.url, setBareBusyMs: bare.setBusyMs, cacheSize, setCacheSize };
    const generatedHttp = await httpFigures('generated', { ...httpTarget, token: TOKEN, queries, threads: threadsOf(TENANT) });
    const retailConfiguration = server.deps.registry.searchToken(RETAIL_TOKEN).token.configurations[0]!;
    const realistic = await realisticFigures(catalog, search, { ...httpTarget, token: RETAIL_TOKEN, threads: threadsOf(RETAIL_TENANT) }, (query) => ({ ...request(query), tenantId: RETAIL_TENANT, configuration: retailConfiguration }));

    const rows: BenchResult['rows'] = [
      { step: `promote ${TOTAL} items (${documents} documents), index build included`, seconds: round(promoteMs / 1000, 2) },
      ...idle.probes.map((p) => ({ step: `idle: ${p.name} (${p.count} requests)`, p50Ms: p.p50Ms, p99Ms: p.p99Ms, maxMs: p.maxMs, failures: p.failures })),
      ...promoted.probes.map((p) => ({ step: `during the promotion: ${p.name} (${p.count} requests)`, p50Ms: p.p50Ms, p99Ms: p.p99Ms, maxMs: p.maxMs, failures: p.failures })),
      { step: 'server event-loop delay, idle (monitorEventLoopDelay)', ...idleLoop },
      { step: 'server event-loop delay, during the promotion', ...promotionLoop },
      { step: 'index build alone', seconds: round(buildMs / 1000, 2), heapMb: indexMb },
      { step: `index snapshot written (serialized, ${round(snapshotBytes.length / 2 ** 20, 1)} MB, in ${snapshotSteps} steps; maxMs: the longest, collections included)`, seconds: round(snapshotMs / 1000, 2), maxMs: round(longestSnapshotStepMs, 1) },
      { step: 'index restored from its snapshot (decode, documents, term maps)', seconds: round(restoreMs / 1000, 2) },
      { step: 'in process, 1,000 queries with facets and a filter', medianMs: inProcess.medianMs, p99Ms: inProcess.p99Ms },
      { step: 'in process, the same 1,000 queries in a context firing a when rule (2 pins, a rule filter)', medianMs: inStore.medianMs, p99Ms: inStore.p99Ms },
      { step: 'in process, a word in most items ("the")', medianMs: commonWord.medianMs, p99Ms: commonWord.p99Ms },
      { step: `one-typo queries found (${TYPOS})`, hitRate: round(hits / TYPOS, 3) },
      { step: `relevance set, ${GENERATED_QUERIES.length} judged queries, mean first-page precision`, precision: relevance.mean, empty: relevance.empty.length },
      ...badInput,
      { step: 'similarText, 10 similar items', medianMs: similar.medianMs, p99Ms: similar.p99Ms },
      { step: `PATCH 100 titles until searchable (found ${afterWrite})`, seconds: round(writeMs / 1000, 3) },
      { step: `${NEW_ORDERS.length} searches naming new sort orders (text, two keys), all answered`, seconds: round(newOrders.result / 1000, 2) },
      ...newOrders.probes.map((p) => ({ step: `meanwhile: ${p.name} (${p.count} requests)`, p50Ms: p.p50Ms, p99Ms: p.p99Ms, maxMs: p.maxMs, failures: p.failures })),
      { step: 'server event-loop delay, meanwhile', ...newOrdersLoop },
      ...generatedHttp,
      ...realistic,
      { step: 'heap used at the end (main thread, after a full collection)', mb: (collectGarbage(), heapUsedMb()) },
      { step: `heap used at the end (${SEARCH_THREADS === 1 ? 'the search thread' : 'each search thread'}, after a full collection: its copies of the three tenants' indexes and items)`, mb: (await threads.stats(true)).map((stats) => round(stats.heapBytes / 1048576, 1)).join(' / ') },
      { step: `resident memory at the end (main thread and ${SEARCH_THREADS} search thread${SEARCH_THREADS === 1 ? '' : 's'})`, mb: round(process.memoryUsage().rss / 1048576, 1) },
    ];
    const demo = await demoRelevance();
    rows.push({ step: `relevance on the demo catalog, ${DEMO_QUERIES.length} judged queries, mean first-page precision`, precision: demo.mean, empty: demo.empty.length });
    const notes = [
      'In process: the search service alone (result cache off), the registry\'s configuration, after one pass over the 1,000 queries (each product view is built once, at a document\'s first page); the code as production runs it (scripts/build-bench.ts).',
      `demo catalog precision by kind: ${JSON.stringify(demo.byKind)}`, `generated catalog precision by kind: ${JSON.stringify(relevance.byKind)}`,
    ];
    return { name: 'search (100,000 generated items)', rows, notes };
  } finally {
    await bare.close();
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
};

/**
 * The realistic-vocabulary catalog (realistic-catalog.ts) in its own tenant of the same server: loaded,
 * promoted, then the in-process and HTTP figures on its own queries. Skipped (one row says so) when
 * the data set is absent.
 */
async function realisticFigures(
  catalog: CatalogService,
  search: SearchService,
  target: Omit<HttpTarget, 'queries'>,
  request: (query: string) => SearchQuery,
): Promise<BenchResult['rows']> {
  const titles = retailTitles();
  if (titles === undefined) return [{ step: `realistic catalog skipped: no data set at ${RETAIL_DATA}` }];
  const retail = realisticCatalog(titles);
  const schema = await catalog.schemas.create(RETAIL_TENANT, ENV, parseSchemaRequest(GENERATED_SCHEMA));
  const { version } = await catalog.catalogs.create(RETAIL_TENANT, ENV, { catalogItemSchemas: [{ name: schema.name, version: schema.version }] });
  for (let start = 0; start < TOTAL; start += BATCH) await catalog.items.load(RETAIL_TENANT, ENV, parseItemBatch(retail.batchOf(start, version, BATCH)));
  const started = performance.now();
  await (await catalog.catalogs.promote(RETAIL_TENANT, ENV, version)).activation;
  const promoteMs = performance.now() - started;
  const queries = retail.queries(1_000, 42);
  target.setCacheSize(0);
  const inProcess = await measure(2_000, (i) => search.search(request(queries[i % queries.length]!)), queries.length);
  target.setCacheSize(target.cacheSize);
  return [
    { step: `realistic: promote ${TOTAL} items (${retail.titles} real titles, ${retail.words} real words)`, seconds: round(promoteMs / 1000, 2) },
    { step: 'realistic: in process, 1,000 queries with facets and a filter', medianMs: inProcess.medianMs, p99Ms: inProcess.p99Ms },
    ...(await httpFigures('realistic', { ...target, queries })),
  ];
}

/** The demo catalog's relevance set, through the companion's real server with the demo configuration. */
async function demoRelevance(): Promise<SetOutcome> {
  const dataDir = await mkdtemp(join(tmpdir(), 'discovery-bench-relevance-'));
  const companion = await startCompanion({ configFile: DEMO_CONFIG, port: 0, host: '127.0.0.1', dataDir, demo: true, demoActivities: false, logLevel: 'silent', sdkDir: dataDir }, createLogger('silent'));
  try {
    return await judgeSet(DEMO_QUERIES, async (query) => {
      const res = await fetch(`${companion.url}/search`, { method: 'POST', headers: { 'content-type': 'application/json; charset=UTF-8' }, body: JSON.stringify({ token: 'demo-search-token', query, options: { limit: 10 } }) });
      const body = (await res.json()) as { items: { product?: { title?: string } }[] };
      return body.items.map((item) => String(item.product?.title ?? ''));
    });
  } finally {
    await companion.server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export default benchmark;
