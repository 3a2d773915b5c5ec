/**
 * `npm run bench -- scale-out`: what the shared store costs, and what a process more adds. Collected
 * activities/s (the realistic mix, activity-mix.ts, 10 per request) and uncached search req/s for one
 * companion on lowdb (the baseline of this run), then 1, 2 and 3 companions on one PostgreSQL behind a
 * small balancing proxy (fewest requests in flight; BENCH_BALANCING=round-robin for turns). Setups
 * compared take turns run by run and their ratios are taken run by run: lowdb with one PostgreSQL
 * process, then 1, 2 and 3 PostgreSQL processes (all three following the log throughout). Then the lag from an
 * activity collected on one process to its showing in another's recommendations (p50/p99). A fourth setup
 * takes turns with them: A beside I, a companion that only takes activities (--ingest-only), collect to
 * both and everything else to A (an ingest tier, docs/scale-out.md). Collect rates count stored activities
 * (2xx answers), not refusals. Each
 * companion runs in its own CPU cgroup with a fixed share of a core (cpu-cgroup.ts; BENCH_CPU_SHARE,
 * default 0.3: at 0.5 three companions, PostgreSQL and the load generator kept 2 cores 85% busy), as
 * separate small machines would: otherwise two processes on 2 shared cores would show the cost of
 * sharing, not a second machine's capacity.
 * Real servers: PostgreSQL with fsync on and Redis from Debian's packages (test/support/engines.ts),
 * companions as child processes, the demo catalog imported before any measurement (no history import).
 */
import { createServer, request as httpRequest, Agent, type Server } from 'node:http';
import { once } from 'node:events';
import pg from 'pg';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { compiledBeside, load, round } from './harness.js';
import { activityMix } from './activity-mix.js';
import { limitCpu, type CpuShare } from './cpu-cgroup.js';
import type { BenchResult } from './run.js';
import { startPostgres, startRedis } from '../packages/server/test/support/engines.js';
import { startCompanionProcess, type CompanionProcess } from '../apps/companion/test/support/companion-process.js';
import { DEMO_CONFIG } from '../apps/companion/src/options.js';

const SECONDS = 5;
/** The two stores' single-process runs that take turns: five pairs, so that the median ratio does not rest on one run. */
const PAIRED_RUNS = 5;
/** Turns of the 1-, 2- and 3-process setups (each a collect run of each), the median kept and ratios taken run by run. */
const TURN_RUNS = 7;
/**
 * Concurrent connections of the load generator (BENCH_CONNECTIONS, default 32). Each keeps one request
 * in flight, so the rate is connections / latency: while one tenant's commits take turns across the
 * cluster (the stream's lock), more processes lengthen each request's wait and a fixed 32 caps the
 * cluster below its CPU. A shop's traffic is many independent shoppers; 128 shows the CPU's capacity.
 */
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
/** Companions asked to profile themselves (COMPANION_NODE_FLAGS=--cpu-prof …) are stopped, so that they write it; others are killed. */
const end = (companion: CompanionProcess) => (/--cpu-prof/.test(process.env.COMPANION_NODE_FLAGS ?? '') ? companion.stop() : companion.kill());
/** Under `npm run bench`, the companion compiled beside the bench (scripts/build-bench.ts), on plain node as production runs it. */
const COMPANION_MAIN = compiledBeside('companion.js');
const WORDS = ['heart', 'lantern', 'candle', 'mug', 'bag', 'star', 'wood', 'glass', 'tin', 'rose', 'bird', 'vintage', 'paper', 'red', 'white', 'pink', 'gold', 'box', 'tea', 'jar'];

/** User + system CPU seconds a process has used (/proc/<pid>/stat, in clock ticks of 1/100 s). */
async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  // Fields after the command name (which may hold spaces, inside parentheses): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) / 100;
}

