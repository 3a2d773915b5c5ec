/**
 * The server for the reliability bench, in a process of its own so that its RSS is its own: prints
 * `{url, startMs, activitiesMs, searchMs, restored}` once listening (the activity state's and the
 * search indexes' shares of the start, from the server's own log lines), then answers lines on stdin:
 * `mem` with its memory after a full GC, `catalog <n>` by loading and promoting n generated products,
 * `snapshot` by writing the activity snapshot while measuring the event loop's longest stall.
 * BENCH_SNAPSHOTS=off starts it with snapshots off (a full replay, the baseline).
 */
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { tmpdir } from 'node:os';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { createDiscoveryServer } from '../packages/server/src/app/server.js';
import { parseItemBatch, parseSchemaRequest } from '../packages/server/src/apis/catalog/catalog-requests.js';
import { validateConfig } from '../packages/server/src/platform/config/load.js';
import { createLogger } from '../packages/server/src/platform/logger.js';
import { DEFAULT_HEAP_GROWTH_PERCENT, limitHeapGrowth } from '../packages/server/src/platform/heap-growth.js';
import { GENERATED_SCHEMA, batchOf, generatedSearchConfig } from './relevance/generated-catalog.js';

const dataDir = process.argv[2]!;
const started = performance.now();
const base = generatedSearchConfig('bench', 'prod', 'bench-search') as { tenants: Array<Record<string, unknown> & { environments: Array<Record<string, unknown>> }> };
base.tenants[0]!.identityRepositories = ['customer-id'];
base.tenants[0]!.environments[0]!.trackerKeys = ['bench-key'];
const config = validateConfig(
  {
    ...base,
    // One load generator plays every shopper from one address: the limits would measure themselves.
    publicRateLimits: { enabled: false },
    activityLog: { snapshots: { enabled: process.env.BENCH_SNAPSHOTS !== 'off' } },
  },
  '(bench)',
  tmpdir(),
);

/** The start's shares, read from the server's log lines. */
const shares = { activitiesMs: 0, searchMs: 0, restored: false };
const logLines = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (line === '') continue;
      const entry = JSON.parse(line) as { msg?: string; ms?: number; snapshotTakenAt?: number };
      if (entry.msg?.startsWith('activity aggregates') === true) {
        shares.activitiesMs += entry.ms ?? 0;
        shares.restored ||= entry.snapshotTakenAt !== undefined;
      }
      if (entry.msg === 'search index built') shares.searchMs += entry.ms ?? 0;
    }
    done();
  },
});
const server = await createDiscoveryServer({ config, dataDir, logger: createLogger('info', { destination: logLines }) });
// As `npm start` does: V8's own heap growth through the start, the limit once it is done (HEAP_GROWTH_PERCENT=0 leaves it to V8 throughout, to compare).
limitHeapGrowth(Number(process.env.HEAP_GROWTH_PERCENT ?? DEFAULT_HEAP_GROWTH_PERCENT));
const { url } = await server.listen(0);
process.stdout.write(`${JSON.stringify({ url, startMs: Math.round(performance.now() - started), ...shares })}\n`);
if (process.env.BENCH_MEMORY_TRACE !== undefined) {
  // One line a second on stderr: heap used and committed, memory outside the heap, RSS (MB), to see what a peak is made of.
  const mb = (n: number) => Math.round(n / 2 ** 20);
  setInterval(() => {
    const { heapUsed, heapTotal, rss, external, arrayBuffers } = process.memoryUsage();
    process.stderr.write(`memory ${new Date().toISOString().slice(11, 19)} heapUsed ${mb(heapUsed)} heapTotal ${mb(heapTotal)} external ${mb(external)} arrayBuffers ${mb(arrayBuffers)} rss ${mb(rss)}\n`);
  }, Number(process.env.BENCH_MEMORY_TRACE) || 1000).unref();
}
const gc = (globalThis as { gc?: () => void }).gc;
const reply = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);
for await (const line of createInterface({ input: process.stdin })) {
  const [command, argument] = line.split(' ');
  if (command === 'mem') {
    gc?.();
    const { heapUsed, heapTotal, rss, external, arrayBuffers } = process.memoryUsage();
    reply({ heapMb: Math.round(heapUsed / 2 ** 20), heapTotalMb: Math.round(heapTotal / 2 ** 20), externalMb: Math.round(external / 2 ** 20), arrayBuffersMb: Math.round(arrayBuffers / 2 ** 20), rssMb: Math.round(rss / 2 ** 20), peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024) });
  } else if (command === 'catalog') {
    const catalog = server.deps.services.catalog;
    const schema = await catalog.schemas.create('bench', 'prod', parseSchemaRequest(GENERATED_SCHEMA));
    const { version } = await catalog.catalogs.create('bench', 'prod', { catalogItemSchemas: [{ name: schema.name, version: schema.version }] });
    const total = Number(argument);
    for (let start = 0; start < total; start += 5_000) await catalog.items.load('bench', 'prod', parseItemBatch(batchOf(start, version, Math.min(5_000, total - start))));
    await (await catalog.catalogs.promote('bench', 'prod', version)).activation;
    reply({ products: total });
  } else if (command === 'snapshot') {
    const delay = monitorEventLoopDelay({ resolution: 5 });
    // Garbage collections meanwhile: a stall longer than the writer's longest slice is one of them.
    let maxGcMs = 0;
    const collections = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) maxGcMs = Math.max(maxGcMs, entry.duration);
    });
    collections.observe({ entryTypes: ['gc'] });
    delay.enable();
    const [written] = await server.deps.services.activities.snapshotNow();
    delay.disable();
    await new Promise((resolve) => setImmediate(resolve));
    collections.disconnect();
    reply({ ...written, maxStallMs: Math.round(delay.max / 1e6), maxGcMs: Math.round(maxGcMs) });
  }
}
await server.close();
