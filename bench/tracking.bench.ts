/**
 * Tracking throughput and recovery: activities per second of the realistic mix (activity-mix.ts)
 * accepted over HTTP with durable (fsynced) writes, in batches of 100, 10 and 1, beside a bare Koa
 * endpoint that parses the same bodies and appends them to an fsync'd file (the limit), measured in
 * the same run; where an activity's CPU goes, stage by stage (tracking-stages.ts); and the time and
 * heap to rebuild the aggregates from 1,000,000 logged activities.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, open, rm } from 'node:fs/promises';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Koa from 'koa';
import type { Benchmark, BenchResult } from './run.js';
import { heapUsedMb, load, round } from './harness.js';
import { activityMix, NEW_SHARE, PRODUCTS, SHOPPERS } from './activity-mix.js';
import { stageCosts } from './tracking-stages.js';
import { createDiscoveryServer } from '../packages/server/src/app/server.js';
import { validateConfig } from '../packages/server/src/platform/config/load.js';
import { createLogger } from '../packages/server/src/platform/logger.js';

const SECONDS = 5;
const LOGGED = 1_000_000;
const SUSTAINED_RUNS = 6;
const TENANT = 'bench';

const config = () =>
  validateConfig(
    // One load generator plays every shopper from one address: the public rate limits would measure themselves.
    { tenants: [{ id: TENANT, identityRepositories: ['customer-id'], environments: [{ id: 'prod', trackerKeys: ['bench-key'] }] }], publicRateLimits: { enabled: false } },
    '(bench)',
    tmpdir(),
  );

/** `count` request bodies of `batch` activities each from the realistic mix (activity-mix.ts): every body different. */
function mixRequests(path: string, batch: number, count: number, seed: number) {
  const mix = activityMix(seed);
  return Array.from({ length: count }, () => ({ method: 'POST' as const, path, headers: { 'content-type': 'application/json' }, body: JSON.stringify(batch === 1 ? mix.next() : mix.batch(batch)) }));
}

/**
 * The limit we measure against: a bare Koa endpoint that reads the same bodies, parses them and
 * appends them to one file, answering once a group commit (write + fdatasync) holds them: the
 * durability our answer waits for, with none of our validation, profiles or aggregates.
 */
async function startBareLog(dir: string): Promise<{ url: string; close(): Promise<void> }> {
  const handle = await open(join(dir, 'bare.jsonl'), 'a');
  let pending: Array<{ text: string; done: () => void }> = [];
  let flushing = false;
  const flush = async (): Promise<void> => {
    flushing = true;
    while (pending.length > 0) {
      const group = pending;
      pending = [];
      await handle.write(group.map((p) => p.text).join(''));
      await handle.datasync();
      for (const p of group) p.done();
    }
    flushing = false;
  };
  const app = new Koa();
  app.use(async (ctx) => {
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const lines = (Array.isArray(value) ? value : [value]).map((v) => `${JSON.stringify(v)}\n`).join('');
    await new Promise<void>((resolve) => {
      pending.push({ text: lines, done: resolve });
      if (!flushing) void flush();
    });
    ctx.body = { profiles: {} };
  });
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await handle.close();
    },
  };
}

/** Writes the log directly, as the server would have after a long run: 1M activities over 20,000 profiles and 5,000 items. */
async function writeLog(dataDir: string): Promise<void> {
  const dir = join(dataDir, 'activities', 'bench');
  await mkdir(dir, { recursive: true });
  const start = Date.now() - 20 * 24 * 60 * 60 * 1000;
  const perSegment = 250_000;
  for (let segment = 0; segment < LOGGED / perSegment; segment++) {
    const out = createWriteStream(join(dir, `segment-${String(segment + 1).padStart(6, '0')}.jsonl`));
    for (let i = segment * perSegment; i < (segment + 1) * perSegment; i++) {
      const at = start + i * 1700;
      const verb = i % 25 === 0 ? 'purchase' : i % 7 === 0 ? 'add-to-cart' : 'view';
      const order = verb === 'purchase' ? `,"orderId":"o-${Math.floor(i / 50)}"` : '';
      const line = `{"kind":"activity","id":"a_${i.toString(36)}","tenant":"bench","profileId":"p_${i % 20_000}","source":"collect","verb":"${verb}","type":"product","itemId":"sku-${(i * 7919) % 5000}","timestamp":${at},"receivedAt":${at},"clientKey":"id:c${i}"${order}}\n`;
      if (!out.write(line)) await once(out, 'drain');
    }
    out.end();
    await once(out, 'finish');
  }
}

