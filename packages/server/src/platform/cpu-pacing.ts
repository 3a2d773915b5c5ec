/**
 * Background work that gives way to requests when the process's CPU is what both compete for.
 *
 * A training thread at the lowest priority (nice 19) already waits when the cores are busy, but not
 * when the process has a CPU quota of its own (a container's limit, a cgroup's `cpu.max`): the quota
 * is shared by every thread of the process, and whatever the training uses in the serving thread's
 * pauses (waiting for a commit, for the next request) is taken from the same budget, so the serving
 * thread is throttled later in the period. Measured with the realistic activity mix on 0.5 of a core:
 * a training that grew to 2,500 items took 55–60% of the process's CPU for the whole of its run, and
 * the activities accepted per second fell from about 11,000 to 2,700–4,800 until it ended.
 *
 * So the serving thread publishes how busy its event loop is (`BusySignal`, its utilisation over the
 * last 100 ms), and a background thread calls `pace()` between slices of its work: while the serving
 * thread is busy, each slice is followed by a sleep that keeps the background thread to
 * `PACED_SHARE` of the wall time. When the server is quiet, nothing sleeps and a training runs at full
 * speed. A slice's length is measured in wall time, which includes time the quota held the thread
 * back, so the share is an upper bound of the CPU taken.
 */
import { performance } from 'node:perf_hooks';

/** The serving thread's event-loop utilisation (0–1) above which background work is paced. */
export const BUSY_UTILISATION = 0.5;
/** The share of wall time a paced background thread works while the serving thread is busy. */
export const PACED_SHARE = 0.1;
/** Background work runs at least this long between two checks of the signal (ms). */
const SLICE_MS = 20;
const SIGNAL_EVERY_MS = 100;
const MAX_SLEEP_MS = 2_000;

/** Written by the serving thread, read by background threads: its event-loop utilisation, per mille. */
export class BusySignal {
  readonly buffer = new SharedArrayBuffer(4);
  private readonly view = new Int32Array(this.buffer);
  private timer: NodeJS.Timeout | undefined;
  private last = performance.eventLoopUtilization();

  /** Starts publishing (idempotent); the timer never keeps the process alive. */
  start(): this {
    if (this.timer !== undefined) return this;
    this.last = performance.eventLoopUtilization();
    this.timer = setInterval(() => {
      const now = performance.eventLoopUtilization();
      this.publish(performance.eventLoopUtilization(now, this.last).utilization);
      this.last = now;
    }, SIGNAL_EVERY_MS);
    this.timer.unref();
    return this;
  }

  /** Publishes a utilisation (0–1): the timer's measurement, or a test's. */
  publish(utilisation: number): void {
    Atomics.store(this.view, 0, Math.round(Math.min(1, Math.max(0, utilisation)) * 1000));
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    Atomics.store(this.view, 0, 0);
  }
}

/** What a paced thread has done: for its log line and the tests. */
export interface PacingStats {
  /** Wall time spent asleep to give way (ms). */
  sleptMs: number;
  /** Slices after which it slept. */
  pauses: number;
}

let signal: Int32Array | undefined;
let sliceStart = 0;
const sleeper = new Int32Array(new SharedArrayBuffer(4));
const stats: PacingStats = { sleptMs: 0, pauses: 0 };

/** Makes `pace()` in this thread follow the signal in `buffer` (a BusySignal's); undefined turns pacing off. */
export function followBusySignal(buffer: SharedArrayBuffer | undefined): void {
  signal = buffer === undefined ? undefined : new Int32Array(buffer);
  startSlice();
}

/** Marks the start of a piece of work (a training): the time the thread waited before it is not a slice. */
export function startSlice(): void {
  sliceStart = performance.now();
}

/** The pacing so far in this thread, and resets the counts. */
export function takePacingStats(): PacingStats {
  const taken = { ...stats };
  stats.sleptMs = 0;
  stats.pauses = 0;
  return taken;
}

/**
 * Called between slices of background work: cheap (one clock read) until a slice has run SLICE_MS;
 * then, while the serving thread is busy, sleeps long enough that this thread keeps to PACED_SHARE of
 * the wall time. Blocks the calling thread (Atomics.wait): for worker threads only, never the serving
 * thread, where it does nothing (no signal is followed there).
 */
export function pace(): void {
  if (signal === undefined) return;
  const now = performance.now();
  const worked = now - sliceStart;
  if (worked < SLICE_MS) return;
  if (Atomics.load(signal, 0) >= BUSY_UTILISATION * 1000) {
    // At most MAX_SLEEP_MS at once: a slice made long by a loop without pace() calls does not stall the work for minutes.
    const sleep = Math.min(MAX_SLEEP_MS, (worked * (1 - PACED_SHARE)) / PACED_SHARE);
    Atomics.wait(sleeper, 0, 0, sleep);
    stats.sleptMs += sleep;
    stats.pauses++;
  }
  sliceStart = performance.now();
}
