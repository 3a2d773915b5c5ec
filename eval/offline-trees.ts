/**
 * Gradient-boosted regression trees, tried against the learned ranking stage's logistic regression
 * offline (eval/offline-ranker.ts, OFFLINE_TREES) and not adopted: see docs/recommendations.md, "the
 * learned ranking stage". Logistic loss, each tree fitted to
 * the loss's gradients and curvatures by Newton leaf values, on features pre-binned at their quantiles
 * (histogram splits: a node's best split is read off per-bin sums, and the larger child's sums are the
 * parent's minus the smaller's). Trees are grown level by level to a fixed depth; a split needs
 * `minLeaf` rows on each side. Every tree sees a fixed share of the rows (`subsample`), chosen by a
 * seeded generator so the same examples give the same model. `pairwise` swaps the loss for RankNet's
 * (every bought candidate against every other of the same shopper, LambdaMART without the NDCG
 * weights); `init` starts from given scores (the regression's), so the trees fit what it leaves.
 *
 * Explanations (Saabas): every node keeps the value it would have as a leaf, so a tree's answer is its
 * root's value plus, along the path taken, each split's change (child − parent), which is credited to
 * the split's feature. The bias plus the features' credits is exactly the score.
 */

import { seededRandom } from './seeded-shuffle.js';

export interface TreeOptions {
  /** Trees fitted one after another. */
  rounds: number;
  depth: number;
  /** Each tree's values are scaled by this (shrinkage). */
  learningRate: number;
  /** Rows on each side of a split, at least. */
  minLeaf: number;
  /** Share of rows each tree is fitted on (1: all). */
  subsample: number;
  /** L2 penalty on leaf values (added to the curvature sum). */
  lambda: number;
  /** Bins per feature (quantiles of its values), at most 256. */
  bins: number;
  /** `pointwise`: logistic loss per candidate; `pairwise`: logistic loss on every bought/not-bought pair of one shopper's candidates (RankNet). */
  objective?: 'pointwise' | 'pairwise';
  /** Features never split on (their positions). */
  exclude?: number[];
}

export const DEFAULT_TREE_OPTIONS: TreeOptions = { rounds: 150, depth: 4, learningRate: 0.1, minLeaf: 200, subsample: 0.7, lambda: 10, bins: 64 };

/**
 * One tree as parallel arrays over its nodes (node 0 the root): a node with `feature` −1 is a leaf;
 * otherwise rows with value ≤ `threshold` go to `left`, the others to `right`. `value` is each node's
 * contribution to the log-odds had it been a leaf (shrinkage included).
 */
export interface Tree {
  feature: number[];
  threshold: number[];
  left: number[];
  right: number[];
  value: number[];
}

export interface TreeEnsemble {
  /** Log-odds of the base rate, before any tree. */
  base: number;
  trees: Tree[];
}

/** Is this candidate bought? `x` holds one row of `features` numbers per candidate. */
export function fitTrees(x: Float64Array, y: Uint8Array, features: number, options: TreeOptions = DEFAULT_TREE_OPTIONS, groups?: Int32Array, init?: Float64Array): TreeEnsemble {
  const rows = y.length;
  const { codes, cuts } = binFeatures(x, rows, features, Math.min(256, options.bins));
  let positives = 0;
  for (let r = 0; r < rows; r++) positives += y[r]!;
  const rate = Math.min(1 - 1e-6, Math.max(1e-6, positives / Math.max(rows, 1)));
  const base = init !== undefined ? 0 : Math.log(rate / (1 - rate));
  const score = init !== undefined ? Float64Array.from(init) : new Float64Array(rows).fill(base);
  const starts: number[] = [];
  if (groups !== undefined) for (let r = 0; r < rows; r++) if (r === 0 || groups[r] !== groups[r - 1]) starts.push(r);
  starts.push(rows);
  const gradient = new Float64Array(rows);
  const curvature = new Float64Array(rows);
  const all = new Int32Array(rows);
  // Seeded, so a training gives the same trees for the same examples.
  const random = seededRandom(rows * 31 + features);
  const trees: Tree[] = [];
  for (let round = 0; round < options.rounds; round++) {
    if (options.objective === 'pairwise' && groups !== undefined) pairwiseGradients(score, y, starts, gradient, curvature);
    else
      for (let r = 0; r < rows; r++) {
        const p = 1 / (1 + Math.exp(-score[r]!));
        gradient[r] = p - y[r]!;
        curvature[r] = Math.max(p * (1 - p), 1e-9);
      }
    let count = 0;
    for (let r = 0; r < rows; r++) if (options.subsample >= 1 || random() < options.subsample) all[count++] = r;
    const { tree, bin } = growTree(all.subarray(0, count), codes, cuts, gradient, curvature, features, options);
    trees.push(tree);
    for (let r = 0; r < rows; r++) {
      let node = 0;
      while (tree.feature[node]! >= 0) node = codes[tree.feature[node]! * rows + r]! <= bin[node]! ? tree.left[node]! : tree.right[node]!;
      score[r]! += tree.value[node]!;
    }
  }
  return { base, trees };
}

