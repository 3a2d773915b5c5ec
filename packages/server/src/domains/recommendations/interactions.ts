/**
 * Who touched which product, compactly: interned item and profile ids, and per profile a small
 * growable pair of typed arrays (item number, strongest touch). The recommendation model trains from
 * a snapshot of it, and `personalized` reads a shopper's live row at query time, so an activity
 * counts in the very next response even before any retraining.
 */
import { ChunkReader, ChunkWriter } from '../tracking/snapshot-encoding.js';
import { kthLargest } from './top-k.js';

/** How much one touch says about wanting an item: a purchase is the unit; a view says a little. */
export const TOUCH_WEIGHTS: Readonly<Record<string, number>> = {
  buy: 1,
  purchase: 1,
  'add-to-cart': 0.6,
  like: 0.5,
  'click-on-reco': 0.3,
  click: 0.3,
  view: 0.3,
};
/** A row entry at this weight or above is an item the shopper bought. */
export const BOUGHT = 1;

/**
 * Half-life of the recency weight of recent popularity (days). On the evaluation's next orders a short
 * one predicted best (HR@10 with EASE: 45 days 0.394, 20 days 0.401, 10 days 0.403 at blend weight 0.2,
 * 0.418 at 0.3; docs/recommendations.md): what sells this fortnight is what new baskets hold.
 */
const RECENT_HALF_LIFE_DAYS = 10;
const HALF_LIFE_MS = RECENT_HALF_LIFE_DAYS * 24 * 60 * 60 * 1000;
/**
 * Recency weights grow as 2^(t / half-life) from here, so relative weights never need rescaling. At a
 * 10-day half-life the weights themselves would pass the largest double within 30 years: the sums are
 * kept as base-2 logarithms instead (log2 Σ w·2^e), which never overflow.
 */
const RECENCY_EPOCH = Date.UTC(2020, 0, 1);

interface Row {
  items: Int32Array<ArrayBuffer>;
  weights: Float32Array<ArrayBuffer>;
  length: number;
}

export interface InteractionSnapshot {
  /** Item numbers are indexes into this list (a copy: later items may be appended to the live one). */
  itemIds: string[];
  /** Rows of profiles with at least one touched item, in CSR form. */
  offsets: Int32Array;
  items: Int32Array;
  weights: Float32Array;
}

/** Item chunks and the totals are JSON; rows are binary (per profile: id, length, item numbers, weights). */
export type InteractionChunk = { items: string[]; recent: Array<number | null>; bought: number[] } | { purchases: number; touches: number } | Buffer;

export class Interactions {
  private readonly itemNumbers = new Map<string, number>();
  readonly itemIds: string[] = [];
  private readonly rows = new Map<string, Row>();
  /** Per item number: log2 of the recency-weighted touches (weighted as TOUCH_WEIGHTS), and the all-time purchase count. */
  private recent: Float64Array<ArrayBuffer> = new Float64Array(1024);
  private bought: Float64Array<ArrayBuffer> = new Float64Array(1024);
  private keptTop: { limit: number; touches: number; items: number[] } | undefined;
  /** Purchases and touches folded so far: the trainer retrains when these have grown enough. */
  purchases = 0;
  touches = 0;

  add(profileId: string, verb: string, itemId: string, at: number): void {
    const weight = TOUCH_WEIGHTS[verb];
    if (weight === undefined) return;
    const item = this.intern(itemId);
    this.touches++;
    if (weight >= BOUGHT) {
      this.purchases++;
      this.bought[item]! += 1;
    }
    this.recent[item] = log2Add(this.recent[item]!, Math.log2(weight) + (at - RECENCY_EPOCH) / HALF_LIFE_MS);
    let row = this.rows.get(profileId);
    if (row === undefined) this.rows.set(profileId, (row = { items: new Int32Array(4), weights: new Float32Array(4), length: 0 }));
    setMax(row, item, weight);
  }

  /** The shopper's touched items (item number → strongest weight), oldest first. */
  row(profileId: string): { items: Int32Array; weights: Float32Array } | undefined {
    const row = this.rows.get(profileId);
    return row === undefined ? undefined : { items: row.items.subarray(0, row.length), weights: row.weights.subarray(0, row.length) };
  }

  /** Item ids the shopper bought. */
  boughtBy(profileId: string): Set<string> {
    const out = new Set<string>();
    const row = this.rows.get(profileId);
    if (row === undefined) return out;
    for (let i = 0; i < row.length; i++) if (row.weights[i]! >= BOUGHT) out.add(this.itemIds[row.items[i]!]!);
    return out;
  }

  numberOf(itemId: string): number | undefined {
    return this.itemNumbers.get(itemId);
  }

  /** Recency-weighted touches of `item` as a share of those of `reference` (0 for an item never touched). */
  recentRatio(item: number, reference: number): number {
    const log = item < this.itemIds.length ? this.recent[item]! : -Infinity;
    return 2 ** (log - this.recent[reference]!);
  }

  purchaseCount(item: number): number {
    return this.bought[item] ?? 0;
  }

