/**
 * EASE (Steck, "Embarrassingly Shallow Autoencoders for Sparse Data", WWW 2019): item-to-item
 * weights B = I - P·diag(1/diag(P)), P = (XᵀX + λI)⁻¹, learned from every shopper's touches. A
 * dense inverse is cubic in the item count, so the model covers the `maxItems` most-touched items
 * (the ones with enough data to learn from); the long tail is served by co-occurrence at query time.
 * At the bench's 100,000 products / 1,000,000 activities, 2,500 items train in about 14 s (the solve
 * is 80% of it) with a 50 MB matrix; time grows as maxItems³, so 5,000 would take about 2 minutes. On
 * the evaluation's shop 3,600 items learned nothing more than 2,500 (docs/recommendations.md).
 * Each row keeps only its `neighbours` weights largest in magnitude: queries then cost
 * history × neighbours, and the file stays small. Pure computation: runs in the training worker.
 */

import { pace } from '../../platform/cpu-pacing.js';
import { invertSpdInPlace } from './spd-inverse.js';
import { kthLargest } from './top-k.js';

export interface EaseOptions {
  /** L2 regularisation λ; larger values pull weights toward plain co-occurrence. */
  lambda: number;
  /** Items the dense solve covers (memory 8·maxItems² bytes, time ∝ maxItems³). */
  maxItems: number;
  /** Positive weights kept per item. */
  neighbours: number;
  /** Items touched by fewer shoppers are left to co-occurrence. */
  minShoppers: number;
}

export interface TrainingRows {
  offsets: Int32Array;
  items: Int32Array;
  weights: Float32Array;
  itemCount: number;
}

/** Sparse item-to-item weights over global item numbers: row r belongs to item `rowItems[r]`. */
export interface SparseWeights {
  rowItems: Int32Array;
  rowOffsets: Int32Array;
  columns: Int32Array;
  values: Float32Array;
}

/** Where a training's time went (milliseconds), for the log and the bench. */
export interface TrainingTimings {
  gramMs: number;
  inverseMs: number;
  sparsifyMs: number;
  /**
   * The training thread's own memory at its fullest (MB): its heap plus its buffers (the touches it
   * was handed, the dense matrix, the kept weights), sampled at the end of each phase. The catalog and
   * aggregates the serving thread holds are not in it.
   */
  peakMb?: number;
  /** The learned ranking stage: its examples' item model (a second solve), the examples and the fit. */
  rankerMs?: number;
  /** Its parts: the examples' item model, building the examples (features of every candidate), the fit. */
  rankerModelMs?: number;
  rankerExamplesMs?: number;
  rankerFitMs?: number;
  /** Wall time the training slept to give way to a busy serving thread (platform/cpu-pacing.ts). */
  pausedMs?: number;
}

/** `sampleMemory` (optional) is called at the end of each phase, while that phase's arrays are still held. */
export function trainEase(rows: TrainingRows, options: EaseOptions, timings?: TrainingTimings, sampleMemory?: () => void): SparseWeights {
  const chosen = chooseItems(rows, options);
  const n = chosen.length;
  const column = new Int32Array(rows.itemCount).fill(-1);
  chosen.forEach((item, c) => (column[item] = c));
  let mark = performance.now();
  const lap = (phase: keyof TrainingTimings) => {
    const now = performance.now();
    if (timings !== undefined) timings[phase] = Math.round(now - mark);
    sampleMemory?.();
    mark = now;
  };
  const gram = gramMatrix(rows, column, n);
  for (let i = 0; i < n; i++) gram[i * n + i]! += options.lambda;
  lap('gramMs');
  invertSpdInPlace(gram, n);
  lap('inverseMs');
  const weights = sparsify(gram, n, chosen, options.neighbours);
  lap('sparsifyMs');
  return weights;
}