/** RankNet's gradients: every bought candidate against every other candidate of the same shopper. */
function pairwiseGradients(score: Float64Array, y: Uint8Array, starts: number[], gradient: Float64Array, curvature: Float64Array): void {
  gradient.fill(0);
  curvature.fill(1e-9);
  for (let s = 0; s + 1 < starts.length; s++) {
    for (let i = starts[s]!; i < starts[s + 1]!; i++) {
      if (y[i] !== 1) continue;
      for (let j = starts[s]!; j < starts[s + 1]!; j++) {
        if (y[j] === 1) continue;
        const p = 1 / (1 + Math.exp(score[i]! - score[j]!));
        gradient[i]! -= p;
        gradient[j]! += p;
        const c = p * (1 - p);
        curvature[i]! += c;
        curvature[j]! += c;
      }
    }
  }
}

/** The ensemble's log-odds for one feature vector. */
export function treeScore(model: TreeEnsemble, vector: ArrayLike<number>): number {
  let s = model.base;
  for (const tree of model.trees) {
    let node = 0;
    while (tree.feature[node]! >= 0) node = vector[tree.feature[node]!]! <= tree.threshold[node]! ? tree.left[node]! : tree.right[node]!;
    s += tree.value[node]!;
  }
  return s;
}

/** Per feature, its credit for the score (Saabas); returns the bias (base and every root's value). */
export function treeContributions(model: TreeEnsemble, vector: ArrayLike<number>, out: Float64Array): number {
  out.fill(0);
  let bias = model.base;
  for (const tree of model.trees) {
    let node = 0;
    bias += tree.value[0]!;
    while (tree.feature[node]! >= 0) {
      const next = vector[tree.feature[node]!]! <= tree.threshold[node]! ? tree.left[node]! : tree.right[node]!;
      out[tree.feature[node]!]! += tree.value[next]! - tree.value[node]!;
      node = next;
    }
  }
  return bias;
}

/** Each feature's values as bin codes (column by column), and each bin's upper cut (a value threshold). */
function binFeatures(x: Float64Array, rows: number, features: number, bins: number): { codes: Uint8Array; cuts: Float64Array[] } {
  const codes = new Uint8Array(rows * features);
  const cuts: Float64Array[] = [];
  const column = new Float64Array(rows);
  for (let f = 0; f < features; f++) {
    for (let r = 0; r < rows; r++) column[r] = x[r * features + f]!;
    const sorted = Float64Array.from(column).sort();
    const edges: number[] = [];
    for (let b = 1; b < bins; b++) {
      const v = sorted[Math.min(rows - 1, Math.floor((b * rows) / bins))]!;
      // A cut between two distinct values: rows equal to the cut go left, as at request time.
      if (rows > 0 && v < sorted[rows - 1]! && (edges.length === 0 || v > edges[edges.length - 1]!)) edges.push(v);
    }
    const featureCuts = Float64Array.from(edges);
    cuts.push(featureCuts);
    for (let r = 0; r < rows; r++) codes[f * rows + r] = binOf(featureCuts, column[r]!);
  }
  return { codes, cuts };
}

