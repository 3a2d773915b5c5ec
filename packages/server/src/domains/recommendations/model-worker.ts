/** The training thread: receives a snapshot of shoppers' touches, answers EASE weights (see ease.ts). */
import { parentPort } from 'node:worker_threads';
import { trainEase, type EaseOptions, type TrainingRows, type TrainingTimings } from './ease.js';

export interface TrainingRequest {
  rows: TrainingRows;
  options: EaseOptions;
}

parentPort?.on('message', (request: TrainingRequest) => {
  try {
    const timings: TrainingTimings = { gramMs: 0, inverseMs: 0, sparsifyMs: 0, peakMb: 0 };
    // In a worker, heapUsed and external are this thread's own (rss would be the whole process's).
    const sampleMemory = () => {
      const { heapUsed, external } = process.memoryUsage();
      timings.peakMb = Math.max(timings.peakMb ?? 0, Math.round((heapUsed + external) / 1048576));
    };
    sampleMemory();
    const weights = trainEase(request.rows, request.options, timings, sampleMemory);
    parentPort!.postMessage({ weights, timings }, [weights.rowItems.buffer, weights.rowOffsets.buffer, weights.columns.buffer, weights.values.buffer] as ArrayBuffer[]);
  } catch (error) {
    parentPort!.postMessage({ error: (error as Error).message });
  }
});
