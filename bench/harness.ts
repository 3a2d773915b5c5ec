/** Shared pieces of `npm run bench`: latency statistics, HTTP load with autocannon, and a bare Koa baseline. */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import Koa from 'koa';

export interface LatencyStats {
  count: number;
  medianMs: number;
  p99Ms: number;
  meanMs: number;
}

/** Runs `fn` `iterations` times (after `warmup` runs) and reports latency percentiles. */
export async function measure(iterations: number, fn: (i: number) => unknown, warmup = Math.min(200, iterations)): Promise<LatencyStats> {
  for (let i = 0; i < warmup; i++) await fn(i);
  const samples = new Float64Array(iterations);
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    await fn(i);
    samples[i] = performance.now() - start;
  }
  samples.sort();
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!;
  const total = samples.reduce((a, b) => a + b, 0);
  return { count: iterations, medianMs: round(at(0.5)), p99Ms: round(at(0.99)), meanMs: round(total / iterations) };
}

export function round(value: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

export interface LoadResult {
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

/** Sends requests for `seconds` with `connections` concurrent connections; `requests` rotate. */
export async function load(url: string, requests: autocannon.Request[], seconds = 5, connections = 32): Promise<LoadResult> {
  const result = await autocannon({ url, connections, duration: seconds, requests, pipelining: 1 });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** A Koa app answering a small JSON body: the ceiling any endpoint of ours is compared with. */
export async function startBareKoa(): Promise<{ url: string; close(): Promise<void> }> {
  const app = new Koa();
  app.use((ctx) => {
    ctx.body = { ok: true, items: [] };
  });
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export function heapUsedMb(): number {
  return round(process.memoryUsage().heapUsed / 1024 / 1024, 1);
}
