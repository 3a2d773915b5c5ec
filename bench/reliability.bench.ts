/**
 * `npm run bench -- reliability`: memory and restart time at scale. Writes a data directory holding
 * 1,000,000 activities from 200,000 shoppers over 100,000 products (RELIABILITY_ACTIVITIES to change
 * it), starts the server on it in a child process (a full replay: heap after a full GC, RSS), loads a
 * catalog of the 100,000 products (RELIABILITY_CATALOG, 0 for none), writes an activity snapshot
 * (its size, time and the event loop's longest stall meanwhile), floods it with public collect
 * traffic from new shoppers, then restarts it: after a clean stop (from the shutdown snapshot), after
 * kill -9 (the snapshot and the log after it), and, as the same run's baseline, with snapshots off
 * (the whole log). Each start prints its activity state's and its search indexes' shares. Bars: RSS
 * under 1.5 GB, restart under 15 s (issue 16) and under 5 s (issue 19).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Benchmark, BenchResult } from './run.js';
import { compiledBeside } from './harness.js';

const ACTIVITIES = Number(process.env.RELIABILITY_ACTIVITIES ?? 1_000_000);
const SHOPPERS = 200_000;
const PRODUCTS = 100_000;
const FLOOD = Number(process.env.RELIABILITY_FLOOD ?? 50_000);
const CATALOG = Number(process.env.RELIABILITY_CATALOG ?? PRODUCTS);
/** Under `npm run bench`, the child compiled beside the bench, on plain node as production runs; from the sources, under tsx. */
const COMPILED_CHILD = compiledBeside('reliability-child.js');
const CHILD = COMPILED_CHILD ?? fileURLToPath(new URL('./reliability-child.ts', import.meta.url));
/** The node flags and environment `npm start` runs the server with (package.json), so the bench's server process runs as production's. */
const START_WORDS = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { scripts: { start: string } }).scripts.start.split(' ');
const START_FLAGS = START_WORDS.filter((word) => word.startsWith('--'));
/** `NAME=${NAME:-default}` words: the default unless this environment sets the name. */
const START_ENV = Object.fromEntries(
  START_WORDS.flatMap((word) => {
    const assigned = /^([A-Z_]+)=\$\{\1:-([^}]*)\}$/.exec(word);
    return assigned === null ? [] : [[assigned[1]!, process.env[assigned[1]!] ?? assigned[2]!]];
  }),
);

/** Deterministic pseudo-random integers, so that every run writes the same directory. */
function sequence(seed: number): (n: number) => number {
  let state = seed >>> 0;
  return (n) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % n;
  };
}

/** The log a long public run leaves: visits of a few products per shopper, some orders, some searches. */
export async function writeLog(dataDir: string): Promise<void> {
  const dir = join(dataDir, 'activities', 'bench');
  await mkdir(dir, { recursive: true });
  const next = sequence(7);
  const start = Date.now() - 20 * 24 * 60 * 60 * 1000;
  const perSegment = 250_000;
  for (let segment = 0; segment * perSegment < ACTIVITIES; segment++) {
    const out = createWriteStream(join(dir, `segment-${String(segment + 1).padStart(6, '0')}.jsonl`));
    for (let i = segment * perSegment; i < Math.min(ACTIVITIES, (segment + 1) * perSegment); i++) {
      const at = start + Math.floor((i / ACTIVITIES) * 20 * 24 * 60 * 60 * 1000);
      const shopper = next(SHOPPERS);
      const roll = next(100);
      const base = `"kind":"activity","id":"a_${i.toString(36)}","tenant":"bench","profileId":"p_shopper${shopper}","source":"collect","timestamp":${at},"receivedAt":${at},"clientKey":"id:c${i}","sessionId":"s${shopper}"`;
      const line =
        roll < 5
          ? `{${base},"verb":"view","type":"page","itemId":"/search","query":"query ${next(50_000)}"}\n`
          : roll < 8
            ? `{${base},"verb":"purchase","type":"product","itemId":"sku-${next(PRODUCTS)}","orderId":"o-${shopper}-${Math.floor(i / 1000)}","price":1999,"quantity":1,"currency":"EUR"}\n`
            : `{${base},"verb":"${roll < 20 ? 'add-to-cart' : 'view'}","type":"product","itemId":"sku-${next(PRODUCTS)}"}\n`;
      if (!out.write(line)) await once(out, 'drain');
    }
    out.end();
    await once(out, 'finish');
  }
}

