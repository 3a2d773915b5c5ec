/**
 * The training thread: receives a snapshot of shoppers' touches, answers EASE weights (see ease.ts)
 * and, when asked, the learned ranking stage trained on the same snapshot (ranker-training.ts).
 */
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { followBusySignal, startSlice, takePacingStats } from '../../platform/cpu-pacing.js';
import { trainEase, type EaseOptions, type TrainingRows, type TrainingTimings } from './ease.js';
import { trainRanker, type ItemFacts, type RankerOptions } from './ranker-training.js';

export interface TrainingRequest {
  rows: TrainingRows;
  options: EaseOptions;
  /** Present when the learned ranking is on: each entry's first minute, per-item facts and options. */
  ranker?: { first: Int32Array; facts: ItemFacts; options: RankerOptions };
}

/**
 * The lowest CPU priority for this thread only (Linux keeps a nice value per thread, and libuv sets the
 * calling thread's): when the cores are busy, requests and the activity fold on the main thread go
 * first, and a training takes what they leave. Where the system refuses, training keeps the default.
 */
export const TRAINING_NICE = 19;
if (parentPort !== null) {
  try {
    setPriority(TRAINING_NICE);
  } catch {
    // Not permitted here: the default priority.
  }
}

/** The serving thread's BusySignal (model-trainer.ts): a training gives way while requests keep it busy. */
followBusySignal((workerData as { busySignal?: SharedArrayBuffer } | null)?.busySignal);

parentPort?.on('message', (request: TrainingRequest) => {
  startSlice();
  takePacingStats();
  try {
    const timings: TrainingTimings = { gramMs: 0, inverseMs: 0, sparsifyMs: 0, peakMb: 0 };
    // In a worker, heapUsed and external are this thread's own (rss would be the whole process's).
    const sampleMemory = () => {
      const { heapUsed, external } = process.memoryUsage();
      timings.peakMb = Math.max(timings.peakMb ?? 0, Math.round((heapUsed + external) / 1048576));
    };
    sampleMemory();
    const weights = trainEase(request.rows, request.options, timings, sampleMemory);
    const transfer: ArrayBuffer[] = [weights.rowItems.buffer, weights.rowOffsets.buffer, weights.columns.buffer, weights.values.buffer] as ArrayBuffer[];
    let ranker: ReturnType<typeof trainRanker> | undefined;
    if (request.ranker !== undefined) {
      const started = performance.now();
      const rows = { ...request.rows, first: request.ranker.first };
      ranker = trainRanker(rows, (without) => trainEase(without, request.options), request.ranker.facts, request.ranker.options, { timings, sampleMemory });
      timings.rankerMs = Math.round(performance.now() - started);
      sampleMemory();
      const s = ranker.stats;
      transfer.push(...([s.short, s.long, s.shoppers, s.born, s.weekOffsets, s.weeks, s.weekCounts, s.buyers, s.buyerDepth, s.idf].map((a) => a.buffer) as ArrayBuffer[]));
    }
    timings.pausedMs = Math.round(takePacingStats().sleptMs);
    parentPort!.postMessage({ weights, timings, ranker }, transfer);
  } catch (error) {
    parentPort!.postMessage({ error: (error as Error).message });
  }
});
