/**
 * Fits the learned ranking stage's weights: a logistic regression over standardised features, by
 * Newton's method (there are a few dozen weights at most), with a ridge penalty that grows with the
 * examples.
 */
import { pace } from '../../platform/cpu-pacing.js';
import { invertSpdInPlace } from './spd-inverse.js';

/**
 * L2 penalty on the standardised weights, per example row. The features are strongly correlated (the
 * model's score and its three crossings, three popularities): with a token penalty (1 in all) the fit
 * gave them large weights of opposite signs that held on the examples but not on the next visits. On a
 * validation split carved from the training orders (`OFFLINE_VALIDATE=1` and `2` with
 * eval/offline-ranker.ts, 2,275 next orders), HR@10 was 0.452 with the token penalty, 0.463 / 0.473 /
 * 0.474 / 0.473 at 0.05 / 0.1 / 0.15 / 0.2 per row, and fell again beyond (0.466 at about 0.45).
 */
const PENALTY_PER_ROW = 0.15;
const NEWTON_STEPS = 12;

export interface FittedWeights {
  mean: number[];
  scale: number[];
  coef: number[];
  bias: number;
}

/** Is this candidate bought? One row per candidate of an example. */
export function fitLogistic(x: Float64Array, y: Uint8Array, features: number): FittedWeights {
  const rows = y.length;
  const { mean, scale } = standardise(x, rows, features);
  const d = features + 1;
  const w = new Float64Array(d);
  const z = new Float64Array(d);
  for (let step = 0; step < NEWTON_STEPS; step++) {
    const gradient = new Float64Array(d);
    const hessian = new Float64Array(d * d);
    for (let r = 0; r < rows; r++) {
      if ((r & 1023) === 0) pace();
      z[0] = 1;
      for (let f = 0; f < features; f++) z[f + 1] = (x[r * features + f]! - mean[f]!) / scale[f]!;
      let s = 0;
      for (let j = 0; j < d; j++) s += w[j]! * z[j]!;
      const p = 1 / (1 + Math.exp(-s));
      const residual = p - y[r]!;
      const curvature = Math.max(p * (1 - p), 1e-9);
      for (let j = 0; j < d; j++) {
        gradient[j]! += residual * z[j]!;
        for (let k = j; k < d; k++) hessian[j * d + k]! += curvature * z[j]! * z[k]!;
      }
    }
    if (newtonStep(w, gradient, hessian, d, PENALTY_PER_ROW * rows) < 1e-6) break;
  }
  return { mean, scale, coef: [...w.subarray(1)], bias: w[0]! };
}

function standardise(x: Float64Array, rows: number, features: number): { mean: number[]; scale: number[] } {
  const mean = new Array<number>(features).fill(0);
  const scale = new Array<number>(features).fill(0);
  for (let r = 0; r < rows; r++) for (let f = 0; f < features; f++) mean[f]! += x[r * features + f]! / rows;
  for (let r = 0; r < rows; r++) for (let f = 0; f < features; f++) scale[f]! += (x[r * features + f]! - mean[f]!) ** 2 / rows;
  for (let f = 0; f < features; f++) scale[f] = Math.sqrt(scale[f]!) || 1;
  return { mean, scale };
}

/** One penalised Newton step on `w` (the bias, first, is not penalised); returns the largest change. */
function newtonStep(w: Float64Array, gradient: Float64Array, hessian: Float64Array, d: number, penalty: number): number {
  for (let j = 1; j < d; j++) {
    gradient[j]! += penalty * w[j]!;
    hessian[j * d + j]! += penalty;
  }
  for (let j = 0; j < d; j++) hessian[j * d + j]! += 1e-6;
  for (let j = 0; j < d; j++) for (let k = 0; k < j; k++) hessian[j * d + k] = hessian[k * d + j]!;
  invertSpdInPlace(hessian, d);
  let change = 0;
  for (let j = 0; j < d; j++) {
    let delta = 0;
    for (let k = 0; k < d; k++) delta += hessian[j * d + k]! * gradient[k]!;
    w[j]! -= delta;
    change = Math.max(change, Math.abs(delta));
  }
  return change;
}
