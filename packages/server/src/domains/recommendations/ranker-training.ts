/**
 * Trains the learned ranking stage on the shop's own history, in the training worker right after the
 * item model (pure computation, no download). Examples: shoppers' latest visits (`visitsPerShopper`
 * of them, at most `maxExamples`, spread evenly); each one's history before the visit is replayed
 * through the model and popularity as they stood then, the blend's best `candidates` items are the
 * candidates, and the items the visit touched for the first time are the positives; a logistic
 * regression (ranker-fit.ts) on the features of ranker-features.ts learns which candidates those were.
 *
 * Why logistic regression: a few hundred thousand examples of 23 features fit by Newton's method in
 * about a second, the answer is a weighted sum whose parts are the explanation the admin preview
 * shows, and the model is 24 numbers. Gradient-boosted trees (eval/offline-trees.ts) were fitted on
 * these same examples: they won on the evaluation's held-out orders but lost on two of three validation
 * splits carved from the training orders (docs/recommendations.md, "Gradient-boosted trees, tried").
 *
 * The examples are scored by an item model trained without their visits (a second solve in the same
 * training), as the served model has never seen the visit it is asked about.
 */
import type { SparseWeights, TrainingTimings } from './ease.js';
import { pace } from '../../platform/cpu-pacing.js';
import { fitLogistic } from './ranker-fit.js';
import { kthLargest } from './top-k.js';
import { DAY_MINUTES, FEATURE_COUNT, featuresOf, LONG_HALF_LIFE_DAYS, log2Add, RANKER_FEATURES, SHORT_HALF_LIFE_DAYS, shopperFacts, VISIT_MINUTES, WEEK_MINUTES, type CandidateFacts, type ItemStats } from './ranker-features.js';

export interface RankerOptions {
  /** Examples (a shopper's visit) at most, spread evenly over all there are. */
  maxExamples: number;
  /**
   * Each shopper's latest visits that become examples. 1: on the validation split 3 visits (three times
   * the examples, a longer training) gave the same HR@10 (0.475 against 0.474); every visit did worse.
   */
  visitsPerShopper: number;
  /** Candidates ranked per request (the blend's best). */
  candidates: number;
  /** The blend's popularity weight (as `personalized`'s default). */
  popularityWeight: number;
  /** Also return the examples' features, labels and shopper of each row (eval/offline-ranker.ts fits other models on them). */
  keepExamples?: boolean;
}

export const DEFAULT_RANKER_OPTIONS: RankerOptions = { maxExamples: 3000, visitsPerShopper: 1, candidates: 100, popularityWeight: 0.6 };

export interface RankerRows {
  offsets: Int32Array;
  items: Int32Array;
  weights: Float32Array;
  first: Int32Array;
  itemCount: number;
}

/** Per item number of the snapshot: its family code (-1: none) and price (0: unknown). */
export interface ItemFacts {
  families: Int32Array;
  prices: Float32Array;
  /** Each item's title words (ranker-features.ts `titleWords`) as numbers in `vocabulary`, CSR by item number; absent: none known. */
  titles?: ItemTitles;
}

export interface ItemTitles {
  offsets: Int32Array;
  words: Int32Array;
  vocabulary: string[];
}

export interface RankerWeights {
  features: string[];
  mean: number[];
  scale: number[];
  coef: number[];
  bias: number;
  examples: number;
  positives: number;
  shoppers: number;
}

interface Example {
  row: number;
  cut: number;
  end: number;
}

/** A visit starts a new example when the shopper's last first touches are this far after the ones before. */
const VISIT_GAP_MINUTES = VISIT_MINUTES;
const POPULAR_POOL = 300;
/** A touch at or above this weight is a purchase (interactions.ts BOUGHT). */
const BOUGHT = 1;

/**
 * `trainModel` trains the item model the examples are scored with: on every row without the examples'
 * latest visits, so that no positive is already in the weights that score it (trained on everything,
 * the model's score looked far more telling in training than on any next visit, and the ranking lost).
 */