/** Forwards each request to the next upstream in turn, as a load balancer would. */
/**
 * How the proxy in front of two or three companions spreads requests (BENCH_BALANCING): `least-requests`
 * (default) sends each to the companion with the fewest in flight, as production balancers are
 * usually set (nginx `least_conn`, HAProxy `leastconn`, Envoy `LEAST_REQUEST`, an AWS load balancer's
 * least outstanding requests); `round-robin` sends them in turn, so a companion slowed for a moment (a
 * collection, a training) holds its share of the connections and the cluster runs at N × its pace.
 */
const BALANCING = process.env.BENCH_BALANCING === 'round-robin' ? 'round-robin' : 'least-requests';

/** `reads`: where every request but `POST /collect/…` goes (an ingest tier: the collection APIs to `upstreams`, the rest to serving companions). */
async function balancer(upstreams: string[], reads: string[] = upstreams): Promise<{ url: string; close(): Promise<void> }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const all = [...new Set([...upstreams, ...reads])];
  const targets = all.map((upstream) => new URL(upstream));
  const writers = upstreams.map((u) => all.indexOf(u));
  const readers = reads.map((u) => all.indexOf(u));
  const inFlight = targets.map(() => 0);
  let next = 0;
  const server: Server = createServer((req, res) => {
    // The upstream with the fewest requests in flight, ties taken in turn (BALANCING=round-robin: in turn only).
    const pool = req.method === 'POST' && req.url?.startsWith('/collect/') === true ? writers : readers;
    let pick = pool[next++ % pool.length]!;
    if (BALANCING === 'least-requests') for (const k of pool) if (inFlight[k]! < inFlight[pick]!) pick = k;
    const target = targets[pick]!;
    inFlight[pick]!++;
    let settled = false;
    const done = () => {
      if (settled) return;
      settled = true;
      inFlight[pick]!--;
    };
    res.on('close', done);
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

const BATCH = 10;
/** Before each search run, at most: the companions finish what the runs before it left (settle). */
const SETTLE_MS = 20_000;
/** Search runs of each setup, taking turns after the collect runs; the median kept, ratios taken run by run. */
const SEARCH_RUNS = 3;
/** Search runs of each setup before those, not measured (the code's compilations, at a fraction of a core). */
const SEARCH_WARM_UPS = 2;
const SHARE = Number(process.env.BENCH_CPU_SHARE ?? 0.3);

/** The realistic mix, 10 per request, a fresh seed per run so that shoppers are new to the store. */
let seed = 1;
function collectRequests() {
  const mix = activityMix(seed++);
  return Array.from({ length: 1_500 }, () => ({ method: 'POST' as const, path: '/collect/demo-tracker-key', headers: { 'content-type': 'application/json' }, body: JSON.stringify(mix.batch(BATCH)) }));
}

/** Two-word queries, more distinct ones than the result cache holds, so every answer is computed. */
function searchRequests() {
  const requests = [];
  for (const a of WORDS) for (const b of WORDS) for (const limit of [5, 10, 20, 30, 40, 50, 60, 70]) {
    requests.push({ method: 'POST' as const, path: '/search', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: 'demo-search-token', query: `${a} ${b}`, options: { limit } }) });
  }
  return requests;
}

/** Busy and total jiffies of every core together (/proc/stat's first line): the whole machine, whoever used it. */
async function machineTicks(): Promise<{ busy: number; total: number }> {
  const line = (await readFile('/proc/stat', 'utf8').catch(() => '')).split('\n')[0] ?? '';
  const values = line.trim().split(/\s+/).slice(1).map(Number);
  const total = values.reduce((sum, v) => sum + (Number.isFinite(v) ? v : 0), 0);
  // idle and iowait are the 4th and 5th values.
  return { busy: total - (values[3] ?? 0) - (values[4] ?? 0), total };
}

interface Setup {
  label: string;
  url: string;
  pids: number[];
  /** Processes that take no request in this setup but follow the log: their CPU during its collect runs is summed apart (the fold). */
  bystanders?: number[];
}