  /**
   * Item numbers by recency-weighted touches, best first. Ranking every item costs tens of milliseconds
   * at 100,000 items, and `personalized` asks on every request: the list is kept until the touches grow
   * by more than 1% (any change while there are fewer than 100), which moves a blend weight very little.
   */
  topRecent(limit: number): number[] {
    const kept = this.keptTop;
    if (kept !== undefined && kept.limit >= limit && this.touches - kept.touches <= Math.floor(kept.touches / 100)) return kept.items.slice(0, limit);
    // Only the items at or above the limit-th weight are sorted (a comparator sort of every touched
    // item, 100,000 of them, was tens of milliseconds every 1 % of new touches).
    const weights = new Float64Array(this.itemIds.length);
    let n = 0;
    for (let i = 0; i < this.itemIds.length; i++) if (this.recent[i]! > -Infinity) weights[n++] = this.recent[i]!;
    const threshold = n > limit ? kthLargest(weights, n, limit) : -Infinity;
    const order: number[] = [];
    for (let i = 0; i < this.itemIds.length; i++) if (this.recent[i]! > -Infinity && this.recent[i]! >= threshold) order.push(i);
    order.sort((a, b) => this.recent[b]! - this.recent[a]! || a - b);
    const items = order.slice(0, limit);
    this.keptTop = { limit, touches: this.touches, items };
    return items.slice();
  }

  /** Follows a profile merge: the anonymous profile's touches join the nominative one's. */
  merge(from: string, into: string): void {
    const moved = this.rows.get(from);
    if (moved === undefined) return;
    this.rows.delete(from);
    let target = this.rows.get(into);
    if (target === undefined) {
      this.rows.set(into, moved);
      return;
    }
    for (let i = 0; i < moved.length; i++) setMax(target, moved.items[i]!, moved.weights[i]!);
  }

  /** Erasure: the profile's row goes; item totals it added stay, as counts without a person. */
  forget(profileId: string): void {
    this.rows.delete(profileId);
  }

  /** Saved-state chunks (activity snapshots, not the model's `snapshot`): item ids, item totals, rows. */
  *save(): Iterable<InteractionChunk> {
    for (let at = 0; at < this.itemIds.length; at += 5_000) {
      const end = Math.min(at + 5_000, this.itemIds.length);
      yield { items: this.itemIds.slice(at, end), recent: [...this.recent.subarray(at, end)], bought: [...this.bought.subarray(at, end)] };
    }
    const out = new ChunkWriter();
    for (const [profileId, row] of this.rows) {
      out.string(profileId);
      out.u32(row.length);
      out.array(row.items.subarray(0, row.length));
      out.array(row.weights.subarray(0, row.length));
      if (out.length >= 64 * 1024) yield out.take();
    }
    if (out.length > 0) yield out.take();
    yield { purchases: this.purchases, touches: this.touches };
  }

  restore(chunk: InteractionChunk): void {
    if (chunk instanceof Uint8Array) {
      // Rows are views into one buffer per chunk: a typed array of its own per row costs an allocation
      // each (seconds at 200,000 shoppers); a row that grows past its view moves to arrays of its own.
      const shared = new ArrayBuffer(chunk.length);
      let used = 0;
      const read = new ChunkReader(chunk);
      while (!read.done) {
        const profileId = read.string();
        const length = read.u32();
        const items = new Int32Array(shared, used, length);
        const weights = new Float32Array(shared, used + 4 * length, length);
        used += 8 * length;
        read.array(items);
        read.array(weights);
        if (length > 0) this.rows.set(profileId, { items, weights, length });
      }
    } else if ('items' in chunk) {
      chunk.items.forEach((itemId, i) => {
        const item = this.intern(itemId);
        // JSON writes an item never weighted (log2 of nothing, -Infinity) as null.
        this.recent[item] = chunk.recent[i] ?? -Infinity;
        this.bought[item] = chunk.bought[i]!;
      });
    } else {
      this.purchases = chunk.purchases;
      this.touches = chunk.touches;
    }
  }

  snapshot(): InteractionSnapshot {
    let nnz = 0;
    for (const row of this.rows.values()) nnz += row.length;
    const offsets = new Int32Array(this.rows.size + 1);
    const items = new Int32Array(nnz);
    const weights = new Float32Array(nnz);
    let r = 0;
    let at = 0;
    for (const row of this.rows.values()) {
      items.set(row.items.subarray(0, row.length), at);
      weights.set(row.weights.subarray(0, row.length), at);
      at += row.length;
      offsets[++r] = at;
    }
    return { itemIds: [...this.itemIds], offsets, items, weights };
  }

  private intern(itemId: string): number {
    let n = this.itemNumbers.get(itemId);
    if (n !== undefined) return n;
    n = this.itemIds.length;
    this.itemNumbers.set(itemId, n);
    this.itemIds.push(itemId);
    if (n >= this.recent.length) {
      this.recent = grow(this.recent);
      this.bought = grow(this.bought);
    }
    this.recent[n] = -Infinity;
    return n;
  }
}

function setMax(row: Row, item: number, weight: number): void {
  for (let i = row.length - 1; i >= 0; i--) {
    if (row.items[i] !== item) continue;
    if (weight > row.weights[i]!) row.weights[i] = weight;
    return;
  }
  if (row.length === row.items.length) {
    const items = new Int32Array(row.length * 2);
    items.set(row.items);
    const weights = new Float32Array(row.length * 2);
    weights.set(row.weights);
    row.items = items;
    row.weights = weights;
  }
  row.items[row.length] = item;
  row.weights[row.length] = weight;
  row.length++;
}

/** log2(2^a + 2^b), without leaving the logarithms. */
function log2Add(a: number, b: number): number {
  const high = Math.max(a, b);
  if (high === -Infinity) return high;
  return high + Math.log2(1 + 2 ** (Math.min(a, b) - high));
}

function grow(array: Float64Array<ArrayBuffer>): Float64Array<ArrayBuffer> {
  const bigger = new Float64Array(array.length * 2);
  bigger.set(array);
  return bigger;
}
