/** The training thread: receives a snapshot of shoppers' touches, answers EASE weights (see ease.ts). */
import { parentPort } from 'node:worker_threads';
import { trainEase, type EaseOptions, type TrainingRows, type TrainingTimings } from './ease.js';

export interface TrainingRequest {
  rows: TrainingRows;
  options: EaseOptions;
}

parentPort?.on('message', (request: TrainingRequest) => {
  try {
    const timings: TrainingTimings = { gramMs: 0, inverseMs: 0, sparsifyMs: 0 };
    const weights = trainEase(request.rows, request.options, timings);
    parentPort!.postMessage({ weights, timings }, [weights.rowItems.buffer, weights.rowOffsets.buffer, weights.columns.buffer, weights.values.buffer] as ArrayBuffer[]);
  } catch (error) {
    parentPort!.postMessage({ error: (error as Error).message });
  }
});