/**
 * Collect then search through each setup's `url`, with what each collect run took: the companions'
 * CPU against the shares they were given (below 100%: something else held the cores), and how busy the
 * whole machine was. Several setups take turns run by run (A, B, A, B, …), so that the machine's state
 * and the growth of what the processes hold weigh on each alike, and a ratio between two is taken run
 * by run (`pairedRatios`): measured one after the other, a training or a busy minute that fell on one
 * setup's runs and not the other's moved their ratio from 0.52 to 1.08 between runs of the bench.
 */
/**
 * Waits until every companion is quiet (each under a fifth of its share over half a second; at most
 * SETTLE_MS): what the collect runs left to fold, and a model another process stored to load, are done
 * before a search run, or a setup's searches met that work and the ratios to it moved by ×2.
 */
async function settle(pids: number[]): Promise<void> {
  const deadline = performance.now() + SETTLE_MS;
  while (performance.now() < deadline) {
    const before = await Promise.all(pids.map(cpuSeconds));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const after = await Promise.all(pids.map(cpuSeconds));
    if (after.every((v, j) => v - before[j]! < 0.5 * SHARE * 0.2)) return;
  }
}

/** Activities a collect run had stored per second: its answers less those refused (429 while a fold is behind, say). */
const storedPerSecond = (run: { requestsPerSecond: number; non2xx: number }) => Math.max(0, run.requestsPerSecond - run.non2xx / SECONDS) * BATCH;

