/**
 * The port for request counts that several server processes must share (rate limits): hits per key in
 * fixed time windows. Without an adapter each process counts alone (the in-memory limiters of the API
 * and auth layers); with Redis (redis/redis-rate-windows.ts) a limit holds for the shop as a whole.
 *
 * Contract: `hit(key, windowMs, count)` adds `count` hits (0 only reads) under `key` in the window of
 * `windowMs` that is running now, for every process, and resolves with the hits the window holds and
 * the milliseconds until it ends; it resolves `undefined`, quickly, while the shared store is out of
 * reach, and the caller then decides on its own counts (a limit fails open rather than refusing a shop's traffic).
 */

export interface WindowCount {
  hits: number;
  resetMs: number;
}

export interface SharedRateWindows {
  hit(key: string, windowMs: number, count?: number): Promise<WindowCount | undefined>;
}
