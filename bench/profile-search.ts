/**
 * Profiles uncached POST /search (docs/performance.md): a server over the generated catalog (SIZE items,
 * 100,000 by default) with the result cache off, loaded by autocannon from a child process (the bench's
 * 1,000 rotating queries with facets and a filter); the CPU profile covers SECONDS of load after a
 * warm-up and is written to OUT. `node bench/summarise-profile.mjs OUT <requests>` splits it per request.
 * SUGGEST=1 profiles suggest (grouped by brand) instead of search. CATALOG=realistic profiles the realistic-vocabulary catalog (realistic-catalog.ts) and its queries instead.
 * THREADS=n serves with n search threads (`searchThreads`), measured once they hold the catalog.
 * PROFILE=0 runs the same load without the profiler: its sampling costs code with many calls more, so
 * compare throughput (req/s, CPU per request) between two versions that way.
 * Printed after the load: the main thread's longest event-loop delay and how busy its loop was, and each
 * search thread's busy share, loop and collections.
 * HEALTH=1 loads GET /health instead: the HTTP stack and middleware alone. EXTRA=1 adds a second
 * tenant holding the other catalog (as the search bench's process holds both; unsearched).
 * HEAP_GROWTH=p sets the heap growth `npm start` sets (--heap-growth, platform/heap-growth.ts).
 * Also printed: each OS thread's CPU per request (Linux /proc): the main thread's and a search thread's own cost, apart.
 * HEAPSAMPLE=file writes a sampling heap profile of what the load allocated and a scavenge did not
 * free (promoted objects, and what is still live): what makes the main thread's full collections.
 *   npx tsx bench/profile-search.ts
 */
import { writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { load, threadTimes } from './harness.js';
import { createDiscoveryServer } from '../packages/server/src/app/server.js';
import { parseItemBatch, parseSchemaRequest } from '../packages/server/src/apis/catalog/catalog-requests.js';
import { validateConfig } from '../packages/server/src/platform/config/load.js';
import { createLogger } from '../packages/server/src/platform/logger.js';
import { realisticCatalog, retailTitles } from './realistic-catalog.js';
import { ADJECTIVES, COLOURS, EXTRAS, GENERATED_SCHEMA, NOUNS, batchOf, generatedSearchConfig, pick, rng } from './relevance/generated-catalog.js';

if (process.env.HEAP_GROWTH) (await import('../packages/server/src/platform/heap-growth.js')).limitHeapGrowth(Number(process.env.HEAP_GROWTH));
const SIZE = Number(process.env.SIZE ?? 100000);
const dataDir = await mkdtemp(join(tmpdir(), 'prof-'));
// EXTRA=1: a second tenant holding the other catalog (generated beside realistic, or the reverse), as the search bench's process holds both.
const tenants = [generatedSearchConfig('b', 'p', 'tok'), ...(process.env.EXTRA === '1' ? [generatedSearchConfig('c', 'p', 'tok2')] : [])].flatMap((c) => c.tenants as unknown[]);
const config = validateConfig({ tenants, publicRateLimits: { enabled: false }, searchThreads: Number(process.env.THREADS ?? 0) }, 'x', dataDir);
const server = await createDiscoveryServer({ config, dataDir, logger: createLogger('silent') });
const { url } = await server.listen(0);
const catalog = server.deps.services.catalog;
const schema = await catalog.schemas.create('b', 'p', parseSchemaRequest(GENERATED_SCHEMA));
const { version } = await catalog.catalogs.create('b', 'p', { catalogItemSchemas: [{ name: schema.name, version: schema.version }] });
const titles = process.env.CATALOG === 'realistic' ? retailTitles() : undefined;
if (process.env.CATALOG === 'realistic' && titles === undefined) throw new Error('no retail data set for CATALOG=realistic');
const retail = titles === undefined ? undefined : realisticCatalog(titles);
for (let s = 0; s < SIZE; s += 5000) await catalog.items.load('b', 'p', parseItemBatch((retail?.batchOf ?? batchOf)(s, version, 5000)));
await (await catalog.catalogs.promote('b', 'p', version)).activation;
if (process.env.EXTRA === '1') {
  const other = retail === undefined ? realisticCatalog(retailTitles()!) : undefined;
  const extraSchema = await catalog.schemas.create('c', 'p', parseSchemaRequest(GENERATED_SCHEMA));
  const extra = await catalog.catalogs.create('c', 'p', { catalogItemSchemas: [{ name: extraSchema.name, version: extraSchema.version }] });
  for (let s = 0; s < SIZE; s += 5000) await catalog.items.load('c', 'p', parseItemBatch((other?.batchOf ?? batchOf)(s, extra.version, 5000)));
  await (await catalog.catalogs.promote('c', 'p', extra.version)).activation;
}
if (process.env.CACHE !== "1") {
  server.deps.services.search.resultCacheSize = 0;
  server.deps.services.searchThreads?.setResultCacheSize(0);
}
const threads = server.deps.services.searchThreads;
while (threads !== undefined && (!threads.inStepFor('b', 'p') || (process.env.EXTRA === '1' && !threads.inStepFor('c', 'p')))) await new Promise((resolve) => setTimeout(resolve, 100));
const r = rng(42);
const queries: string[] = retail?.queries(1000, 42) ?? [];
for (let i = 0; retail === undefined && i < 1000; i++) {
  const noun = pick(r, NOUNS); const kind = i % 4;
  if (kind === 0) queries.push(`${pick(r, COLOURS)} ${noun}`);
  else if (kind === 1) queries.push(`${pick(r, ADJECTIVES)} ${noun.slice(0, Math.max(2, noun.length - 2))}`);
  else if (kind === 2) queries.push(`${pick(r, EXTRAS)} ${pick(r, COLOURS)} ${noun}`);
  else queries.push(pick(r, [...EXTRAS, ...NOUNS]).slice(0, 3));
}
const body = (query: string) => JSON.stringify({ token: 'tok', query, options: { facets: [{ id: 'color', values: ['red', 'blue'] }], filter: 'in_stock = 1 AND price < 4000' } });
// SUGGEST=1 profiles POST /search/suggest grouped by brand instead (the search bench's suggest row).
const suggestBody = (query: string) => JSON.stringify({ token: 'tok', query, options: { groupBy: { attribute: 'brand', size: 5 } } });
const requests = process.env.HEALTH ? [{ method: 'GET' as const, path: '/health' }] : queries.map((q) => ({ method: 'POST' as const, path: process.env.SUGGEST === '1' ? '/search/suggest' : '/search', headers: { 'content-type': 'application/json; charset=UTF-8' }, body: process.env.SUGGEST === '1' ? suggestBody(q) : body(q) }));
await load(url, requests, 3);
// The inspector's sampling profiler, started after the warm-up, so the profile holds the measured requests only.
// PROFILE=0 measures the same load without the profiler (its sampling costs the server some CPU).
const profiling = process.env.PROFILE !== '0';
const session = new Session(); if (profiling || process.env.HEAPSAMPLE) session.connect(); if (profiling) { await session.post('Profiler.enable'); await session.post('Profiler.setSamplingInterval', { interval: 200 }); await session.post('Profiler.start'); }
await threads?.stats();
if (process.env.HEAPSAMPLE) { await session.post('HeapProfiler.enable'); await session.post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: false }); }
const tasks0 = threadTimes();
const cpu0 = process.cpuUsage();
const elu0 = performance.eventLoopUtilization();
const loopDelay = monitorEventLoopDelay({ resolution: 2 }); loopDelay.enable();
const res = await load(url, requests, Number(process.env.SECONDS ?? 8));
const cpu = process.cpuUsage(cpu0);
const tasks = threadTimes();
const elu = performance.eventLoopUtilization(elu0);
if (process.env.HEAPSAMPLE) { (globalThis as { gc?: (o: unknown) => void }).gc?.({ type: 'minor' }); (globalThis as { gc?: (o: unknown) => void }).gc?.({ type: 'minor' }); const { profile } = await session.post('HeapProfiler.getSamplingProfile'); writeFileSync(process.env.HEAPSAMPLE, JSON.stringify(profile)); }
if (profiling) { const { profile } = await session.post('Profiler.stop'); writeFileSync(process.env.OUT ?? '/tmp/s21/prof.cpuprofile', JSON.stringify(profile)); }
console.error(JSON.stringify(res), 'requests', res.requestsPerSecond * Number(process.env.SECONDS ?? 8), 'cpu ms/req', (cpu.user + cpu.system) / 1000 / (res.requestsPerSecond * Number(process.env.SECONDS ?? 8)));
loopDelay.disable(); console.error('main loop delay max', loopDelay.max / 1e6, 'p99', loopDelay.percentile(99) / 1e6, 'p99.9', loopDelay.percentile(99.9) / 1e6);
console.error('main thread busy', Math.round(elu.utilization * 100), '%,', elu.active / (res.requestsPerSecond * Number(process.env.SECONDS ?? 8)), 'ms per request');
const perThread = [...tasks].map(([tid, ms]) => ({ tid, ms: ms - (tasks0.get(tid) ?? 0) })).filter((t) => t.ms > 0).sort((a, b) => b.ms - a.ms);
console.error('CPU ms per request by OS thread (main first):', perThread.map((t) => `${t.tid === process.pid ? 'main' : t.tid} ${(t.ms / (res.requestsPerSecond * Number(process.env.SECONDS ?? 8))).toFixed(3)}`).join(', '));
if (threads !== undefined) console.error('search threads meanwhile (loop and collections):', JSON.stringify(await threads.stats()));
await server.close();
process.exit(0);