async function throughputs(setups: Setup[], collectRuns: number, paused: number[] = []): Promise<{ rows: Array<Record<string, string | number>>; runs: number[][]; searchRuns: number[][]; bystanders: Array<{ seconds: number; events: number; ms: number }> }> {
  // A warm-up run each, not measured: the code's first compilations, and a model that grows from
  // nothing retrains often at first (every 10% of growth).
  const warmUps = [];
  for (const setup of setups) warmUps.push(await load(setup.url, collectRequests(), SECONDS, CONNECTIONS));
  const runs = setups.map(() => [] as Array<Awaited<ReturnType<typeof load>>>);
  const used = setups.map(() => 0);
  const busy = setups.map(() => ({ busy: 0, total: 0 }));
  // Per setup: its bystanders' CPU seconds during its collect runs, the activities those runs sent, and how long they took.
  const bystanders = setups.map(() => ({ seconds: 0, events: 0, ms: 0 }));
  // `collectRuns` collect runs each, the median kept.
  for (let i = 0; i < collectRuns; i++) {
    for (const [k, setup] of setups.entries()) {
      const before = await Promise.all(setup.pids.map(cpuSeconds));
      const watchedBefore = await Promise.all((setup.bystanders ?? []).map(cpuSeconds));
      const machineBefore = await machineTicks();
      const started = performance.now();
      const run = await load(setup.url, collectRequests(), SECONDS, CONNECTIONS);
      runs[k]!.push(run);
      const machineAfter = await machineTicks();
      bystanders[k]!.ms += performance.now() - started;
      bystanders[k]!.events += storedPerSecond(run) * SECONDS;
      bystanders[k]!.seconds += (await Promise.all((setup.bystanders ?? []).map(cpuSeconds))).reduce((sum, v, j) => sum + v - watchedBefore[j]!, 0);
      used[k]! += (await Promise.all(setup.pids.map(cpuSeconds))).reduce((sum, v, j) => sum + v - before[j]!, 0);
      busy[k]!.busy += machineAfter.busy - machineBefore.busy;
      busy[k]!.total += machineAfter.total - machineBefore.total;
    }
  }
  // Search runs take turns as well, each once the companions are quiet: right after the collect runs, the
  // first setup's searches met the folds those left alone, and every ratio to it was inflated.
  const searches = setups.map(() => [] as Array<Awaited<ReturnType<typeof load>>>);
  const searchUsed = setups.map(() => 0);
  const searchBusy = setups.map(() => ({ busy: 0, total: 0 }));
  const everyPid = [...new Set(setups.flatMap((setup) => [...setup.pids, ...(setup.bystanders ?? [])]))];
  // `paused` (the training process) is stopped while searches run: a model it stored mid-run was loaded by
  // every companion during that run, and a training at 0.3 core outlasts any wait for it to end.
  for (const pid of paused) process.kill(pid, 'SIGSTOP');
  try {
    // Search warm-up runs, not measured: minutes of collect runs left the search code cold (the first
    // search run of a setup took a third to a half of the later ones). At 0.3 core a process answers
    // about 200 searches/s cold and reaches its pace only after 10 s of searches (two runs of a lone
    // process: 215 then 499, then 659), so each setup gets SEARCH_WARM_UPS of them.
    for (const setup of setups) {
      for (let w = 0; w < SEARCH_WARM_UPS; w++) {
        await settle(everyPid);
        await load(setup.url, searchRequests(), SECONDS, CONNECTIONS);
      }
    }
    for (let i = 0; i < SEARCH_RUNS; i++) {
      for (const [k, setup] of setups.entries()) {
        await settle(everyPid);
        const before = await Promise.all(setup.pids.map(cpuSeconds));
        const machineBefore = await machineTicks();
        searches[k]!.push(await load(setup.url, searchRequests(), SECONDS, CONNECTIONS));
        const machineAfter = await machineTicks();
        searchUsed[k]! += (await Promise.all(setup.pids.map(cpuSeconds))).reduce((sum, v, j) => sum + v - before[j]!, 0);
        searchBusy[k]!.busy += machineAfter.busy - machineBefore.busy;
        searchBusy[k]!.total += machineAfter.total - machineBefore.total;
      }
    }
  } finally {
    for (const pid of paused) process.kill(pid, 'SIGCONT');
  }
  const rows = [];
  for (const [k, setup] of setups.entries()) {
    const search = [...searches[k]!].sort((x, y) => x.requestsPerSecond - y.requestsPerSecond)[SEARCH_RUNS >> 1]!;
    const collect = [...runs[k]!].sort((x, y) => storedPerSecond(x) - storedPerSecond(y))[collectRuns >> 1]!;
    rows.push({
      setup: setup.label,
      collectEventsPerSecond: storedPerSecond(collect),
      collectP99Ms: collect.p99Ms,
      collectNon2xx: runs[k]!.reduce((sum, run) => sum + run.non2xx, 0),
      collectWarmUpEventsPerSecond: warmUps[k]!.requestsPerSecond * BATCH,
      collectRunsEventsPerSecond: runs[k]!.map((run) => Math.round(storedPerSecond(run))).join(' / '),
      'collect: share used': `${Math.round((100 * used[k]!) / (SHARE * SECONDS * collectRuns * setup.pids.length))}%`,
      'collect: machine busy': busy[k]!.total > 0 ? `${Math.round((100 * busy[k]!.busy) / busy[k]!.total)}%` : '-',
      searchPerSecond: search.requestsPerSecond,
      searchRunsPerSecond: searches[k]!.map((run) => run.requestsPerSecond).join(' / '),
      searchP99Ms: search.p99Ms,
      searchNon2xx: searches[k]!.reduce((sum, run) => sum + run.non2xx, 0),
      'search: share used': `${Math.round((100 * searchUsed[k]!) / (SHARE * SECONDS * SEARCH_RUNS * setup.pids.length))}%`,
      'search: machine busy': searchBusy[k]!.total > 0 ? `${Math.round((100 * searchBusy[k]!.busy) / searchBusy[k]!.total)}%` : '-',
    });
  }
  return { rows, runs: runs.map((list) => list.map(storedPerSecond)), searchRuns: searches.map((list) => list.map((run) => run.requestsPerSecond)), bystanders };
}

