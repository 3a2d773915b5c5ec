/**
 * Recommendations: in-process latency of each strategy with 100,000 products and 1,000,000 logged
 * activities, and an offline hit rate at 10 on held-out last interactions of a generated shop with
 * planted co-view (clusters) and co-purchase (complement pairs) structure.
 * BENCH_SKIP_HIT=1 skips the hit-rate part when only latency is being measured. BENCH_PRODUCTS and
 * BENCH_ACTIVITIES (defaults 100,000 and 1,000,000, the issue's scale) shrink the shop for a quicker run.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { PerformanceObserver } from 'node:perf_hooks';
import { join } from 'node:path';
import type { Benchmark, BenchResult } from './run.js';
import { heapUsedMb, measure, round, stepped } from './harness.js';
import { createDiscoveryServer, type DiscoveryServer } from '../packages/server/src/app/server.js';
import { validateConfig } from '../packages/server/src/platform/config/load.js';
import { createLogger } from '../packages/server/src/platform/logger.js';
import type { StoredItem } from '../packages/server/src/domains/catalog/types.js';
import { parseItemBatch, parseSchemaRequest } from '../packages/server/src/apis/catalog/catalog-requests.js';
import type { NewActivity } from '../packages/server/src/domains/tracking/activity-service.js';
import { newActivity } from '../packages/server/src/domains/tracking/new-activity.js';
import type { StrategyName, WidgetConfig } from '../packages/server/src/platform/config/schema.js';
import { buildCatalogIndex, type CatalogIndex } from '../packages/server/src/domains/recommendations/catalog-index.js';
import { RecommendationEngine } from '../packages/server/src/domains/recommendations/recommendation-engine.js';
import { ModelTrainer } from '../packages/server/src/domains/recommendations/model-trainer.js';
import { FileBlobStore } from '../packages/server/src/platform/blob-store/file-blob-store.js';

const DAY = 24 * 60 * 60 * 1000;

/** Heap after a full collection, so figures compare between runs (the bench is not started with --expose-gc). */
function settledHeapMb(): number {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  return heapUsedMb();
}
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const LOGGED = Number(process.env.BENCH_ACTIVITIES ?? 1_000_000);
const CLUSTER = 50;
const SESSION = 8;
/** 2.5 sessions per shopper at any scale (50,000 shoppers at 1,000,000 activities). */
const SHOPPERS = Math.max(1, Math.round(LOGGED / SESSION / 2.5));

/** A deterministic generator, so that runs compare. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Skewed pick in [0, n): a few items of each cluster take most of the traffic, as in real shops. */
const skewed = (rand: () => number, n: number) => Math.floor(n * rand() ** 2.5);

function widget(strategy: StrategyName): WidgetConfig {
  return { id: `w-${strategy}`, title: strategy, attributes: {}, minResults: 0, maxResults: 10, strategies: [strategy], filters: [], emailCacheMinutes: 60 };
}

/** Title words: a cluster shares its noun, so text likeness and the planted structure agree as in a real shop. */
const ADJECTIVES = ['vintage', 'knitted', 'wooden', 'glass', 'retro', 'floral', 'striped', 'classic', 'mini', 'large', 'painted', 'rustic', 'modern', 'silver', 'golden', 'pastel'];
const NOUNS = ['bottle', 'lantern', 'cushion', 'mug', 'candle', 'basket', 'frame', 'clock', 'bag', 'tin', 'jar', 'bowl', 'plate', 'card', 'garland', 'doorstop', 'apron', 'tray', 'vase', 'mirror'];
const MOTIFS = ['heart', 'rose', 'star', 'bird', 'owl', 'spot', 'flag', 'leaf', 'dog', 'cat', 'bee', 'bus'];

function productAttributes(i: number): Record<string, string | number> {
  const cluster = Math.floor(i / CLUSTER);
  const title = `${ADJECTIVES[(i * 7) % ADJECTIVES.length]} ${MOTIFS[cluster % MOTIFS.length]} ${NOUNS[cluster % NOUNS.length]} ${cluster}`;
  return { title, categories: `cat-${cluster % 2000}, dept-${cluster % 40}`, brand: `brand-${i % 900}`, color: `c${i % 12}`, price: 10 + (i % 90) };
}