export function trainRanker(
  rows: RankerRows,
  trainModel: (rows: RankerRows) => SparseWeights,
  facts: ItemFacts,
  options: RankerOptions,
  progress?: { timings: TrainingTimings; sampleMemory: () => void },
): { ranker: RankerWeights | undefined; stats: ItemStats; examples?: { x: Float64Array; y: Uint8Array; groups: Int32Array } } {
  let mark = performance.now();
  const lap = (phase: 'rankerModelMs' | 'rankerExamplesMs' | 'rankerFitMs') => {
    const now = performance.now();
    if (progress !== undefined) {
      progress.timings[phase] = Math.round(now - mark);
      progress.sampleMemory();
    }
    mark = now;
  };
  const n = rows.itemCount;
  const entries = rows.items.length;
  const end = entries === 0 ? 0 : rows.first.reduce((a, b) => Math.max(a, b), 0);
  const stats: ItemStats = { short: new Float32Array(n).fill(-Infinity), long: new Float32Array(n).fill(-Infinity), shoppers: new Float32Array(n), born: new Int32Array(n), maxShort: -Infinity, maxLong: -Infinity, maxShoppers: 0, at: end, ...weeklyTouches(rows), buyers: new Float32Array(n), buyerDepth: new Float32Array(n), ...titleStats(facts.titles, n) };
  // Each entry's shopper's log1p(history length), added to the item's buyer depth when the sweep passes a purchase.
  const entryDepth = new Float32Array(entries);
  for (let r = 0; r + 1 < rows.offsets.length; r++) for (let k = rows.offsets[r]!; k < rows.offsets[r + 1]!; k++) entryDepth[k] = Math.log1p(rows.offsets[r + 1]! - rows.offsets[r]!);
  const titles = facts.titles;
  const wordsOf = (item: number): Int32Array | undefined => (titles === undefined || item + 1 >= titles.offsets.length ? undefined : titles.words.subarray(titles.offsets[item]!, titles.offsets[item + 1]!));
  // Every entry (a shopper's first touch of an item) in time order: the stats are swept forward through them.
  const order = new Int32Array(entries);
  for (let k = 0; k < entries; k++) order[k] = k;
  order.sort((a, b) => rows.first[a]! - rows.first[b]!);
  const entryItem = rows.items;
  let swept = 0;
  const sweepTo = (minute: number) => {
    while (swept < entries && rows.first[order[swept]!]! < minute) {
      const k = order[swept++]!;
      const item = entryItem[k]!;
      const at = rows.first[k]!;
      const w = Math.log2(rows.weights[k]!);
      stats.short[item] = log2Add(stats.short[item]!, w + (at - end) / (SHORT_HALF_LIFE_DAYS * DAY_MINUTES));
      stats.long[item] = log2Add(stats.long[item]!, w + (at - end) / (LONG_HALF_LIFE_DAYS * DAY_MINUTES));
      stats.shoppers[item]! += 1;
      // Buyers as they stood at the sweep's minute: a candidate's buyers never include the example's own (later) purchase.
      if (rows.weights[k]! >= BOUGHT) {
        stats.buyers[item]! += 1;
        stats.buyerDepth[item]! += entryDepth[k]!;
      }
      if (stats.born[item] === 0 || at < stats.born[item]!) stats.born[item] = Math.max(1, at);
      stats.maxShort = Math.max(stats.maxShort, stats.short[item]!);
      stats.maxLong = Math.max(stats.maxLong, stats.long[item]!);
      stats.maxShoppers = Math.max(stats.maxShoppers, stats.shoppers[item]!);
    }
    stats.at = minute;
  };

  const examples = chooseExamples(rows, options.maxExamples, options.visitsPerShopper);
  const ease = trainModel(withoutVisits(rows, examples));
  lap('rankerModelMs');
  const rowOf = new Int32Array(n).fill(-1);
  ease.rowItems.forEach((item, r) => (rowOf[item] = r));
  const board = new Float64Array(n);
  const touched: number[] = [];
  const inHistory = new Uint8Array(n);
  const positive = new Uint8Array(n);
  let pool: number[] = [];
  let poolAt = -Infinity;
  const x: number[] = [];
  const y: number[] = [];
  const groups: number[] = [];
  let exampleCount = 0;
  const vector = new Float64Array(FEATURE_COUNT);
  let positives = 0;
  for (const { row, cut, end: visitEnd } of examples) {
    pace();
    sweepTo(cut);
    if (cut - poolAt >= DAY_MINUTES) {
      pool = popularPool(stats);
      poolAt = cut;
    }
    const from = rows.offsets[row]!;
    const to = rows.offsets[row + 1]!;
    const history: number[] = [];
    const ownWeek = new Map<number, number>();
    for (let k = from; k < to; k++) {
      ownWeek.set(entryItem[k]!, Math.floor(rows.first[k]! / WEEK_MINUTES));
      if (rows.first[k]! < cut) history.push(k);
      else if (rows.first[k]! < visitEnd) positive[entryItem[k]!] = 1;
    }
    // The latest 300 history items feed the model, as in `personalized`.
    history.sort((a, b) => rows.first[a]! - rows.first[b]!);
    const seeds = history.slice(-300);
    for (const k of seeds) {
      const item = entryItem[k]!;
      if (rows.weights[k]! >= BOUGHT) inHistory[item] = 1;
      const r = rowOf[item]!;
      if (r < 0) continue;
      for (let j = ease.rowOffsets[r]!; j < ease.rowOffsets[r + 1]!; j++) {
        const c = ease.columns[j]!;
        if (board[c] === 0) touched.push(c);
        board[c]! += rows.weights[k]! * ease.values[j]!;
      }
    }
    let best = 0;
    for (const c of touched) best = Math.max(best, board[c]!);
    // The model's score from the last visit before the cut alone (what the shopper was after lately).
    const lastActive = seeds.length === 0 ? 0 : rows.first[seeds[seeds.length - 1]!]!;
    const recent = new Map<number, number>();
    for (const k of seeds) {
      const r = rowOf[entryItem[k]!]!;
      if (r < 0 || rows.first[k]! < lastActive - VISIT_MINUTES) continue;
      for (let j = ease.rowOffsets[r]!; j < ease.rowOffsets[r + 1]!; j++) recent.set(ease.columns[j]!, (recent.get(ease.columns[j]!) ?? 0) + rows.weights[k]! * ease.values[j]!);
    }
    let recentBest = 0;
    for (const v of recent.values()) recentBest = Math.max(recentBest, v);
    const blend = new Map<number, { model: number; score: number }>();
    const popularity = (item: number) => 2 ** (stats.short[item]! - stats.maxShort);
    const weight = best > 0 ? options.popularityWeight : 1;
    if (best > 0) for (const c of touched) blend.set(c, { model: board[c]! / best, score: board[c]! / best + weight * popularity(c) });
    for (const c of pool) if (!blend.has(c)) blend.set(c, { model: 0, score: weight * popularity(c) });
    const ranked = [...blend].filter(([item, b]) => b.score > 0 && inHistory[item] === 0).sort((a, b) => b[1].score - a[1].score || a[0] - b[0]).slice(0, options.candidates);
    if (ranked.some(([item]) => positive[item] === 1)) {
      const facts2 = shopperFacts({ count: seeds.length, item: (k) => entryItem[seeds[k]!]!, last: (k) => rows.first[seeds[k]!]! }, (item) => familyCode(facts, item), (item) => facts.prices[item]!, cut, wordsOf);
      exampleCount++;
      ranked.forEach(([item, b], rank) => {
        const lastVisit = recentBest > 0 ? (recent.get(item) ?? 0) / recentBest : 0;
        const candidate: CandidateFacts = { rank, model: b.model, lastVisit, item, family: familyCode(facts, item), price: facts.prices[item]!, ownWeek: ownWeek.get(item), words: wordsOf(item) };
        featuresOf(candidate, facts2, stats, vector);
        for (const v of vector) x.push(v);
        y.push(positive[item]!);
        groups.push(exampleCount);
        positives += positive[item]!;
      });
    }
    for (const c of touched) board[c] = 0;
    touched.length = 0;
    for (const k of history) inHistory[entryItem[k]!] = 0;
    for (let k = from; k < to; k++) positive[entryItem[k]!] = 0;
  }
  sweepTo(end + 1);
  stats.at = end;
  lap('rankerExamplesMs');
  if (positives < 10 || positives === y.length) return { ranker: undefined, stats };
  const xs = Float64Array.from(x);
  const ys = Uint8Array.from(y);
  const fitted = fitLogistic(xs, ys, FEATURE_COUNT);
  lap('rankerFitMs');
  const kept = options.keepExamples === true ? { examples: { x: xs, y: ys, groups: Int32Array.from(groups) } } : {};
  return { ranker: { features: [...RANKER_FEATURES], ...fitted, examples: y.length, positives, shoppers: new Set(examples.map((e) => e.row)).size }, stats, ...kept };
}