/** Run-by-run ratios of `a` to `b` (runs that took turns), and their median. */
function pairedRatios(a: number[], b: number[]): { median: number; each: string } {
  const ratios = a.map((value, i) => (b[i]! > 0 ? value / b[i]! : 0));
  const sorted = [...ratios].sort((x, y) => x - y);
  return { median: round(sorted[sorted.length >> 1] ?? 0, 2), each: ratios.map((r) => round(r, 2)).join(' / ') };
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
    const shares: CpuShare[] = [];
    const model: Array<Record<string, string | number>> = [];
    const start = async (args: string[], env: Record<string, string>, name: string): Promise<CompanionProcess> => {
      const companion = await startCompanionProcess(args, env, undefined, COMPANION_MAIN);
      companions.push(companion);
      shares.push(await limitCpu(companion.child.pid!, SHARE, name));
      return companion;
    };

    // One process on each store, their runs taking turns (throughputs): the ratio is taken run by run.
    const lowdb = await start(['--config', configFile, '--data-dir', join(dir, 'lowdb')], { DEMO: 'on' }, 'lowdb');
    const shared = ['--config', configFile, '--store', postgres.url, '--redis', redis.url];
    const first = await start([...shared, '--data-dir', join(dir, 'first')], { DEMO: 'on' }, 'first');
    const single = await throughputs([
      { label: '1 process, lowdb files (baseline)', url: lowdb.url, pids: [lowdb.child.pid!] },
      { label: '1 process, PostgreSQL + Redis', url: first.url, pids: [first.child.pid!] },
    ], PAIRED_RUNS);
    rows.push(...single.rows);
    const storeRatio = pairedRatios(single.runs[1]!, single.runs[0]!);
    await end(lowdb);
    await end(first);
    // The cluster: a process that trains the recommendation model and takes no request (T), and A, B and
    // C, which take requests and never train (--no-training), on a database of their own. Every setup
    // below then does the same training elsewhere: with the trainer among them, the single process
    // carried it alone while two or three shared it, and the ratios measured that as well (docs/scale-out.md).
    const admin = new pg.Client(postgres.url);
    await admin.connect();
    await admin.query('CREATE DATABASE cluster');
    await admin.end();
    const clusterUrl = postgres.url.replace(/\/postgres$/, '/cluster');
    const cluster = ['--config', configFile, '--store', clusterUrl, '--redis', redis.url];
    const trainer = await start([...cluster, '--data-dir', join(dir, 't')], { DEMO: 'on' }, 't');
    const serving = [...cluster, '--no-training'];
    const a = await start([...serving, '--data-dir', join(dir, 'a')], { DEMO: 'off' }, 'a');
    const b = await start([...serving, '--data-dir', join(dir, 'b')], { DEMO: 'off' }, 'b');
    // C takes no request during the two-process runs: the CPU it spends then is what folding another process's activities costs.
    const c = await start([...serving, '--data-dir', join(dir, 'c')], { DEMO: 'off' }, 'c');
    // I only takes activities (--ingest-only): beside A it is an ingest tier of one (docs/scale-out.md, "An ingest tier").
    const ingest = await start([...cluster, '--ingest-only', '--data-dir', join(dir, 'i')], { DEMO: 'off' }, 'i');
    const two = await balancer([a.url, b.url]);
    const three = await balancer([a.url, b.url, c.url]);
    const tier = await balancer([a.url, ingest.url], [a.url]);
    // C's CPU when nothing happens (timers, the trainer's lease, notices of the other processes' own
    // work), over as long: taken off the fold, so that the fold is what activities cost it.
    const idleStart = await cpuSeconds(c.child.pid!);
    await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
    const idlePerSecond = ((await cpuSeconds(c.child.pid!)) - idleStart) / SECONDS;
    // 1, 2 and 3 processes take turns run by run (1, 2, 3, 1, 2, 3, …): every process follows the log
    // throughout, so each setup's runs meet the same number of shoppers and the same heap. Measured one
    // setup after the other, the later setups met more of both and their ratios to the first fell.
    const trainerBefore = await cpuSeconds(trainer.child.pid!);
    const turnsStarted = performance.now();
    const turns = await throughputs([
      { label: '1 process (A), PostgreSQL + Redis, a training process beside it, taking turns with 2 and 3', url: a.url, pids: [a.child.pid!] },
      { label: `2 processes (A, B), PostgreSQL + Redis, ${BALANCING}`, url: two.url, pids: [a.child.pid!, b.child.pid!], bystanders: [c.child.pid!] },
      { label: `3 processes (A, B, C), PostgreSQL + Redis, ${BALANCING}`, url: three.url, pids: [a.child.pid!, b.child.pid!, c.child.pid!] },
      { label: `2 processes: A, and I taking activities only (--ingest-only); collect to both, the rest to A, ${BALANCING}`, url: tier.url, pids: [a.child.pid!, ingest.child.pid!] },
    ], TURN_RUNS, [trainer.child.pid!]);
    rows.push(...turns.rows);
    const trainerShare = (await cpuSeconds(trainer.child.pid!)) - trainerBefore;
    const trainerNote = `T, the process that trains (${SHARE} core, takes no request), used ${Math.round((100 * trainerShare) / ((SHARE * (performance.now() - turnsStarted)) / 1000))}% of its share during the turns of 1, 2 and 3 processes (folding every activity, and training).`;
    const watched = turns.bystanders[1]!;
    const foldSeconds = Math.max(0, watched.seconds - (idlePerSecond * watched.ms) / 1000);
    await two.close();
    await three.close();
    await tier.close();
    const [one, , third] = turns.rows;
    const ratio = (x: number | string | undefined, y: number | string | undefined) => (typeof x === 'number' && typeof y === 'number' && y > 0 ? round(x / y, 2) : '-');
    const twoRatio = pairedRatios(turns.runs[1]!, turns.runs[0]!);
    const threeRatio = pairedRatios(turns.runs[2]!, turns.runs[0]!);
    const tierRatio = pairedRatios(turns.runs[3]!, turns.runs[0]!);
    const searchRatio = (k: number, runs = turns.searchRuns) => pairedRatios(runs[k]!, runs[0]!);
    const storeSearch = searchRatio(1, single.searchRuns);
    const [twoSearch, threeSearch, tierSearch] = [searchRatio(1), searchRatio(2), searchRatio(3)];
    rows.push({ setup: 'PostgreSQL 1 process ÷ lowdb (median of the run-by-run ratios; each listed)', collectEventsPerSecond: storeRatio.median, collectRunsEventsPerSecond: storeRatio.each, searchPerSecond: storeSearch.median, searchRunsPerSecond: storeSearch.each });
    rows.push({ setup: '2 processes ÷ 1 (PostgreSQL; median of the run-by-run ratios, each listed)', collectEventsPerSecond: twoRatio.median, collectRunsEventsPerSecond: twoRatio.each, searchPerSecond: twoSearch.median, searchRunsPerSecond: twoSearch.each });
    rows.push({ setup: '3 processes ÷ 1 (PostgreSQL; median of the run-by-run ratios, each listed)', collectEventsPerSecond: threeRatio.median, collectRunsEventsPerSecond: threeRatio.each, searchPerSecond: threeSearch.median, searchRunsPerSecond: threeSearch.each });
    rows.push({ setup: 'A + ingest-only I ÷ 1 (PostgreSQL; median of the run-by-run ratios, each listed; search goes to A alone)', collectEventsPerSecond: tierRatio.median, collectRunsEventsPerSecond: tierRatio.each, searchPerSecond: tierSearch.median, searchRunsPerSecond: tierSearch.each });
    // The capacity model (docs/scale-out.md): each process spends `accept` CPU seconds on an activity it
    // takes and `fold` on each one another process took, so N processes of `SHARE` core each take
    // N × SHARE / (accept + (N − 1) × fold) activities a second.
    const fold = watched.events > 0 ? foldSeconds / watched.events : 0;
    const accept = typeof one?.collectEventsPerSecond === 'number' && one.collectEventsPerSecond > 0 ? SHARE / one.collectEventsPerSecond : 0;
    if (accept > 0) {
      const predicted = Math.round((3 * SHARE) / (accept + 2 * fold));
      // What a shop needs, from this run's constants: activities need the smallest N reaching the rate (none
      // past the ceiling SHARE / fold); searches add no cost to other processes, so they scale by N.
      const collectProcesses = (rate: number): string => {
        for (let n = 1; n <= 64; n++) if ((n * SHARE) / (accept + (n - 1) * fold) >= rate) return String(n);
        return fold > 0 ? `over 64 (ceiling ${Math.round(SHARE / fold)}/s)` : 'over 64';
      };
      const searchRate = typeof one?.searchPerSecond === 'number' ? one.searchPerSecond : 0;
      const searchProcesses = (rate: number): string => (searchRate > 0 ? String(Math.ceil(rate / searchRate)) : '-');
      model.push(
        ...[1_000, 10_000, 50_000].map((rate) => ({ need: `${rate.toLocaleString('en')} activities/s`, processes: collectProcesses(rate) })),
        ...[100, 1_000, 10_000].map((rate) => ({ need: `${rate.toLocaleString('en')} searches/s (uncached)`, processes: searchProcesses(rate) })),
      );
      rows.push({ setup: `model: 3 processes predicted from 1 process (${round(accept * 1e6, 0)} µs/activity) and the fold on a process taking none (${round(fold * 1e6, 1)} µs/activity)`, collectEventsPerSecond: predicted, searchPerSecond: `measured ${third?.collectEventsPerSecond ?? '-'} (${ratio(third?.collectEventsPerSecond, predicted)} of predicted)` });
    }
    const lag = await visibilityLag(a.url, b.url, 60);
    rows.push({ setup: 'activity on A → B recommendations, 60 samples', lagP50Ms: lag.p50, lagP99Ms: lag.p99, lagMaxMs: lag.max });
    for (const share of shares) await share.release();
    return {
      name: 'scale-out: the shared store',
      rows,
      tables: [{ title: `Capacity model: companions of ${SHARE} core each on PostgreSQL for a shop's rates (docs/scale-out.md, "Capacity model")`, rows: model }],
      notes: [
        `Each companion: ${SHARE} of a core (${shares[0]?.how ?? 'no companion started'}).`,
        'lowdb and "1 process, PostgreSQL" each train their own model; A, B and C run with --no-training on a database of their own, where T trains the model for all of them.',
        trainerNote,
        `Each throughput row: a collect run of ${SECONDS} s to warm up, then ${PAIRED_RUNS} (lowdb and one process beside it) or ${TURN_RUNS} (1, 2 and 3 processes) collect runs of ${SECONDS} s (the median shown, each listed), then ${SEARCH_WARM_UPS} search runs of ${SECONDS} s each to warm up and ${SEARCH_RUNS} measured ones, taking turns, each once every companion is quiet (under a fifth of its share for half a second, at most ${SETTLE_MS / 1000} s: the folds the collect runs left), with the training process T stopped (SIGSTOP) meanwhile so that no model it stores is loaded during a search run (the median shown, each listed), ${CONNECTIONS} connections (autocannon in its own process), collect = the realistic mix, ${BATCH} per request (events/s), search = ${searchRequests().length} distinct queries (more than the result cache holds).`,
        `The two single-process rows (lowdb, PostgreSQL) run side by side and take turns run by run (lowdb, PostgreSQL, lowdb, …), so that the machine's state and the growth of what each holds weigh on both alike; their ratio is the median of the run-by-run ratios (${PAIRED_RUNS} pairs).`,
        'PostgreSQL runs with fsync on: each collect waits for a group commit, as with the lowdb files\' fsync.',
        `"share used": the companions' CPU during the collect run against the shares they were given; "machine busy": every core of this machine (${availableParallelism()}) during it. A share used well below 100% with the machine near 100% means the companions waited for cores that PostgreSQL, the load generator, the balancing proxy or other work held: separate machines would not, and the model's prediction is then the figure to expect.`,
        'Lag: one activity collected on A, B polled every 5 ms until its recently-viewed widget shows it (NOTIFY after each group commit, 1 s poll as the safety net).',
      ],
    };
  } finally {
    for (const companion of companions) await end(companion);
    await redis.dispose();
    postgres.dispose();
    await rm(dir, { recursive: true, force: true });
  }
}