interface Child {
  process: ChildProcess;
  lines: Interface;
  url: string;
  startMs: number;
  activitiesMs: number;
  searchMs: number;
  restored: boolean;
}

async function startChild(dataDir: string, env: Record<string, string> = {}): Promise<Child> {
  // BENCH_NODE_FLAGS: extra flags for the server's process (say --optimize-for-size), to compare memory settings.
  const flags = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, ['--expose-gc', ...START_FLAGS, ...flags, ...(COMPILED_CHILD !== undefined ? [] : ['--import', 'tsx']), CHILD, dataDir], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, ...START_ENV, ...env } });
  const lines = createInterface({ input: child.stdout! });
  const [line] = (await once(lines, 'line')) as [string];
  return { process: child, lines, ...(JSON.parse(line) as Omit<Child, 'process' | 'lines'>) };
}

async function ask<T>(child: Child, command: string): Promise<T> {
  child.process.stdin!.write(`${command}\n`);
  const [line] = (await once(child.lines, 'line')) as [string];
  return JSON.parse(line) as T;
}

const memory = (child: Child) => ask<{ heapMb: number; rssMb: number; peakRssMb: number }>(child, 'mem');

/** Seconds from asking to stop (drain, shutdown snapshot, flush) to exit. */
async function stopChild(child: Child): Promise<number> {
  const started = performance.now();
  child.process.stdin!.end();
  await once(child.process, 'exit');
  return round((performance.now() - started) / 1000);
}

const round = (value: number) => Math.round(value * 100) / 100;

/** A start's row: its time and how much of it the activity state and the search indexes took. */
function startRow(label: string, child: Child, memory: { heapMb: number; rssMb: number; peakRssMb: number }): BenchResult['rows'][number] {
  return {
    case: label,
    seconds: child.startMs / 1000,
    'activity state s': round(child.activitiesMs / 1000),
    'search indexes s': round(child.searchMs / 1000),
    // Documents (profiles, catalogs), configuration, opening the log: the rest of a start. The two shares
    // run at the same time (services.ts), so they can add up to more than the start: then no rest is shown.
    'rest s': round(Math.max(0, child.startMs - child.activitiesMs - child.searchMs) / 1000),
    'heap MB': memory.heapMb,
    'RSS MB': memory.rssMb,
    'peak RSS MB': memory.peakRssMb,
    note: child.restored ? 'from snapshot' : 'whole log',
  };
}

