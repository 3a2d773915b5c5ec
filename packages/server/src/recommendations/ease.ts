/**
 * EASE (Steck, "Embarrassingly Shallow Autoencoders for Sparse Data", WWW 2019): item-to-item
 * weights B = I - P·diag(1/diag(P)), P = (XᵀX + λI)⁻¹, learned from every shopper's touches. A
 * dense inverse is cubic in the item count, so the model covers the `maxItems` most-touched items
 * (the ones with enough data to learn from); the long tail is served by co-occurrence at query time.
 * Each row keeps only its `neighbours` strongest positive weights: queries then cost
 * history × neighbours, and the file stays small. Pure computation: runs in the training worker.
 */

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

export function trainEase(rows: TrainingRows, options: EaseOptions): SparseWeights {
  const chosen = chooseItems(rows, options);
  const n = chosen.length;
  const column = new Int32Array(rows.itemCount).fill(-1);
  chosen.forEach((item, c) => (column[item] = c));
  const gram = gramMatrix(rows, column, n);
  for (let i = 0; i < n; i++) gram[i * n + i]! += options.lambda;
  invertInPlace(gram, n);
  return sparsify(gram, n, chosen, options.neighbours);
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

/** XᵀX over the chosen items, dense and row-major. */
function gramMatrix(rows: TrainingRows, column: Int32Array, n: number): Float64Array {
  const gram = new Float64Array(n * n);
  const cols: number[] = [];
  const ws: number[] = [];
  for (let r = 0; r + 1 < rows.offsets.length; r++) {
    cols.length = 0;
    ws.length = 0;
    for (let k = rows.offsets[r]!; k < rows.offsets[r + 1]!; k++) {
      const c = column[rows.items[k]!]!;
      if (c < 0) continue;
      cols.push(c);
      ws.push(rows.weights[k]!);
    }
    for (let a = 0; a < cols.length; a++) {
      const base = cols[a]! * n;
      const wa = ws[a]!;
      for (let b = 0; b < cols.length; b++) gram[base + cols[b]!]! += wa * ws[b]!;
    }
  }
  return gram;
}

/**
 * Gauss-Jordan inversion in place. The matrix is symmetric positive definite (a Gram matrix plus
 * λI), so no pivoting is needed; rows are contiguous, so the inner loop streams memory.
 */
export function invertInPlace(a: Float64Array, n: number): void {
  for (let k = 0; k < n; k++) {
    const rowK = k * n;
    const pivot = a[rowK + k]!;
    a[rowK + k] = 1;
    const inverse = 1 / pivot;
    for (let j = 0; j < n; j++) a[rowK + j]! *= inverse;
    for (let i = 0; i < n; i++) {
      if (i === k) continue;
      const rowI = i * n;
      const factor = a[rowI + k]!;
      if (factor === 0) continue;
      a[rowI + k] = 0;
      for (let j = 0; j < n; j++) a[rowI + j]! -= factor * a[rowK + j]!;
    }
  }
}

/**
 * B[i][j] = -P[i][j] / P[j][j] (i ≠ j): a shopper who touched i makes j likelier by B[i][j]. Keeps
 * the `neighbours` largest positive weights of each row.
 */
function sparsify(p: Float64Array, n: number, items: Int32Array, neighbours: number): SparseWeights {
  const rowOffsets = new Int32Array(n + 1);
  const columns: number[] = [];
  const values: number[] = [];
  const candidates: Array<{ j: number; w: number }> = [];
  for (let i = 0; i < n; i++) {
    candidates.length = 0;
    const row = i * n;
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      const w = -p[row + j]! / p[j * n + j]!;
      if (w > 0) candidates.push({ j, w });
    }
    candidates.sort((x, y) => y.w - x.w);
    for (const { j, w } of candidates.slice(0, neighbours)) {
      columns.push(items[j]!);
      values.push(w);
    }
    rowOffsets[i + 1] = columns.length;
  }
  return { rowItems: items, rowOffsets, columns: Int32Array.from(columns), values: Float32Array.from(values) };
}
