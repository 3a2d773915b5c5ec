/**
 * The learned ranking stage as requests read it: reorders `personalized`'s best candidates by the
 * logistic regression trained in the worker (ranker-training.ts), and can say why: each feature's
 * value and its contribution to the score. Also the bytes of its file, `models/<tenant>.ranker`: a
 * JSON header line (format, version, tenant, weights), a JSON line of item ids, then the item stats as
 * little-endian typed arrays. A file that does not read back exactly, is of another version or names
 * another tenant is refused with a reason, and the caller retrains.
 */
import { FEATURE_COUNT, featuresOf, RANKER_FEATURES, type CandidateFacts, type ItemStats, type ShopperFacts } from './ranker-features.js';
import type { RankerWeights } from './ranker-training.js';
import { arrayReader, bytes, readFileHead } from './item-model.js';

export const RANKER_FORMAT = 'discovery-kit/ranker';
/** 3: buyer depth, buyer depth gap and title words (23 features; the buyer stats and the title vocabulary in the file). */
export const RANKER_VERSION = 3;

export interface StoredRanker {
  tenantId: string;
  trainedAt: number;
  weights: RankerWeights;
  itemIds: string[];
  stats: ItemStats;
}

export interface Explanation {
  /** The regression's score (log-odds) and, per feature, its value and contribution. */
  score: number;
  features: Array<{ name: string; value: number; contribution: number }>;
  /** Where the EASE and popularity blend had put it (1 = first). */
  blendRank?: number;
}

export class LearnedRanker {
  readonly weights: RankerWeights;
  readonly trainedAt: number;
  private readonly stats: ItemStats;
  private readonly vector = new Float64Array(FEATURE_COUNT);
  /** The last shopper asked about, and their facts as of the training's minute (one request scores 100 candidates). */
  private lastShopper: ShopperFacts | undefined;
  private lastTimed: ShopperFacts | undefined;
  /** Title word → its number in the stats' vocabulary; a catalog entry's words as those numbers, kept per words array. */
  private readonly wordNumbers: Map<string, number>;
  private readonly numbered = new WeakMap<readonly string[], Int32Array>();

  constructor(stored: StoredRanker, liveCount: number, numberOf: (itemId: string) => number | undefined) {
    this.weights = stored.weights;
    this.trainedAt = stored.trainedAt;
    const s = stored.stats;
    const size = Math.max(liveCount, 1);
    const stats: ItemStats = { ...s, short: new Float32Array(size).fill(-Infinity), long: new Float32Array(size).fill(-Infinity), shoppers: new Float32Array(size), born: new Int32Array(size), weekOffsets: new Int32Array(size + 1), buyers: new Float32Array(size), buyerDepth: new Float32Array(size) };
    // Weekly touches are renumbered too: each live item's run of weeks is copied where its number says.
    const weeks: number[] = [];
    const counts: number[] = [];
    const runOf = new Int32Array(size).fill(-1);
    stored.itemIds.forEach((id, i) => {
      const n = numberOf(id);
      if (n === undefined || n >= size) return;
      stats.short[n] = s.short[i]!;
      stats.long[n] = s.long[i]!;
      stats.shoppers[n] = s.shoppers[i]!;
      stats.born[n] = s.born[i]!;
      stats.buyers[n] = s.buyers[i]!;
      stats.buyerDepth[n] = s.buyerDepth[i]!;
      runOf[n] = i;
    });
    for (let n = 0; n < size; n++) {
      const i = runOf[n]!;
      if (i >= 0) for (let k = s.weekOffsets[i]!; k < s.weekOffsets[i + 1]!; k++) {
        weeks.push(s.weeks[k]!);
        counts.push(s.weekCounts[k]!);
      }
      stats.weekOffsets[n + 1] = weeks.length;
    }
    stats.weeks = Int32Array.from(weeks);
    stats.weekCounts = Float32Array.from(counts);
    this.stats = stats;
    this.wordNumbers = new Map(s.vocabulary.map((word, w) => [word, w]));
  }

  /** A title's words (ranker-features.ts `titleWords`) as numbers of the training's vocabulary; words it never saw are left out. */
  wordsOf(words: readonly string[] | undefined): Int32Array | undefined {
    if (words === undefined) return undefined;
    let numbers = this.numbered.get(words);
    if (numbers === undefined) {
      const known: number[] = [];
      for (const word of words) {
        const w = this.wordNumbers.get(word);
        if (w !== undefined) known.push(w);
      }
      this.numbered.set(words, (numbers = Int32Array.from(known)));
    }
    return numbers;
  }

  /** The regression's score of one candidate (higher ranks first). */
  score(candidate: CandidateFacts, shopper: ShopperFacts): number {
    featuresOf(candidate, this.withTime(shopper), this.stats, this.vector);
    const { mean, scale, coef, bias } = this.weights;
    let s = bias;
    for (let f = 0; f < FEATURE_COUNT; f++) s += (coef[f]! * (this.vector[f]! - mean[f]!)) / scale[f]!;
    return s;
  }

  explain(candidate: CandidateFacts, shopper: ShopperFacts): Explanation {
    const score = this.score(candidate, shopper);
    const { mean, scale, coef } = this.weights;
    const features = RANKER_FEATURES.map((name, f) => ({ name, value: round(this.vector[f]!), contribution: round((coef[f]! * (this.vector[f]! - mean[f]!)) / scale[f]!) }));
    return { score: round(score), features };
  }

