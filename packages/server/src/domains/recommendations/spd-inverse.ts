/**
 * The inverse of a symmetric positive definite matrix (EASE's XᵀX + λI), in place, through its
 * Cholesky factor: A = L·Lᵀ, Z = L⁻ᵀ, A⁻¹ = Z·Zᵀ. Every step is written as dot products of two
 * contiguous row pieces of the row-major array, two rows against two at a time, so each element
 * read from memory serves two multiply-adds and the inner loops stream through the cache. The
 * sweep operator it replaces touched the whole n² matrix once per pivot: at n = 2,500 (50 MB, far
 * beyond any cache) that was memory-bound and about five times slower for the same flop count.
 *
 * Storage while it runs: L in the strict lower triangle with its diagonal in a side array, Z in the
 * upper triangle and diagonal; the result is then written into the lower triangle (L is no longer
 * needed) and mirrored.
 */

import { pace } from '../../platform/cpu-pacing.js';

/** Throws when the matrix is not positive definite (a Gram matrix plus λ > 0 always is). */
export function invertSpdInPlace(a: Float64Array, n: number): void {
  const diagonal = cholesky(a, n);
  invertFactor(a, n, diagonal);
  multiplyFactor(a, n);
}

/** Row i of L: L[i][j] = (A[i][j] − L[i][0..j)·L[j][0..j)) / L[j][j], two rows i and two rows j at once. */
function cholesky(a: Float64Array, n: number): Float64Array {
  const diagonal = new Float64Array(n);
  let i = 0;
  for (; i + 1 < n; i += 2) {
    pace();
    const r0 = i * n;
    const r1 = r0 + n;
    let j = 0;
    for (; j + 1 < i; j += 2) {
      const s0 = j * n;
      const s1 = s0 + n;
      let a00 = 0, a01 = 0, a10 = 0, a11 = 0;
      for (let k = 0; k < j; k++) {
        const x0 = a[r0 + k]!, x1 = a[r1 + k]!, y0 = a[s0 + k]!, y1 = a[s1 + k]!;
        a00 += x0 * y0;
        a01 += x0 * y1;
        a10 += x1 * y0;
        a11 += x1 * y1;
      }
      // Column j is known for rows i and i+1 before column j+1 needs it.
      const l0j = (a[r0 + j]! - a00) / diagonal[j]!;
      const l1j = (a[r1 + j]! - a10) / diagonal[j]!;
      a[r0 + j] = l0j;
      a[r1 + j] = l1j;
      const yj = a[s1 + j]!;
      a[r0 + j + 1] = (a[r0 + j + 1]! - a01 - l0j * yj) / diagonal[j + 1]!;
      a[r1 + j + 1] = (a[r1 + j + 1]! - a11 - l1j * yj) / diagonal[j + 1]!;
    }
    for (; j < i; j++) {
      const l0j = (a[r0 + j]! - dot(a, r0, j * n, j)) / diagonal[j]!;
      a[r0 + j] = l0j;
      a[r1 + j] = (a[r1 + j]! - dot(a, r1, j * n, j)) / diagonal[j]!;
    }
    diagonal[i] = root(a[r0 + i]! - dot(a, r0, r0, i), i);
    a[r1 + i] = (a[r1 + i]! - dot(a, r1, r0, i)) / diagonal[i]!;
    diagonal[i + 1] = root(a[r1 + i + 1]! - dot(a, r1, r1, i + 1), i + 1);
  }
  for (; i < n; i++) {
    const r = i * n;
    for (let j = 0; j < i; j++) a[r + j] = (a[r + j]! - dot(a, r, j * n, j)) / diagonal[j]!;
    diagonal[i] = root(a[r + i]! - dot(a, r, r, i), i);
  }
  return diagonal;
}

/**
 * Z = L⁻ᵀ, upper triangular: Z[j][j] = 1/L[j][j] and, for j < i, Z[j][i] = −Z[j][j..i)·L[i][j..i) / L[i][i]
 * (row j of Z against row i of L, both contiguous). Two rows j share each read of row i.
 */
function invertFactor(a: Float64Array, n: number, diagonal: Float64Array): void {
  for (let j = 0; j < n; j++) a[j * n + j] = 1 / diagonal[j]!;
  for (let i = 1; i < n; i++) {
    pace();
    const r = i * n;
    const inverse = 1 / diagonal[i]!;
    let j = 0;
    for (; j + 1 < i; j += 2) {
      const z0 = j * n;
      const z1 = z0 + n;
      // Row j+1 of Z starts one column later; the first term is row j's alone.
      let s0 = a[z0 + j]! * a[r + j]!;
      let s1 = 0;
      for (let k = j + 1; k < i; k++) {
        const l = a[r + k]!;
        s0 += a[z0 + k]! * l;
        s1 += a[z1 + k]! * l;
      }
      a[z0 + i] = -s0 * inverse;
      a[z1 + i] = -s1 * inverse;
    }
    for (; j < i; j++) a[j * n + i] = -dot(a, j * n + j, r + j, i - j) * inverse;
  }
}

/** A⁻¹[b][c] = Z[b][c..n)·Z[c][c..n) for b ≤ c, written to the lower triangle (b ≥ c side) and mirrored. */
function multiplyFactor(a: Float64Array, n: number): void {
  const diagonal = new Float64Array(n);
  for (let b = 0; b < n; b++) diagonal[b] = dot(a, b * n + b, b * n + b, n - b);
  // Row c of the result (below the diagonal) needs Z's rows b < c from column c on; Z lives above the diagonal, untouched.
  for (let c = 1; c < n; c++) {
    pace();
    const zc = c * n + c;
    const width = n - c;
    let b = 0;
    for (; b + 1 < c; b += 2) {
      const z0 = b * n + c;
      const z1 = z0 + n;
      let s0 = 0, s1 = 0;
      for (let k = 0; k < width; k++) {
        const z = a[zc + k]!;
        s0 += a[z0 + k]! * z;
        s1 += a[z1 + k]! * z;
      }
      a[c * n + b] = s0;
      a[c * n + b + 1] = s1;
    }
    for (; b < c; b++) a[c * n + b] = dot(a, b * n + c, zc, width);
  }
  for (let b = 0; b < n; b++) {
    a[b * n + b] = diagonal[b]!;
    for (let c = b + 1; c < n; c++) a[b * n + c] = a[c * n + b]!;
  }
}

function dot(a: Float64Array, x: number, y: number, length: number): number {
  let sum = 0;
  for (let k = 0; k < length; k++) sum += a[x + k]! * a[y + k]!;
  return sum;
}

function root(value: number, index: number): number {
  if (!(value > 0)) throw new Error(`matrix is not positive definite (pivot ${index})`);
  return Math.sqrt(value);
}