/** Each title word's inverse document frequency, log((titled items + 1) / (items holding it + 1)). */
function titleStats(titles: ItemTitles | undefined, itemCount: number): Pick<ItemStats, 'vocabulary' | 'idf'> {
  if (titles === undefined) return { vocabulary: [], idf: new Float32Array(0) };
  const df = new Float64Array(titles.vocabulary.length);
  let titled = 0;
  for (let i = 0; i < itemCount && i + 1 < titles.offsets.length; i++) {
    if (titles.offsets[i + 1]! > titles.offsets[i]!) titled++;
    for (let k = titles.offsets[i]!; k < titles.offsets[i + 1]!; k++) df[titles.words[k]!]! += 1;
  }
  return { vocabulary: titles.vocabulary, idf: Float32Array.from(df, (d) => Math.log((titled + 1) / (d + 1))) };
}

/** Per item, its shoppers' first touches by week (CSR), and all first touches by week. */
function weeklyTouches(rows: RankerRows): Pick<ItemStats, 'weekOffsets' | 'weeks' | 'weekCounts' | 'weekTotals'> {
  const entries = rows.items.length;
  let minWeek = Infinity;
  for (let k = 0; k < entries; k++) minWeek = Math.min(minWeek, Math.floor(rows.first[k]! / WEEK_MINUTES));
  const span = 2 ** 21;
  const keys = new Float64Array(entries);
  for (let k = 0; k < entries; k++) keys[k] = rows.items[k]! * span + Math.min(span - 1, Math.floor(rows.first[k]! / WEEK_MINUTES) - minWeek);
  keys.sort();
  const weekOffsets = new Int32Array(rows.itemCount + 1);
  const weeks: number[] = [];
  const counts: number[] = [];
  const weekTotals = new Map<number, number>();
  for (let k = 0; k < entries; k++) {
    const item = Math.floor(keys[k]! / span);
    const week = (keys[k]! % span) + minWeek;
    weekTotals.set(week, (weekTotals.get(week) ?? 0) + 1);
    if (k > 0 && keys[k] === keys[k - 1]) {
      counts[counts.length - 1]! += 1;
      continue;
    }
    weeks.push(week);
    counts.push(1);
    weekOffsets[item + 1] = weeks.length;
  }
  for (let i = 1; i <= rows.itemCount; i++) weekOffsets[i] = Math.max(weekOffsets[i]!, weekOffsets[i - 1]!);
  return { weekOffsets, weeks: Int32Array.from(weeks), weekCounts: Float32Array.from(counts), weekTotals };
}