  /** Item ages count to the request's minute; popularity stays as trained (a common factor would change no order). */
  private withTime(shopper: ShopperFacts): ShopperFacts {
    if (shopper.at >= this.stats.at) return shopper;
    if (shopper !== this.lastShopper) {
      this.lastShopper = shopper;
      this.lastTimed = { ...shopper, at: this.stats.at };
    }
    return this.lastTimed!;
  }
}

export function encodeRanker(ranker: StoredRanker): Buffer {
  const { short, long, shoppers, born, weekOffsets, weeks, weekCounts, weekTotals, buyers, buyerDepth, vocabulary, idf, ...scalars } = ranker.stats;
  const header = { format: RANKER_FORMAT, version: RANKER_VERSION, tenant: ranker.tenantId, trainedAt: ranker.trainedAt, weights: ranker.weights, stats: scalars, weekTotals: [...weekTotals], items: ranker.itemIds.length, weeks: weeks.length, vocabulary };
  const parts = [short, long, shoppers, born, weekOffsets, weeks, weekCounts, buyers, buyerDepth, idf].map(bytes);
  return Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n${JSON.stringify(ranker.itemIds)}\n`), ...parts]);
}

/** The stored ranker, or why its bytes cannot be used for this tenant. */
export function decodeRanker(data: Buffer, tenantId: string): StoredRanker | { problem: string } {
  try {
    const head = readFileHead(data, { kind: 'ranker', format: RANKER_FORMAT, version: RANKER_VERSION, tenantId });
    if ('problem' in head) return head;
    const { header, itemIds, bodyStart } = head;
    const weights = header.weights as RankerWeights | undefined;
    const stats = header.stats as Record<string, unknown> | undefined;
    const count = Array.isArray(itemIds) ? itemIds.length : -1;
    const numbers = (v: unknown, length: number) => Array.isArray(v) && v.length === length && v.every((n) => typeof n === 'number' && Number.isFinite(n));
    const weekCount = Number(header.weeks);
    const totals = header.weekTotals;
    const vocabulary = header.vocabulary;
    if (count !== header.items || weights === undefined || stats === undefined || !Number.isInteger(weekCount) || !Array.isArray(totals) || !Array.isArray(vocabulary) || !vocabulary.every((w) => typeof w === 'string')) return { problem: 'damaged ranker header' };
    if (!numbers(weights.coef, FEATURE_COUNT) || !numbers(weights.mean, FEATURE_COUNT) || !numbers(weights.scale, FEATURE_COUNT) || !Number.isFinite(weights.bias)) return { problem: 'damaged ranker weights' };
    const expected = bodyStart + 4 * (6 * count + count + 1 + 2 * weekCount + vocabulary.length);
    if (data.length !== expected) return { problem: `truncated ranker file (${data.length} bytes, expected ${expected})` };
    const read = arrayReader(data, bodyStart);
    const take = (length = count) => read(length);
    const short = new Float32Array(take());
    const long = new Float32Array(take());
    const shoppers = new Float32Array(take());
    const born = new Int32Array(take());
    const weekOffsets = new Int32Array(take(count + 1));
    const weeks = new Int32Array(take(weekCount));
    const weekCounts = new Float32Array(take(weekCount));
    const buyers = new Float32Array(take());
    const buyerDepth = new Float32Array(take());
    const idf = new Float32Array(take(vocabulary.length));
    if (weekOffsets[count] !== weekCount || weekOffsets.some((o, i) => o < 0 || o > weekCount || (i > 0 && o < weekOffsets[i - 1]!))) return { problem: 'damaged ranker item stats' };
    const weekTotals = new Map<number, number>();
    for (const pair of totals as unknown[]) {
      if (!Array.isArray(pair) || typeof pair[0] !== 'number' || typeof pair[1] !== 'number') return { problem: 'damaged ranker header' };
      weekTotals.set(pair[0], pair[1]);
    }
    const scalar = (name: string) => (typeof stats[name] === 'number' ? (stats[name] as number) : -Infinity);
    return {
      tenantId,
      trainedAt: Number(header.trainedAt),
      weights: { ...weights, features: [...RANKER_FEATURES] },
      itemIds: (itemIds as unknown[]).map(String),
      stats: { short, long, shoppers, born, weekOffsets, weeks, weekCounts, weekTotals, buyers, buyerDepth, vocabulary: vocabulary as string[], idf, maxShort: scalar('maxShort'), maxLong: scalar('maxLong'), maxShoppers: scalar('maxShoppers'), at: scalar('at') },
    };
  } catch (error) {
    return { problem: `damaged ranker file (${(error as Error).message})` };
  }
}


function round(n: number): number {
  return Math.round(n * 1e4) / 1e4;
}

/**
 * The ranker that goes with a stored item model: the one the same training stored (the same
 * `trainedAt`), or none. A ranker file of another training (one stored before a training that made
 * none) is not used; its absence is a problem (the caller retrains) only when the model's training made one.
 */
export function rankerOfModel(model: { info: { trainedAt: number; ranker?: boolean } }, ranker: StoredRanker | { problem: string } | undefined): { ranker?: StoredRanker; problem?: string } {
  if (ranker === undefined || model.info.ranker === false) return {};
  if ('problem' in ranker) return { problem: ranker.problem };
  return ranker.trainedAt === model.info.trainedAt || model.info.ranker === undefined ? { ranker } : { problem: 'the ranker file is of another training' };
}