function catalog(count: number): CatalogIndex {
  const items: StoredItem[] = [];
  for (let i = 0; i < count; i++) {
    items.push({ key: `sku-${i}`, id: `sku-${i}`, type: 'product', context: 'default', kind: 'product', attributes: productAttributes(i), updated: '2026-11-21T00:00:00.000Z' });
  }
  return buildCatalogIndex(items, { tenantId: 'bench', environmentId: 'prod', version: 1 });
}

/** The latency catalog goes through the real catalog service and promotion, so the search index `similar` asks is the real one. */
async function loadCatalog(server: DiscoveryServer, count: number): Promise<void> {
  const service = server.deps.services.catalog;
  const text = ['title', 'categories', 'brand', 'color'].map((name) => ({ name, type: 'TEXT' }));
  await service.schemas.create('bench', 'prod', parseSchemaRequest({ name: 'product', attributes: [...text, { name: 'price', type: 'INTEGER' }], nestedItemSchemas: [] }));
  const { version } = await service.catalogs.create('bench', 'prod', { catalogItemSchemas: [{ name: 'product', version: 1 }] });
  const BATCH = 5000;
  for (let start = 0; start < count; start += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, count - start) }, (_, k) => ({ id: `sku-${start + k}`, catalogVersion: version, type: 'product', attributes: productAttributes(start + k) }));
    await service.items.load('bench', 'prod', parseItemBatch(batch));
  }
  const { activation } = await service.catalogs.promote('bench', 'prod', version);
  const active = await activation;
  if (active.state !== 'active') throw new Error(`bench catalog not active: ${JSON.stringify(active)}`);
}

const config = () =>
  validateConfig({ tenants: [{ id: 'bench', identityRepositories: ['customer-id'], environments: [{ id: 'prod', trackerKeys: ['bench-key'], searchTokens: [{ token: 'bench-search', configurations: [{ id: 'default' }] }], widgets: [widget('personalized'), widget('popular'), widget('bought-together')] }] }], publicRateLimits: { enabled: false } }, '(bench)', tmpdir());

/**
 * 1M activities written straight to the log: sessions of 8 items of one cluster, the last two bought in
 * one order. Shoppers come back every 8 days or so (each has 2-3 sessions over the 20 days; 50,000 of them at 1,000,000 activities), and
 * keep to two home clusters (4 sessions in 5): their next visit holds items that go with their earlier
 * ones, as a real shop's regulars do, so the learned ranking stage finds examples and is trained (with a
 * random cluster per session, no earlier item ever predicted a later one and no ranker was trained).
 */
async function writeLog(dataDir: string, now: number): Promise<void> {
  const dir = join(dataDir, 'activities', 'bench');
  await mkdir(dir, { recursive: true });
  const rand = random(7);
  const clusters = PRODUCTS / CLUSTER;
  const homeOf = (shopper: number, which: number) => (Math.imul(shopper * 2 + which + 1, 0x9e3779b1) >>> 0) % clusters;
  const start = now - 20 * DAY;
  const perSegment = 250_000;
  for (let segment = 0; segment < Math.ceil(LOGGED / perSegment); segment++) {
    const out = createWriteStream(join(dir, `segment-${String(segment + 1).padStart(6, '0')}.jsonl`));
    let cluster = 0;
    for (let i = segment * perSegment; i < Math.min((segment + 1) * perSegment, LOGGED); i++) {
      const session = Math.floor(i / SESSION);
      const shopper = session % SHOPPERS;
      if (i % SESSION === 0) cluster = rand() < 0.8 ? homeOf(shopper, rand() < 0.5 ? 0 : 1) : Math.floor(rand() * clusters);
      const at = start + i * 1700;
      const item = cluster * CLUSTER + skewed(rand, CLUSTER);
      const verb = i % SESSION >= SESSION - 2 ? 'purchase' : 'view';
      const order = verb === 'purchase' ? `,"orderId":"o-${session}"` : '';
      const line = `{"kind":"activity","id":"a_${i.toString(36)}","tenant":"bench","profileId":"p_${shopper}","source":"collect","verb":"${verb}","type":"product","itemId":"sku-${item}","timestamp":${at},"receivedAt":${at}${order}}\n`;
      if (!out.write(line)) await once(out, 'drain');
    }
    out.end();
    await once(out, 'finish');
  }
}

