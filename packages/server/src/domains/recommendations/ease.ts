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
 * Inverts a symmetric positive definite matrix (a Gram matrix plus λI) in place with the sweep
 * operator, updating only the upper triangle: half the work of Gauss-Jordan, no pivoting needed.
 * Sweeping every pivot leaves -A⁻¹; the sign is flipped and the lower triangle mirrored at the end.
 */
export function invertInPlace(a: Float64Array, n: number): void {
  const column = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const pivot = a[k * n + k]!;
    for (let i = 0; i < k; i++) column[i] = a[i * n + k]!;
    for (let i = k; i < n; i++) column[i] = a[k * n + i]!;
    for (let i = 0; i < n; i++) {
      if (i === k) continue;
      const factor = column[i]! / pivot;
      if (factor === 0) continue;
      const row = i * n;
      // j runs over the upper triangle (j ≥ i), around the pivot's column.
      for (let j = i; j < k; j++) a[row + j]! -= factor * column[j]!;
      for (let j = Math.max(i, k + 1); j < n; j++) a[row + j]! -= factor * column[j]!;
    }
    for (let i = 0; i < k; i++) a[i * n + k] = column[i]! / pivot;
    for (let i = k + 1; i < n; i++) a[k * n + i] = column[i]! / pivot;
    a[k * n + k] = -1 / pivot;
  }
  for (let i = 0; i < n; i++) {
    for (let j = i; j < n; j++) {
      const value = -a[i * n + j]!;
      a[i * n + j] = value;
      a[j * n + i] = value;
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
