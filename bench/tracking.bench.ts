/**
 * Tracking throughput and recovery: activities per second accepted over HTTP with durable (fsynced)
 * writes, in batches and one per request, beside a bare Koa app measured in the same run; and the
 * time and heap to rebuild the aggregates from 1,000,000 logged activities.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Benchmark, BenchResult } from './run.js';
import { heapUsedMb, load, round, startBareKoa } from './harness.js';
import { createDiscoveryServer } from '../packages/server/src/app/server.js';
import { validateConfig } from '../packages/server/src/platform/config/load.js';
import { createLogger } from '../packages/server/src/platform/logger.js';

const SECONDS = 5;
const BATCH = 100;
const LOGGED = 1_000_000;

const config = () =>
  validateConfig(
    // One load generator plays every shopper from one address: the public rate limits would measure themselves.
    { tenants: [{ id: 'bench', identityRepositories: ['customer-id'], environments: [{ id: 'prod', trackerKeys: ['bench-key'] }] }], publicRateLimits: { enabled: false } },
    '(bench)',
    tmpdir(),
  );

function activity(n: number) {
  return { action: n % 10 === 0 ? 'add-to-cart' : 'view', target: { product: `sku-${n % 5000}` }, user: { sessionId: `session-${n % 64}` }, metadata: { locale: 'en-GB' } };
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
  const bare = await startBareKoa();
  const baseline = await load(bare.url, [{ method: 'GET', path: '/' }], SECONDS);
  await bare.close();
  rows.push({ case: 'bare Koa (baseline)', 'requests/s': baseline.requestsPerSecond, 'activities/s': '-', 'p99 ms': baseline.p99Ms, non2xx: baseline.non2xx });

  const dataDir = await mkdtemp(join(tmpdir(), 'bench-tracking-'));
  const server = await createDiscoveryServer({ config: config(), dataDir, logger: createLogger('silent') });
  const { url } = await server.listen(0);
  const post = (body: unknown) => ({ method: 'POST' as const, path: '/collect/bench-key', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const batched = Array.from({ length: 8 }, (_, r) => post(Array.from({ length: BATCH }, (_, i) => activity(r * BATCH + i))));
  const singles = Array.from({ length: 64 }, (_, i) => post(activity(i)));
  // Warm up: create the 64 session profiles once, so that the runs measure appends, not profile creation.
  await load(url, singles, 1);
  const batchRun = await load(url, batched, SECONDS);
  rows.push({ case: `collect, ${BATCH} per request`, 'requests/s': batchRun.requestsPerSecond, 'activities/s': batchRun.requestsPerSecond * BATCH, 'p99 ms': batchRun.p99Ms, non2xx: batchRun.non2xx });
  const singleRun = await load(url, singles, SECONDS);
  rows.push({ case: 'collect, 1 per request', 'requests/s': singleRun.requestsPerSecond, 'activities/s': singleRun.requestsPerSecond, 'p99 ms': singleRun.p99Ms, non2xx: singleRun.non2xx });
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
    notes: [
      `Every accepted activity is fsynced before its response (group commit); ${SECONDS} s per HTTP run, 32 connections.`,
      `Rebuild of ${LOGGED.toLocaleString('en')} activities: ${round(seconds, 2)} s, heap ${heapBefore} MB before, ${heapAfter} MB after (top item ${top[0]?.itemId ?? 'none'}).`,
    ],
  };
};

export default benchmark;