async function latency(rows: BenchResult['rows']): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-recs-'));
  const now = Date.now();
  await writeLog(dataDir, now);
  const heapBaseline = settledHeapMb();
  const started = performance.now();
  const server = await createDiscoveryServer({ config: config(), dataDir, logger: createLogger('silent') });
  const rebuildMs = Math.round(performance.now() - started);
  const heapAfterRebuild = settledHeapMb();
  const loadStarted = performance.now();
  await loadCatalog(server, PRODUCTS);
  const loadMs = Math.round(performance.now() - loadStarted);
  const { recommendations } = server.deps.services;
  const heapBeforeIndex = settledHeapMb();
  const indexStarted = performance.now();
  const index = (await recommendations.indexes.active('bench', 'prod'))!;
  const indexMs = Math.round(performance.now() - indexStarted);
  const indexMb = round(settledHeapMb() - heapBeforeIndex, 1);
  // No model file yet: the server started training on its worker at the first poll after start.
  const trainStarted = performance.now();
  await recommendations.models.settled();
  const model = recommendations.models.model('bench');
  const phases = recommendations.models.lastTimings('bench');
  const ranker = recommendations.models.ranker('bench')?.weights;
  const rssSoFar = Math.round(process.resourceUsage().maxRSS / 1024);
  rows.push({ case: 'model trained (worker thread)', 'median ms': model?.info.trainingMs ?? '-', 'p99 ms': '-', 'hit@10': '-', note: `${model?.rows ?? 0} items in the model (EASE is dense: it covers the maxItems items touched by most shoppers, the rest are served by co-occurrence), ${model?.info.touches ?? 0} touches; ranker ${ranker === undefined ? 'none' : `${ranker.examples} examples of ${ranker.shoppers} shoppers`}; waited ${Math.round(performance.now() - trainStarted)} ms after the index` });
  // Each phase of that training, and the memory it took: the training thread's own heap and buffers at
  // their fullest (sampled at the end of each phase), and the whole process's peak resident set so far.
  const phaseRows: Array<[string, number | undefined, string]> = [
    ['EASE: Gram matrix', phases?.gramMs, 'the touches of the chosen items, upper triangle'],
    ['EASE: inverse', phases?.inverseMs, 'Cholesky, dense'],
    ['EASE: sparsify', phases?.sparsifyMs, 'each row keeps its largest weights'],
    ["ranker: examples' item model", phases?.rankerModelMs, 'a second EASE solve without the examples\' visits'],
    ['ranker: examples', phases?.rankerExamplesMs, 'popularity swept forward, candidates and features per example'],
    ['ranker: fit', phases?.rankerFitMs, 'logistic regression, Newton'],
  ];
  for (const [phase, ms, what] of phaseRows) rows.push({ case: `training phase, ${phase}`, 'median ms': ms ?? '-', 'p99 ms': '-', 'hit@10': '-', note: what });
  rows.push({ case: 'training memory', 'median ms': '-', 'p99 ms': '-', 'hit@10': '-', note: `training thread's own heap and buffers at most ${phases?.peakMb ?? '-'} MB; peak RSS of the process (worker included) so far ${rssSoFar} MB` });
  const loadStarted2 = performance.now();
  const reloaded = new ModelTrainer({ aggregates: server.deps.services.recommendations.aggregates, blobs: new FileBlobStore({ directory: dataDir }), logger: createLogger('silent'), clock: server.deps.clock });
  await reloaded.start(['bench']);
  rows.push({ case: 'model loaded from its file (as at start)', 'median ms': Math.round(performance.now() - loadStarted2), 'p99 ms': '-', 'hit@10': '-', note: reloaded.model('bench') === undefined ? 'NOT loaded' : `${reloaded.model('bench')!.rows} items` });
  await reloaded.close();
  await endpointDuringTraining(server, rows);
  const engine = recommendations.engine;
  const rand = random(11);
  for (const strategy of ['popular', 'trending', 'also-viewed', 'bought-together', 'personalized', 'recently-viewed', 'similar', 'buy-again'] as const) {
    const w = widget(strategy);
    const pauses = watchGc();
    const calls: Array<{ start: number; end: number; cpuUs: number }> = [];
    const call = () =>
      engine.recommend({
        tenantId: 'bench',
        widget: w,
        index,
        profileId: `p_${Math.floor(rand() * SHOPPERS)}`,
        variables: { $productId: `sku-${Math.floor(rand() * PRODUCTS)}` },
        idsToBan: [],
      });
    for (let i = 0; i < 200; i++) call();
    for (let i = 0; i < 2000; i++) {
      const cpu = process.cpuUsage();
      const start = performance.now();
      call();
      const end = performance.now();
      const used = process.cpuUsage(cpu);
      calls.push({ start, end, cpuUs: used.user + used.system });
      // A turn of the event loop now and then, as a server has between requests (GC tasks and observers run there).
      if (i % 50 === 49) await new Promise((resolve) => setImmediate(resolve));
    }
    const wall = calls.map((c) => c.end - c.start).sort((a, b) => a - b);
    const cpu = calls.map((c) => c.cpuUs / 1000).sort((a, b) => a - b);
    rows.push({ case: `latency ${strategy}`, 'median ms': round(wall[1000]!), 'p99 ms': round(wall[1980]!), 'hit@10': '-', note: `${PRODUCTS} products, ${LOGGED} activities; CPU time of the call: median ${round(cpu[1000]!)} ms, p99 ${round(cpu[1980]!)} ms; ${await pauses.stop(calls)}` });
  }
  // Steady traffic: an activity arrives before every request, so the kept popular list is updated from
  // the items the activity touched (a whole recomputation walks every item of every day in the window).
  const popularWidget = widget('popular');
  const afterActivity: number[] = [];
  for (let i = 0; i < 300; i++) {
    await server.deps.services.activities.recordActivities('bench', [{ profileId: `p_${i}`, source: 'collect', verb: 'view', type: 'product', itemId: `sku-${Math.floor(rand() * PRODUCTS)}`, timestamp: Date.now() }]);
    const started = performance.now();
    engine.recommend({ tenantId: 'bench', widget: popularWidget, index, profileId: undefined, variables: {}, idsToBan: [] });
    afterActivity.push(performance.now() - started);
  }
  afterActivity.sort((a, b) => a - b);
  // A whole recomputation, five times (one call alone is as much the collector's timing as its own).
  const wholeRuns: number[] = [];
  for (let i = 0; i < 5; i++) {
    const wholeStarted = performance.now();
    server.deps.services.recommendations.aggregates.popularity('bench', { limit: 300 });
    wholeRuns.push(performance.now() - wholeStarted);
  }
  const wholeMs = `${round(Math.min(...wholeRuns), 1)}-${round(Math.max(...wholeRuns), 1)}`;
  // As a server runs it (a new day, a change log past merging): in slices, before the request's strategies.
  const { steps, longestMs: longestStepMs } = stepped(server.deps.services.recommendations.aggregates.popularityRanking('bench', { limit: 300 }));
  rows.push({
    case: 'latency popular, an activity before each call',
    'median ms': round(afterActivity[150]!, 3),
    'p99 ms': round(afterActivity[296]!, 3),
    'hit@10': '-',
    note: `kept list updated from the touched items; a whole recomputation takes ${wholeMs} ms at once, and runs in ${steps} steps of at most ${round(longestStepMs, 2)} ms in the server`,
  });
  // Product pages repeat: once a product's text neighbours are cached, `similar` is content scoring plus a lookup.
  const similarWidget = widget('similar');
  const repeated = Array.from({ length: 500 }, () => `sku-${Math.floor(rand() * PRODUCTS)}`);
  const warm = await measure(2000, (i) => engine.recommend({ tenantId: 'bench', widget: similarWidget, index, profileId: undefined, variables: { $productId: repeated[i % repeated.length] }, idsToBan: [] }), 500);
  rows.push({ case: 'latency similar, repeated products', 'median ms': warm.medianMs, 'p99 ms': warm.p99Ms, 'hit@10': '-', note: '500 product pages seen before (text neighbours cached)' });
  // The search index's share of `similar`: the same call the strategy makes on a cache miss.
  const search = server.deps.services.search;
  const text = await measure(2000, () => search.similarText('bench', 'prod', `sku-${Math.floor(rand() * PRODUCTS)}`, 100));
  rows.push({ case: 'search similarText alone', 'median ms': text.medianMs, 'p99 ms': text.p99Ms, 'hit@10': '-', note: 'SearchService (search owner), 100 neighbours' });
  rows.push({ case: 'aggregates rebuilt from the log', 'median ms': rebuildMs, 'p99 ms': '-', 'hit@10': '-', note: `heap ${heapAfterRebuild} MB after the rebuild (${heapBaseline} MB before the server)` });
  rows.push({ case: 'recommendation index built', 'median ms': indexMs, 'p99 ms': '-', 'hit@10': '-', note: `${index.items.length} items read from the store and indexed; heap +${indexMb} MB` });
  rows.push({ case: 'catalog loaded, promoted, indexed', 'median ms': loadMs, 'p99 ms': '-', 'hit@10': '-', note: `heap ${settledHeapMb()} MB with catalog, search and recommendation indexes` });
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
}