const benchmark: Benchmark = async (): Promise<BenchResult> => {
  const rows: BenchResult['rows'] = [];
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-tracking-'));
  // Enough different bodies that shoppers stay mostly new through a run (the generator's 70%).
  const sizes = [
    { batch: 100, bodies: 400 },
    { batch: 10, bodies: 3_000 },
    { batch: 1, bodies: 20_000 },
  ];
  const bare = await startBareLog(dataDir);
  for (const { batch, bodies } of sizes) {
    const run = await load(bare.url, mixRequests('/collect/bench-key', batch, bodies, 100 + batch), SECONDS);
    rows.push({ case: `bare Koa: parse + append + fsync (the limit), ${batch} per request`, 'requests/s': run.requestsPerSecond, 'activities/s': run.requestsPerSecond * batch, 'CPU µs/activity': '-', 'p99 ms': run.p99Ms, non2xx: run.non2xx });
  }
  await bare.close();

  const server = await createDiscoveryServer({ config: config(), dataDir: join(dataDir, 'server'), logger: createLogger('silent') });
  const { url } = await server.listen(0);
  for (const { batch, bodies } of sizes) {
    const started = process.cpuUsage();
    const run = await load(url, mixRequests('/collect/bench-key', batch, bodies, 200 + batch), SECONDS);
    const used = process.cpuUsage(started);
    const accepted = run.requestsPerSecond * SECONDS * batch;
    rows.push({
      case: `collect, realistic mix, ${batch} per request`,
      'requests/s': run.requestsPerSecond,
      'activities/s': run.requestsPerSecond * batch,
      'CPU µs/activity': accepted === 0 ? '-' : round((used.user + used.system) / accepted, 1),
      'p99 ms': run.p99Ms,
      non2xx: run.non2xx,
    });
  }
  // Sustained: the same mix for six more runs, as profiles accumulate (a new shopper rewrites a profile shard and an index shard).
  for (let round5 = 1; round5 <= SUSTAINED_RUNS; round5++) {
    const run = await load(url, mixRequests('/collect/bench-key', 10, 3_000, 300 + round5), SECONDS);
    rows.push({ case: `sustained, 10 per request, run ${round5} of ${SUSTAINED_RUNS} (${server.deps.services.activities.profileCount(TENANT).toLocaleString('en')} profiles after)`, 'requests/s': run.requestsPerSecond, 'activities/s': run.requestsPerSecond * 10, 'CPU µs/activity': '-', 'p99 ms': run.p99Ms, non2xx: run.non2xx });
  }
  const stages = await stageCosts(server, TENANT, 20_000, 100);
  await server.close();
  await rm(dataDir, { recursive: true, force: true });

  const logDir = await mkdtemp(join(tmpdir(), 'bench-rebuild-'));
  await writeLog(logDir);
  const heapBefore = heapUsedMb();
  const started = performance.now();
  const rebuilt = await createDiscoveryServer({ config: config(), dataDir: logDir, logger: createLogger('silent') });
  const seconds = (performance.now() - started) / 1000;
  const heapAfter = heapUsedMb();
  const top = rebuilt.deps.services.recommendations.aggregates.popularity('bench', { limit: 1 });
  await rebuilt.close();
  await rm(logDir, { recursive: true, force: true });
  rows.push({ case: `rebuild from ${LOGGED.toLocaleString('en')} logged activities`, 'requests/s': '-', 'activities/s': Math.round(LOGGED / seconds), 'p99 ms': '-', non2xx: '-' });

  return {
    name: 'Tracking: durable activity collection and aggregate rebuild',
    rows,
    tables: [{ title: 'Where an activity\'s CPU goes (in process, 20,000 activities of the mix in batches of 100; tracking-stages.ts)', rows: stages }],
    notes: [
      `The realistic mix (activity-mix.ts): ${SHOPPERS.toLocaleString('en')} shoppers, ${Math.round(NEW_SHARE * 100)}% of activities from a new one, ${PRODUCTS.toLocaleString('en')} products, views, clicks, add-to-carts and purchases.`,
      `Every accepted activity is fsynced before its response (group commit); ${SECONDS} s per HTTP run, 32 connections, the load generator in its own process on the same 2 cores. CPU µs/activity: the server process's user + system time over the run divided by the activities it accepted.`,
      `Rebuild of ${LOGGED.toLocaleString('en')} activities: ${round(seconds, 2)} s, heap ${heapBefore} MB before, ${heapAfter} MB after (top item ${top[0]?.itemId ?? 'none'}).`,
    ],
  };
};

export default benchmark;
