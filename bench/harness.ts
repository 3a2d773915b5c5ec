/** Shared pieces of `npm run bench`: latency statistics, HTTP load with autocannon, and a bare Koa baseline. */
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { COMPILED } from '../packages/server/src/platform/worker-entry.js';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import type autocannon from 'autocannon';
import Koa from 'koa';

export interface LatencyStats {
  count: number;
  medianMs: number;
  p99Ms: number;
  meanMs: number;
}

/**
 * Under `npm run bench` the benchmarks run compiled, from bench/.build (scripts/build-bench.ts), with
 * the servers some of them start as processes compiled beside them: the path of such a file, or
 * undefined when the benchmarks run from their sources under tsx. (import.meta.url cannot tell: the
 * build rewrites it to the source file's URL.)
 */
export function compiledBeside(file: string): string | undefined {
  const built = process.argv[1] === undefined ? undefined : join(dirname(process.argv[1]), file);
  return COMPILED && built !== undefined && existsSync(built) ? built : undefined;
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
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

/**
 * Sends requests for `seconds` with `connections` concurrent connections; `requests` (plain objects,
 * no callbacks) rotate. autocannon runs in a child process, as a separate load generator would: in
 * the server's own process it would take CPU from what it measures.
 */
export async function load(url: string, requests: autocannon.Request[], seconds = 5, connections = 32): Promise<LoadResult> {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./load-process.mjs', import.meta.url))], { stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin.end(JSON.stringify({ url, requests, seconds, connections }));
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`the load generator exited with ${code}`);
  return JSON.parse(output) as LoadResult;
}

/**
 * A Koa app answering a small JSON body: the ceiling any endpoint of ours is compared with. `setBusyMs`
 * makes it spin that long per request first: a server as costly as ours, for what latency the same
 * CPU per request gives with none of our code (the queueing of the loop and the load generator).
 */
export async function startBareKoa(): Promise<{ url: string; setBusyMs(ms: number): void; close(): Promise<void> }> {
  const app = new Koa();
  let busyMs = 0;
  app.use((ctx) => {
    if (busyMs > 0) {
      const until = performance.now() + busyMs;
      while (performance.now() < until);
    }
    ctx.body = { ok: true, items: [] };
  });
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    setBusyMs: (ms) => (busyMs = ms),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export function heapUsedMb(): number {
  return round(process.memoryUsage().heapUsed / 1024 / 1024, 1);
}

export interface ProbeTarget {
  name: string;
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** Pause between two requests of this target. */
  pauseMs: number;
}

export interface ProbeResult {
  name: string;
  count: number;
  failures: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/**
 * Probes `targets` from a child process while `during` runs (bench/probe-process.mjs), and returns
 * each target's latency: the figure that shows whether some work stalls the server's event loop.
 */
export async function probe<T>(targets: ProbeTarget[], during: () => Promise<T>): Promise<{ result: T; probes: ProbeResult[] }> {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./probe-process.mjs', import.meta.url))], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  child.send(targets);
  await once(child, 'message');
  let result: T;
  try {
    result = await during();
  } finally {
    child.send('stop');
  }
  const [probes] = (await once(child, 'message')) as [ProbeResult[]];
  return { result, probes };
}

/**
 * CPU time (user and system, in milliseconds, at the kernel's 10 ms tick) of each OS thread of this
 * process by thread id, from /proc (Linux; empty elsewhere): the main thread's id is the process id,
 * so its own cost shows apart from a search thread's and the collector's helpers'.
 */
export function threadTimes(): Map<number, number> {
  const out = new Map<number, number>();
  try {
    for (const tid of readdirSync('/proc/self/task')) {
      // Fields after the command name (which may hold spaces, inside parentheses): utime and stime are the 12th and 13th.
      const fields = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
      out.set(Number(tid), (Number(fields[11]) + Number(fields[12])) * 10);
    }
  } catch {
    // Not Linux, or a thread ended while read: no per-thread figures.
  }
  return out;
}

/** Runs `work` (a generator the server runs in slices) to its end a step at a time, timing each step: its longest is what a request waits at most for it. In a function of its own, so the finished generator, which may hold what it walked (an index), is let go. */
export function stepped<T>(work: Generator<unknown, T>): { value: T; steps: number; longestMs: number } {
  let steps = 0;
  let longestMs = 0;
  for (;;) {
    const stepStart = performance.now();
    const step = work.next();
    longestMs = Math.max(longestMs, performance.now() - stepStart);
    steps++;
    if (step.done === true) return { value: step.value, steps, longestMs };
  }
}