/** The first bin whose cut is ≥ value (the number of cuts below it). */
function binOf(cuts: Float64Array, value: number): number {
  let lo = 0;
  let hi = cuts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cuts[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

interface Pending {
  node: number;
  start: number;
  end: number;
  level: number;
  histogram: Float64Array | undefined;
}

/** One tree, and per node the bin its split cuts at (codes ≤ it go left). */
function growTree(sample: Int32Array, codes: Uint8Array, cuts: Float64Array[], gradient: Float64Array, curvature: Float64Array, features: number, options: TreeOptions): { tree: Tree; bin: number[] } {
  const rows = gradient.length;
  const bins = 257;
  const tree: Tree = { feature: [], threshold: [], left: [], right: [], value: [] };
  const bin: number[] = [];
  const index = Int32Array.from(sample);
  const scratch = new Int32Array(index.length);
  const newNode = (g: number, h: number) => {
    tree.feature.push(-1);
    tree.threshold.push(0);
    tree.left.push(-1);
    tree.right.push(-1);
    tree.value.push((-options.learningRate * g) / (h + options.lambda));
    bin.push(0);
    return tree.feature.length - 1;
  };
  const build = (start: number, end: number) => {
    // Per feature and bin: gradient sum, curvature sum, rows.
    const h = new Float64Array(features * bins * 3);
    for (let f = 0; f < features; f++) {
      const base = f * rows;
      const at = f * bins * 3;
      for (let k = start; k < end; k++) {
        const r = index[k]!;
        const slot = at + codes[base + r]! * 3;
        h[slot]! += gradient[r]!;
        h[slot + 1]! += curvature[r]!;
        h[slot + 2]! += 1;
      }
    }
    return h;
  };
  let g0 = 0;
  let h0 = 0;
  for (const r of index) {
    g0 += gradient[r]!;
    h0 += curvature[r]!;
  }
  const queue: Pending[] = [{ node: newNode(g0, h0), start: 0, end: index.length, level: 0, histogram: undefined }];
  const sums = [[g0, h0]];
  while (queue.length > 0) {
    const task = queue.shift()!;
    const { node, start, end, level } = task;
    if (level >= options.depth || end - start < 2 * options.minLeaf) continue;
    const histogram = task.histogram ?? build(start, end);
    const [gAll, hAll] = sums[node]!;
    const parentGain = (gAll! * gAll!) / (hAll! + options.lambda);
    let bestGain = 1e-9;
    let bestFeature = -1;
    let bestBin = 0;
    for (let f = 0; f < features; f++) {
      if (options.exclude?.includes(f) === true) continue;
      const at = f * bins * 3;
      let gl = 0;
      let hl = 0;
      let nl = 0;
      const last = cuts[f]!.length;
      for (let b = 0; b < last; b++) {
        gl += histogram[at + b * 3]!;
        hl += histogram[at + b * 3 + 1]!;
        nl += histogram[at + b * 3 + 2]!;
        if (nl < options.minLeaf) continue;
        if (end - start - nl < options.minLeaf) break;
        const gr = gAll! - gl;
        const hr = hAll! - hl;
        const gain = (gl * gl) / (hl + options.lambda) + (gr * gr) / (hr + options.lambda) - parentGain;
        if (gain > bestGain) {
          bestGain = gain;
          bestFeature = f;
          bestBin = b;
        }
      }
    }
    if (bestFeature < 0) continue;
    // Partition the node's rows: bin ≤ bestBin to the left.
    const base = bestFeature * rows;
    let l = start;
    let rCount = 0;
    let gl = 0;
    let hl = 0;
    for (let k = start; k < end; k++) {
      const r = index[k]!;
      if (codes[base + r]! <= bestBin) {
        index[l++] = r;
        gl += gradient[r]!;
        hl += curvature[r]!;
      } else scratch[rCount++] = r;
    }
    index.set(scratch.subarray(0, rCount), l);
    const left = newNode(gl, hl);
    const right = newNode(gAll! - gl, hAll! - hl);
    sums[left] = [gl, hl];
    sums[right] = [gAll! - gl, hAll! - hl];
    tree.feature[node] = bestFeature;
    tree.threshold[node] = cuts[bestFeature]![bestBin]!;
    bin[node] = bestBin;
    tree.left[node] = left;
    tree.right[node] = right;
    if (level + 1 >= options.depth) continue;
    // The smaller child's histogram is built; the larger's is the parent's minus it.
    const leftSmaller = l - start <= end - l;
    const small = leftSmaller ? build(start, l) : build(l, end);
    const large = histogram;
    for (let k = 0; k < large.length; k++) large[k]! -= small[k]!;
    queue.push({ node: left, start, end: l, level: level + 1, histogram: leftSmaller ? small : large });
    queue.push({ node: right, start: l, end, level: level + 1, histogram: leftSmaller ? large : small });
  }
  return { tree, bin };
}

