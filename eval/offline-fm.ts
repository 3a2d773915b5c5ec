/**
 * A factorisation machine on top of the learned ranking's regression, for eval/offline-ranker.ts
 * (OFFLINE_FM): the regression's log-odds plus the pairwise interactions of the standardised features,
 * each pair weighed by the dot product of the two features' factor vectors (Rendle's FM, order 2),
 * fitted by stochastic gradient descent on the logistic loss with an L2 penalty on the factors. The
 * third model kind the issue names beside the regression and gradient-boosted trees (offline-trees.ts).
 */

export interface FmOptions {
  /** Factors per feature. */
  k: number;
  learningRate: number;
  epochs: number;
  /** L2 penalty on the factors, per step. */
  penalty: number;
  seed: number;
}

export const DEFAULT_FM_OPTIONS: FmOptions = { k: 4, learningRate: 0.002, epochs: 3, penalty: 0.001, seed: 7 };

export interface Fm {
  k: number;
  features: number;
  /** Feature-major: the factors of feature f are factors[f * k … f * k + k). */
  factors: Float64Array;
}

/** The interaction term of one standardised row (`sums` receives each factor's weighted sum, for the gradient). */
export function fmInteraction(fm: Fm, z: ArrayLike<number>, sums = new Float64Array(fm.k)): number {
  let out = 0;
  for (let q = 0; q < fm.k; q++) {
    let sum = 0;
    let squares = 0;
    for (let f = 0; f < fm.features; f++) {
      const t = fm.factors[f * fm.k + q]! * z[f]!;
      sum += t;
      squares += t * t;
    }
    sums[q] = sum;
    out += 0.5 * (sum * sum - squares);
  }
  return out;
}

/**
 * Fits the factors to rows `x` (already standardised, `features` per row) with labels `y`, on top of
 * `offset` (the regression's log-odds per row): only what the regression leaves is learned.
 */
export function fitFm(x: Float64Array, y: Uint8Array, features: number, offset: Float64Array, options: FmOptions): Fm {
  let state = options.seed >>> 0 || 1;
  const random = () => {
    // xorshift32: a seeded sequence, so a run is reproducible.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
  const fm: Fm = { k: options.k, features, factors: Float64Array.from({ length: features * options.k }, () => (random() - 0.5) * 0.02) };
  const rows = y.length;
  const order = Int32Array.from({ length: rows }, (_, r) => r);
  const sums = new Float64Array(options.k);
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    for (let r = rows - 1; r > 0; r--) {
      const j = Math.floor(random() * (r + 1));
      [order[r], order[j]] = [order[j]!, order[r]!];
    }
    for (const r of order) {
      const z = x.subarray(r * features, (r + 1) * features);
      const gradient = 1 / (1 + Math.exp(-(offset[r]! + fmInteraction(fm, z, sums)))) - y[r]!;
      for (let f = 0; f < features; f++) {
        const value = z[f]!;
        if (value === 0) continue;
        for (let q = 0; q < fm.k; q++) {
          const i = f * fm.k + q;
          fm.factors[i]! -= options.learningRate * (gradient * value * (sums[q]! - fm.factors[i]! * value) + options.penalty * fm.factors[i]!);
        }
      }
    }
  }
  return fm;
}
