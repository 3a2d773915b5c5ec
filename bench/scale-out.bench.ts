/**
 * `npm run bench -- scale-out`: what the shared store costs. Collected activities/s and uncached search
 * req/s for one companion on lowdb (the baseline of this run), one on PostgreSQL, and two on one
 * PostgreSQL behind a small round-robin proxy; then the lag from an activity collected on one process
 * to its showing in the other's recommendations (p50/p99). Real servers: PostgreSQL with fsync on and
 * Redis from Debian's packages (test/support/engines.ts), companions as child processes. On 2 shared
 * cores the two-process figure shows the cost of sharing, not a speed-up.
 */
import { createServer, request as httpRequest, Agent, type Server } from 'node:http';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { load, round } from './harness.js';
import type { BenchResult } from './run.js';
import { startPostgres, startRedis } from '../packages/server/test/support/engines.js';
import { startCompanionProcess, type CompanionProcess } from '../apps/companion/test/support/companion-process.js';
import { DEMO_CONFIG } from '../apps/companion/src/options.js';

const SECONDS = 5;
const WORDS = ['heart', 'lantern', 'candle', 'mug', 'bag', 'star', 'wood', 'glass', 'tin', 'rose', 'bird', 'vintage', 'paper', 'red', 'white', 'pink', 'gold', 'box', 'tea', 'jar'];

/** Forwards each request to the next upstream in turn, as a load balancer would. */
async function roundRobin(upstreams: string[]): Promise<{ url: string; close(): Promise<void> }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  let next = 0;
  const server: Server = createServer((req, res) => {
    const target = new URL(upstreams[next++ % upstreams.length]!);
    const forward = httpRequest(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(forward);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      agent.destroy();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

function collectRequests() {
  return Array.from({ length: 500 }, (_, i) => ({
    method: 'POST' as const,
    path: '/collect/demo-tracker-key',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify([{ action: 'view', target: { product: String(21000 + (i % 400)) }, user: { identities: { sessionid: `bench-${i % 97}` } } }]),
  }));
}

/** Two-word queries, more distinct ones than the result cache holds, so every answer is computed. */
function searchRequests() {
  const requests = [];
  for (const a of WORDS) for (const b of WORDS) for (const limit of [5, 10, 20, 30, 40, 50, 60, 70]) {
    requests.push({ method: 'POST' as const, path: '/search', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: 'demo-search-token', query: `${a} ${b}`, options: { limit } }) });
  }
  return requests;
}

async function throughput(label: string, url: string): Promise<Record<string, string | number>> {
  const collect = await load(url, collectRequests(), SECONDS, 32);
  const search = await load(url, searchRequests(), SECONDS, 32);
  return { setup: label, collectPerSecond: collect.requestsPerSecond, collectP99Ms: collect.p99Ms, collectNon2xx: collect.non2xx, searchPerSecond: search.requestsPerSecond, searchP99Ms: search.p99Ms, searchNon2xx: search.non2xx };
}

/** Collects on `writer`, polls `reader` until the product shows in its recently-viewed widget. */
async function visibilityLag(writer: string, reader: string, samples: number): Promise<{ p50: number; p99: number; max: number }> {
  // Products of the demo catalog: the widget shows only what the active catalog holds.
  const found = (await (await fetch(`${writer}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: 'demo-search-token', query: 'heart', options: { limit: samples, customResponseMask: 'id' } }) })).json()) as { items: Array<{ id: string }> };
  const lags: number[] = [];
  for (let i = 0; i < samples; i++) {
    const session = `lag-${Date.now()}-${i}`;
    const product = found.items[i % found.items.length]!.id;
    const started = performance.now();
    const sent = await fetch(`${writer}/collect/demo-tracker-key`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ action: 'view', target: { product }, user: { identities: { sessionid: session } } }]),
    });
    if (sent.status !== 200) throw new Error(`collect answered ${sent.status}`);
    for (;;) {
      const answer = (await (await fetch(`${reader}/widget/demo-recently-viewed/recommendations/sessionid/${session}/`)).json()) as { recommendations?: unknown[] };
      if ((answer.recommendations?.length ?? 0) > 0) break;
      if (performance.now() - started > 10_000) throw new Error('not visible on the other process within 10 s');
      await new Promise((r) => setTimeout(r, 5));
    }
    lags.push(performance.now() - started);
  }
  lags.sort((a, b) => a - b);
  const at = (q: number) => round(lags[Math.min(lags.length - 1, Math.floor(q * lags.length))]!, 1);
  return { p50: at(0.5), p99: at(0.99), max: round(lags.at(-1)!, 1) };
}

export default async function scaleOutBench(): Promise<BenchResult> {
  const dir = await mkdtemp(join(tmpdir(), 'discovery-bench-scale-'));
  const postgres = await startPostgres({ durable: true });
  const redis = await startRedis();
  const companions: CompanionProcess[] = [];
  try {
    const demo = JSON.parse(await readFile(DEMO_CONFIG, 'utf8')) as { tenants: Array<{ serviceAccounts: Array<{ publicKeyFile?: string }> }> };
    for (const tenant of demo.tenants) for (const account of tenant.serviceAccounts) if (account.publicKeyFile !== undefined) account.publicKeyFile = resolve(dirname(DEMO_CONFIG), account.publicKeyFile);
    // One load generator from one address: the limits would measure themselves, not the store.
    Object.assign(demo, { publicRateLimits: { enabled: false } });
    const configFile = join(dir, 'shop.json');
    await writeFile(configFile, JSON.stringify(demo));
    const rows: Array<Record<string, string | number>> = [];

    const lowdb = await startCompanionProcess(['--config', configFile, '--data-dir', join(dir, 'lowdb')], { DEMO: 'on' });
    companions.push(lowdb);
    rows.push(await throughput('1 process, lowdb files (baseline)', lowdb.url));
    await lowdb.kill();

    const shared = ['--config', configFile, '--store', postgres.url, '--redis', redis.url];
    const a = await startCompanionProcess([...shared, '--data-dir', join(dir, 'a')], { DEMO: 'on' });
    companions.push(a);
    rows.push(await throughput('1 process, PostgreSQL + Redis', a.url));
    const b = await startCompanionProcess([...shared, '--data-dir', join(dir, 'b')], { DEMO: 'off' });
    companions.push(b);
    const proxy = await roundRobin([a.url, b.url]);
    rows.push(await throughput('2 processes, PostgreSQL + Redis, round-robin', proxy.url));
    await proxy.close();
    const lag = await visibilityLag(a.url, b.url, 60);
    rows.push({ setup: 'activity on A → B recommendations, 60 samples', lagP50Ms: lag.p50, lagP99Ms: lag.p99, lagMaxMs: lag.max });
    return {
      name: 'scale-out: the shared store',
      rows,
      notes: [
        `Each throughput row: ${SECONDS} s of 32 connections (autocannon in its own process), collect = one view per request, search = ${searchRequests().length} distinct queries (more than the result cache holds).`,
        'PostgreSQL runs with fsync on: each collect waits for a group commit, as with the lowdb files\' fsync.',
        'Lag: one activity collected on A, B polled every 5 ms until its recently-viewed widget shows it (NOTIFY after each group commit, 1 s poll as the safety net).',
      ],
    };
  } finally {
    for (const companion of companions) await companion.kill();
    await redis.dispose();
    postgres.dispose();
    await rm(dir, { recursive: true, force: true });
  }
}