/**
 * Garbage-collection pauses while a latency case runs, and how many of the slowest calls (the p99's
 * 20) overlapped one: a p99 far above the median is either the collector or the machine's other load.
 */
function watchGc(): { stop: (calls: ReadonlyArray<{ start: number; end: number }>) => Promise<string> } {
  const pauses: Array<{ start: number; end: number }> = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) pauses.push({ start: entry.startTime, end: entry.startTime + entry.duration });
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    stop: async (calls) => {
      // Entries are delivered on a later turn of the event loop.
      await new Promise((resolve) => setTimeout(resolve, 20));
      observer.disconnect();
      const slowest = [...calls].sort((a, b) => b.end - b.start - (a.end - a.start)).slice(0, Math.ceil(calls.length / 100));
      const inGc = slowest.filter((c) => pauses.some((p) => p.start < c.end && p.end > c.start)).length;
      const longest = pauses.reduce((m, p) => Math.max(m, p.end - p.start), 0);
      return `GC: ${pauses.length} pauses (longest ${round(longest, 2)} ms); ${inGc} of the ${slowest.length} slowest calls overlapped one`;
    },
  };
}

/** p50/p99 of HTTP requests to three widgets while idle, then while a training runs on the worker. */
async function endpointDuringTraining(server: DiscoveryServer, rows: BenchResult['rows']): Promise<void> {
  const { url } = await server.listen(0, '127.0.0.1');
  const rand = random(5);
  const paths = ['w-personalized', 'w-popular', 'w-bought-together'].map((id) => () => `${url}/widget/${id}/recommendations/p_${Math.floor(rand() * SHOPPERS)}?variables=${encodeURIComponent(JSON.stringify({ $productId: `sku-${Math.floor(rand() * PRODUCTS)}` }))}`);
  const run = async (count: number): Promise<number[]> => {
    const times: number[] = [];
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      const response = await fetch(paths[i % paths.length]!());
      await response.arrayBuffer();
      times.push(performance.now() - started);
    }
    return times.sort((a, b) => a - b);
  };
  await run(100);
  const idle = await run(600);
  const models = server.deps.services.recommendations.models;
  // The process's resident memory (catalog, indexes, aggregates) before, and its highest while the training runs.
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const rssSampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 50);
  const training = models.trainNow('bench', { force: true });
  const busy: number[] = [];
  // Requests keep going for as long as the training runs (at least 600 of them).
  while (busy.length < 600 || !(await Promise.race([training.then(() => true), new Promise((r) => setTimeout(() => r(false), 0))]))) {
    busy.push(...(await run(30)));
    if (busy.length > 20_000) break;
  }
  await training;
  clearInterval(rssSampler);
  const ownMb = models.lastTimings('bench')?.peakMb ?? '-';
  busy.sort((a, b) => a - b);
  const pct = (list: number[], p: number) => round(list[Math.min(list.length - 1, Math.floor(list.length * p))]!, 2);
  rows.push({ case: 'endpoint, idle (3 widgets over HTTP)', 'median ms': pct(idle, 0.5), 'p99 ms': pct(idle, 0.99), 'hit@10': '-', note: `${idle.length} requests` });
  rows.push({ case: 'endpoint, while a training runs', 'median ms': pct(busy, 0.5), 'p99 ms': pct(busy, 0.99), 'hit@10': '-', note: `${busy.length} requests; p99 ${round(pct(busy, 0.99) / pct(idle, 0.99), 2)}x idle (bar: within 2x); process RSS ${Math.round(rssBefore / 1048576)} MB before the training, at most ${Math.round(rssPeak / 1048576)} MB during it; the training thread's own heap and buffers at most ${ownMb} MB` });
}