/** The most-touched items (by shoppers), at most `maxItems`, in item-number order. */
function chooseItems(rows: TrainingRows, options: EaseOptions): Int32Array {
  const shoppers = new Int32Array(rows.itemCount);
  for (const item of rows.items) shoppers[item]!++;
  const candidates: number[] = [];
  for (let i = 0; i < rows.itemCount; i++) if (shoppers[i]! >= options.minShoppers) candidates.push(i);
  candidates.sort((a, b) => shoppers[b]! - shoppers[a]! || a - b);
  return Int32Array.from(candidates.slice(0, options.maxItems)).sort();
}

/**
 * XᵀX over the chosen items, dense and row-major. Each shopper's columns are sorted first so that only
 * the upper triangle is accumulated (half the work, and row-local writes); it is mirrored at the end.
 */
function gramMatrix(rows: TrainingRows, column: Int32Array, n: number): Float64Array {
  const gram = new Float64Array(n * n);
  const weightOf = new Float64Array(n);
  let cols = new Int32Array(64);
  for (let r = 0; r + 1 < rows.offsets.length; r++) {
    pace();
    let count = 0;
    for (let k = rows.offsets[r]!; k < rows.offsets[r + 1]!; k++) {
      const c = column[rows.items[k]!]!;
      if (c < 0) continue;
      if (count === cols.length) {
        const bigger = new Int32Array(cols.length * 2);
        bigger.set(cols);
        cols = bigger;
      }
      cols[count++] = c;
      weightOf[c] = rows.weights[k]!;
    }
    const sorted = cols.subarray(0, count).sort();
    for (let a = 0; a < count; a++) {
      const ca = sorted[a]!;
      const base = ca * n;
      const wa = weightOf[ca]!;
      for (let b = a; b < count; b++) {
        const cb = sorted[b]!;
        gram[base + cb]! += wa * weightOf[cb]!;
      }
    }
  }
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) gram[j * n + i] = gram[i * n + j]!;
  return gram;
}

/**
 * B[i][j] = -P[i][j] / P[j][j] (i ≠ j): a shopper who touched i makes j likelier by B[i][j] (less
 * likely when negative). Keeps the `neighbours` weights of each row largest in magnitude, negative
 * ones included: on the evaluation's next orders, keeping only positive weights lost 0.01 of HR@10
 * against the full matrix, keeping the largest in magnitude lost nothing (docs/recommendations.md).
 * A selection finds the threshold; the kept weights are stored strongest first.
 */
function sparsify(p: Float64Array, n: number, items: Int32Array, neighbours: number): SparseWeights {
  const rowOffsets = new Int32Array(n + 1);
  const columns = new Int32Array(n * Math.min(neighbours, Math.max(n - 1, 0)));
  const values = new Float32Array(columns.length);
  const inverseDiagonal = new Float64Array(n);
  for (let j = 0; j < n; j++) inverseDiagonal[j] = 1 / p[j * n + j]!;
  const weight = new Float64Array(n);
  const magnitude = new Float64Array(n);
  const kept: number[] = [];
  let at = 0;
  for (let i = 0; i < n; i++) {
    pace();
    const row = i * n;
    let count = 0;
    for (let j = 0; j < n; j++) {
      const w = j === i ? 0 : -p[row + j]! * inverseDiagonal[j]!;
      weight[j] = w;
      if (w !== 0) magnitude[count++] = Math.abs(w);
    }
    const threshold = count <= neighbours ? Number.MIN_VALUE : kthLargest(magnitude, count, neighbours);
    kept.length = 0;
    for (let j = 0; j < n; j++) if (Math.abs(weight[j]!) >= threshold) kept.push(j);
    kept.sort((x, y) => Math.abs(weight[y]!) - Math.abs(weight[x]!) || x - y);
    for (let k = 0; k < kept.length && k < neighbours; k++) {
      columns[at] = items[kept[k]!]!;
      values[at++] = weight[kept[k]!]!;
    }
    rowOffsets[i + 1] = at;
  }
  return { rowItems: items, rowOffsets, columns: columns.slice(0, at), values: values.slice(0, at) };
}