function familyCode(facts: ItemFacts, item: number): number | undefined {
  const code = facts.families[item] ?? -1;
  return code < 0 ? undefined : code;
}

/** The rows with each example's visit (its shopper's entries first touched at or after its earliest cut) left out. */
function withoutVisits(rows: RankerRows, examples: readonly Example[]): RankerRows {
  const cutOf = new Map<number, number>();
  for (const e of examples) cutOf.set(e.row, Math.min(e.cut, cutOf.get(e.row) ?? Infinity));
  const offsets = new Int32Array(rows.offsets.length);
  const keep: number[] = [];
  for (let r = 0; r + 1 < rows.offsets.length; r++) {
    const cut = cutOf.get(r) ?? Infinity;
    for (let k = rows.offsets[r]!; k < rows.offsets[r + 1]!; k++) if (rows.first[k]! < cut) keep.push(k);
    offsets[r + 1] = keep.length;
  }
  const pick = <T extends Int32Array | Float32Array>(from: T, into: T): T => {
    keep.forEach((k, at) => (into[at] = from[k]!));
    return into;
  };
  return { offsets, items: pick(rows.items, new Int32Array(keep.length)), weights: pick(rows.weights, new Float32Array(keep.length)), first: pick(rows.first, new Int32Array(keep.length)), itemCount: rows.itemCount };
}

/**
 * Examples: each shopper's latest `visits` visits that have history before them and something new in
 * them (a visit: the items first touched within VISIT_MINUTES of the latest of them), at most `limit`,
 * in the order of their cut (the minute the visit began). `end` is where the visit's positives stop.
 */
function chooseExamples(rows: RankerRows, limit: number, visits: number): Example[] {
  const chosen: Example[] = [];
  const minutes: number[] = [];
  for (let r = 0; r + 1 < rows.offsets.length; r++) {
    const from = rows.offsets[r]!;
    const to = rows.offsets[r + 1]!;
    if (to - from < 2) continue;
    minutes.length = 0;
    for (let k = from; k < to; k++) minutes.push(rows.first[k]!);
    minutes.sort((a, b) => a - b);
    // Walk back visit by visit: a visit ends at its latest first touch and reaches VISIT_MINUTES back.
    let end = Infinity;
    let top = minutes.length - 1;
    for (let v = 0; v < visits && top > 0; v++) {
      const cut = minutes[top]! - VISIT_GAP_MINUTES;
      let before = top;
      while (before >= 0 && minutes[before]! >= cut) before--;
      if (before < 0) break;
      chosen.push({ row: r, cut, end });
      end = cut;
      top = before;
    }
  }
  // An even spread over all of them (every k-th), not the latest: the next visits a model is asked
  // about come after histories of every age.
  const step = Math.max(1, chosen.length / limit);
  const spread: Example[] = [];
  for (let at = 0; at < chosen.length && spread.length < limit; at += step) spread.push(chosen[Math.floor(at)]!);
  return spread.sort((a, b) => a.cut - b.cut || a.row - b.row);
}

/** The items of highest short-term popularity at this point of the sweep. */
function popularPool(stats: ItemStats): number[] {
  const values = new Float64Array(stats.short.length);
  let count = 0;
  for (const v of stats.short) if (v > -Infinity) values[count++] = v;
  const threshold = count > POPULAR_POOL ? kthLargest(values, count, POPULAR_POOL) : -Infinity;
  const items: number[] = [];
  for (let i = 0; i < stats.short.length; i++) if (stats.short[i]! > -Infinity && stats.short[i]! >= threshold) items.push(i);
  return items.sort((a, b) => stats.short[b]! - stats.short[a]! || a - b).slice(0, POPULAR_POOL);
}