/**
 * The evaluation shop: 5,000 items in clusters of 50, each item with one complement (its pair in the
 * cluster). 3,000 shoppers each keep to one cluster; a session views 4 of its items and half the
 * sessions buy an item with its complement. The last interaction of each shopper is held out and
 * predicted from the one before it (and from the profile's history for `personalized`).
 */
async function hitRates(rows: BenchResult['rows']): Promise<void> {
  const ITEMS = 5000;
  const USERS = 3000;
  const rand = random(3);
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-recs-eval-'));
  const server: DiscoveryServer = await createDiscoveryServer({ config: config(), dataDir, logger: createLogger('silent') });
  const activities = server.deps.services.activities;
  const now = Date.now();
  const index = catalog(ITEMS);
  const heldOut: Array<{ profileId: string; context: string; target: string }> = [];
  let train: NewActivity[] = [];
  for (let u = 0; u < USERS; u++) {
    const profileId = `u_${u}`;
    const cluster = Math.floor(rand() * (ITEMS / CLUSTER));
    const events: Array<{ item: number; verb: string; order?: string }> = [];
    for (let s = 0; s < 6; s++) {
      for (let v = 0; v < 4; v++) events.push({ item: cluster * CLUSTER + skewed(rand, CLUSTER), verb: 'view' });
      if (rand() < 0.5) {
        const bought = cluster * CLUSTER + skewed(rand, CLUSTER);
        const order = `o_${u}_${s}`;
        events.push({ item: bought, verb: 'purchase', order }, { item: bought ^ 1, verb: 'purchase', order });
      }
    }
    const target = events.pop()!;
    const context = events.at(-1)!;
    if (target.item === context.item) continue;
    heldOut.push({ profileId, context: `sku-${context.item}`, target: `sku-${target.item}` });
    const start = now - 10 * DAY + u * 60_000;
    events.forEach((e, i) => {
      // Six sessions an hour apart: each is its own visit.
      const at = start + Math.floor(i / 6) * 3_600_000 + (i % 6) * 30_000;
      train.push(newActivity({ profileId, source: 'collect', verb: e.verb, type: 'product', itemId: `sku-${e.item}`, timestamp: at, orderId: e.order }));
    });
    if (train.length >= 5000) {
      await activities.recordActivities('bench', train);
      train = [];
    }
  }
  if (train.length > 0) await activities.recordActivities('bench', train);
  const engine = new RecommendationEngine({ activities, aggregates: server.deps.services.recommendations.aggregates });
  for (const strategy of ['popular', 'also-viewed', 'bought-together', 'personalized'] as const) {
    const w = widget(strategy);
    let hits = 0;
    for (const case_ of heldOut) {
      const list = engine.recommend({ tenantId: 'bench', widget: w, index, profileId: case_.profileId, variables: { $productId: case_.context }, idsToBan: [] });
      if (list.some((r) => r.itemId === case_.target)) hits++;
    }
    rows.push({ case: `hit rate ${strategy}`, 'median ms': '-', 'p99 ms': '-', 'hit@10': round(hits / heldOut.length, 3), note: `${heldOut.length} held-out last interactions` });
  }
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
}

const benchmark: Benchmark = async (): Promise<BenchResult> => {
  const rows: BenchResult['rows'] = [];
  if (process.env.BENCH_SKIP_HIT !== "1") await hitRates(rows);
  await latency(rows);
  return {
    name: 'recommendations',
    rows,
    notes: [
      'Latency is the engine over the catalog index and the live aggregates, in process; the HTTP layer is not included (response ids come from blocks reserved with one log line per 10,000 responses).',
      'similar (cold): each call asks about a product never asked before, so search.similarText runs every time; repeated: the same 500 products again (text neighbours cached).',
      'Hit rate: share of held-out last interactions found in the top 10, predicted from the interaction before (popular ignores it).',
    ],
  };
};

export default benchmark;