/** Public collect traffic from shoppers never seen before, over the same products. */
async function flood(url: string, count: number): Promise<number> {
  const next = sequence(11);
  let sent = 0;
  const started = performance.now();
  const worker = async () => {
    while (sent < count) {
      const batch = Array.from({ length: 50 }, () => {
        const n = sent++;
        return { id: `flood-${n}`, action: next(10) === 0 ? 'add-to-cart' : 'view', target: { product: `sku-${next(PRODUCTS)}` }, user: { sessionId: `flood-shopper-${Math.floor(n / 5)}` } };
      });
      const res = await fetch(`${url}/collect/bench-key`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(batch) });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`flood answered ${res.status}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return Math.round(count / ((performance.now() - started) / 1000));
}

const benchmark: Benchmark = async (): Promise<BenchResult> => {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-reliability-'));
  const rows: BenchResult['rows'] = [];
  try {
    await writeLog(dataDir);
    // No snapshot yet: the first start replays the whole log.
    const first = await startChild(dataDir);
    const afterStart = await memory(first);
    rows.push(startRow(`first start on ${ACTIVITIES.toLocaleString('en')} logged activities`, first, afterStart));
    let beforeFlood = afterStart;
    if (CATALOG > 0) {
      const loading = performance.now();
      await ask(first, `catalog ${CATALOG}`);
      beforeFlood = await memory(first);
      rows.push({ case: `catalog of ${CATALOG.toLocaleString('en')} products loaded and promoted`, seconds: round((performance.now() - loading) / 1000), 'heap MB': beforeFlood.heapMb, 'RSS MB': beforeFlood.rssMb, 'peak RSS MB': beforeFlood.peakRssMb, note: 'search index built' });
    }
    const snapshot = await ask<{ bytes: number; ms: number; longestSliceMs: number; longestStep: { part: string; ms: number }; maxStallMs: number; maxGcMs: number }>(first, 'snapshot');
    const afterSnapshot = await memory(first);
    rows.push({ case: 'activity snapshot written while serving', seconds: round(snapshot.ms / 1000), 'heap MB': afterSnapshot.heapMb, 'RSS MB': afterSnapshot.rssMb, 'peak RSS MB': afterSnapshot.peakRssMb, 'longest slice ms': Math.round(snapshot.longestSliceMs), 'longest event-loop stall ms': snapshot.maxStallMs, note: `${round(snapshot.bytes / 2 ** 20)} MB gzipped; longest chunk step ${Math.round(snapshot.longestStep.ms)} ms (${snapshot.longestStep.part}); longest garbage collection meanwhile ${snapshot.maxGcMs} ms` });
    const rate = await flood(first.url, FLOOD);
    const afterFlood = await memory(first);
    rows.push({ case: `+${FLOOD.toLocaleString('en')} over HTTP from new shoppers`, 'heap MB': afterFlood.heapMb, 'RSS MB': afterFlood.rssMb, 'peak RSS MB': afterFlood.peakRssMb, note: `${rate} activities/s` });
    rows.push({ case: 'clean stop (with the shutdown snapshot)', seconds: await stopChild(first) });
    const second = await startChild(dataDir);
    rows.push(startRow('restart after a clean stop', second, await memory(second)));
    // Appends after the snapshot, then a crash: the next start restores the snapshot and replays them.
    await flood(second.url, Math.min(FLOOD, 10_000));
    second.process.kill('SIGKILL');
    await once(second.process, 'exit');
    const third = await startChild(dataDir);
    rows.push(startRow('restart after kill -9 (snapshot + log after it)', third, await memory(third)));
    await stopChild(third);
    const baseline = await startChild(dataDir, { BENCH_SNAPSHOTS: 'off' });
    rows.push(startRow('restart with snapshots off (baseline, same run)', baseline, await memory(baseline)));
    await stopChild(baseline);
    const growth = Math.round(((afterFlood.heapMb - beforeFlood.heapMb) * 2 ** 20) / FLOOD);
    return {
      name: 'Reliability: memory and restart at scale',
      rows,
      notes: [
        `${ACTIVITIES.toLocaleString('en')} activities from ${SHOPPERS.toLocaleString('en')} shoppers over ${PRODUCTS.toLocaleString('en')} products; bars: RSS < 1536 MB, restart < 15 s (issue 16), < 5 s (issue 19).`,
        `Heap growth during the flood: about ${growth} bytes per activity (new shoppers, new profiles).`,
        'A start = createDiscoveryServer until it listens, ready: activity state (snapshot or log) and search indexes (one per active catalog) are its two large shares; they run side by side, so their sum can exceed the start.',
        `Load average (1, 5, 15 min) when the run ended: ${loadavg().map((n) => n.toFixed(2)).join(', ')} on ${availableParallelism()} cores: figures on a loaded machine are slower.`,
        'Stalls are wall-clock: on a loaded machine they include garbage collection and time the process was not scheduled; the longest slice is the snapshot writer\'s own longest synchronous stretch.',
      ],
    };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
};

export default benchmark;
