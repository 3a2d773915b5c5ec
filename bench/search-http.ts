/**
 * The search benchmark's HTTP figures for one catalog, side by side in one run: uncached and cached
 * POST /search, suggest and autocomplete (req/s, p50/p99 at 50 connections, the server's CPU per
 * request, every thread of the process counted, and the main thread's own share), answered by the main thread alone and, for uncached
 * search, with the server's search threads; and a bare Koa endpoint measured right after
 * (one thread), with each figure's share of it.
 */
import { monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';
import type { BenchResult } from './run.js';
import { load, round, threadTimes, type LoadResult } from './harness.js';

/** Concurrent connections of every HTTP figure: a storefront's busy minute, and the bar. */
export const CONNECTIONS = 50;
const SECONDS = 5;
/** An unmeasured load before the search thread's row (see there). */
const WARM_SECONDS = 2;

export interface HttpTarget {
  url: string;
  bareUrl: string;
  /** Makes the bare Koa endpoint spin this long per request (harness.ts `startBareKoa`). */
  setBareBusyMs(ms: number): void;
  token: string;
  queries: readonly string[];
  /** The search service's result cache size, set to 0 for the uncached figures and restored after. */
  setCacheSize(size: number): void;
  cacheSize: number;
  /**
   * The server's search threads (`searchThreads`), when it has some: paused, the main thread answers
   * every search (the rows without threads); `inStep` resolves once a thread holds this tenant's catalog.
   */
  threads?: { setPaused(paused: boolean): void; inStep(): Promise<void>; count: number; stats(): Promise<{ loopMaxMs: number; gcMaxMs: number; gcMs: number; utilization: number }[]> };
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=UTF-8' };

/**
 * One load, with the server's CPU per answered request (this process serves; autocannon is another)
 * and the longest the server's event loop was held meanwhile, how busy that loop was (its event loop
 * utilisation: the share of the time it was not waiting for input), with the longest garbage collection and
 * their total (a p99 far above the p50 is either such a hold, a collection or other work holding every
 * queued request, or the load generator).
 */
async function measured(url: string, requests: Parameters<typeof load>[1]): Promise<LoadResult & { cpuMs: number; mainCpuMs: number | undefined; loopMaxMs: number; mainBusy: string; gcMaxMs: number; gcMs: number }> {
  const loop = monitorEventLoopDelay({ resolution: 5 });
  // The collections meanwhile: the longest pause and their total, beside the longest hold of the loop.
  let gcMaxMs = 0;
  let gcMs = 0;
  const count = (entries: readonly PerformanceEntry[]): void => {
    for (const entry of entries) {
      gcMs += entry.duration;
      gcMaxMs = Math.max(gcMaxMs, entry.duration);
    }
  };
  const collections = new PerformanceObserver((list) => count(list.getEntries()));
  collections.observe({ entryTypes: ['gc'] });
  loop.enable();
  const busyBefore = performance.eventLoopUtilization();
  const before = process.cpuUsage();
  const mainBefore = threadTimes().get(process.pid);
  const result = await load(url, requests, SECONDS, CONNECTIONS);
  const cpu = process.cpuUsage(before);
  const mainAfter = threadTimes().get(process.pid);
  const answered = Math.max(1, result.requestsPerSecond * SECONDS);
  const busy = performance.eventLoopUtilization(busyBefore);
  loop.disable();
  count(collections.takeRecords());
  collections.disconnect();
  return {
    ...result,
    cpuMs: round((cpu.user + cpu.system) / 1000 / answered, 3),
    // The main thread's own share (Linux only): with a search thread, the rest is mostly that thread's.
    mainCpuMs: mainBefore === undefined || mainAfter === undefined ? undefined : round((mainAfter - mainBefore) / answered, 3),
    loopMaxMs: round(loop.max / 1e6, 1),
    mainBusy: `${Math.round(100 * busy.utilization)}%`,
    gcMaxMs: round(gcMaxMs, 1),
    gcMs: round(gcMs, 0),
  };
}

export async function httpFigures(label: string, target: HttpTarget): Promise<BenchResult['rows']> {
  const post = (path: string, body: (query: string) => unknown) => target.queries.map((query) => ({ method: 'POST' as const, path, headers: JSON_HEADERS, body: JSON.stringify(body(query)) }));
  const searches = post('/search', (query) => ({ token: target.token, query, options: { facets: [{ id: 'color', values: ['red', 'blue'] }], filter: 'in_stock = 1 AND price < 4000' } }));
  const suggests = post('/search/suggest', (query) => ({ token: target.token, query, options: { groupBy: { attribute: 'brand', size: 5 } } }));
  const autocompletes = post('/search/autocomplete', (query) => ({ token: target.token, query: query.slice(0, 4), options: { numberOfSuggestions: 8, categories: true } }));

  // A thread still building its copy of the catalog would take a core from the main thread's rows.
  await target.threads?.inStep();
  target.setCacheSize(0);
  target.threads?.setPaused(true);
  const uncached = await measured(target.url, searches);
  const suggest = await measured(target.url, suggests);
  const autocomplete = await measured(target.url, autocompletes);
  target.threads?.setPaused(false);
  // The same with the server's search threads answering the searches (the main thread keeps HTTP).
  // The thread's own loop and collections during that load (the row's loopMaxMs and gc figures are the main thread's).
  let threaded: Awaited<ReturnType<typeof measured>> | undefined;
  let threadStats: { loopMaxMs: number; gcMaxMs: number; gcMs: number; utilization: number }[] = [];
  if (target.threads !== undefined) {
    // Warmed as the main thread's rows are (they follow its own earlier loads): the thread's first pass
    // over the queries builds each product view's text it shows, which its young collections then copy.
    await load(target.url, searches, WARM_SECONDS, CONNECTIONS);
    await target.threads.stats();
    threaded = await measured(target.url, searches);
    threadStats = await target.threads.stats();
  }
  target.threads?.setPaused(true);
  target.setCacheSize(target.cacheSize);
  const cached = await measured(target.url, searches);
  target.threads?.setPaused(false);
  const bare = await measured(target.bareUrl, [{ method: 'GET' as const, path: '/' }]);
  // The same bare endpoint costing what an uncached search costs: the p50/p99 any Node server of that
  // CPU per request gets from this machine and load generator at 50 connections.
  const busyMs = round(Math.max(0, uncached.cpuMs - bare.cpuMs), 3);
  target.setBareBusyMs(busyMs);
  const busy = await measured(target.bareUrl, [{ method: 'GET' as const, path: '/' }]);
  target.setBareBusyMs(0);

  const row = (step: string, r: LoadResult & { cpuMs: number; mainCpuMs: number | undefined; loopMaxMs: number; mainBusy: string; gcMaxMs: number; gcMs: number }) => ({
    step: `${label}: ${step}`,
    requestsPerSecond: r.requestsPerSecond,
    ofBareKoa: `${round((100 * r.requestsPerSecond) / Math.max(1, bare.requestsPerSecond), 1)}%`,
    p50Ms: r.p50Ms,
    p99Ms: r.p99Ms,
    cpuMs: r.cpuMs,
    ...(r.mainCpuMs === undefined ? {} : { mainCpuMs: r.mainCpuMs }),
    loopMaxMs: r.loopMaxMs,
    mainBusy: r.mainBusy,
    gcMaxMs: r.gcMaxMs,
    gcMs: r.gcMs,
    non2xx: r.non2xx,
  });
  const threads = target.threads === undefined ? '' : `${target.threads.count} search thread${target.threads.count === 1 ? '' : 's'}`;
  return [
    row(`POST /search uncached, ${target.queries.length} rotating queries, facets and a filter`, uncached),
    ...(threaded === undefined ? [] : [row(`POST /search uncached, same, ${threads} and the main thread`, threaded)]),
    ...threadStats.map((stats, i) => ({ step: `${label}: meanwhile, search thread ${i + 1}'s own event loop and collections`, threadBusy: `${Math.round(100 * stats.utilization)}%`, loopMaxMs: round(stats.loopMaxMs, 1), gcMaxMs: round(stats.gcMaxMs, 1), gcMs: round(stats.gcMs, 0) })),
    row(`POST /search, same, result cache of ${target.cacheSize}`, cached),
    row('POST /search/suggest, result cache off, grouped by brand', suggest),
    row('POST /search/autocomplete, 4-letter prefixes, with categories', autocomplete),
    { step: `${label}: HTTP bare Koa, same run`, requestsPerSecond: bare.requestsPerSecond, p50Ms: bare.p50Ms, p99Ms: bare.p99Ms, cpuMs: bare.cpuMs },
    { step: `${label}: bare Koa spinning ${busyMs} ms a request (uncached search's CPU), same run`, requestsPerSecond: busy.requestsPerSecond, p50Ms: busy.p50Ms, p99Ms: busy.p99Ms, cpuMs: busy.cpuMs },
  ];
}
