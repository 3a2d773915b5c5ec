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

/**
 * One shopper's touched items, oldest first touch first, in parallel typed arrays: item number, strongest
 * touch, the minute of the first and the last touch, how many purchases and the minutes of the first
 * and last of them (0 when never bought). Times are whole minutes since 1970 (fits an Int32 for 4,000
 * years): the learned ranking reads when a shopper met an item, `buy-again` how often they buy it.
 */
interface Row {
  items: Int32Array<ArrayBuffer>;
  weights: Float32Array<ArrayBuffer>;
  first: Int32Array<ArrayBuffer>;
  last: Int32Array<ArrayBuffer>;
  buys: Int32Array<ArrayBuffer>;
  firstBuy: Int32Array<ArrayBuffer>;
  lastBuy: Int32Array<ArrayBuffer>;
  length: number;
}

/** A row as readers see it: views of its used part. */
export interface RowView {
  items: Int32Array;
  weights: Float32Array;
  first: Int32Array;
  last: Int32Array;
  buys: Int32Array;
  firstBuy: Int32Array;
  lastBuy: Int32Array;
}

const ROW_ARRAYS = ['first', 'last', 'buys', 'firstBuy', 'lastBuy'] as const;
export const MINUTE_MS = 60_000;

export interface InteractionSnapshot {
  /** Item numbers are indexes into this list (a copy: later items may be appended to the live one). */
  itemIds: string[];
  /** Rows of profiles with at least one touched item, in CSR form. */
  offsets: Int32Array;
  items: Int32Array;
  weights: Float32Array;
  /** Minute of each entry's first touch (the learned ranking splits a shopper's history by it). */
  first: Int32Array;
}

/** Item chunks and the totals are JSON; rows are binary (per profile: id, length, item numbers, weights). */
export type InteractionChunk = { items: string[]; recent: Array<number | null>; bought: number[]; buyers: number[]; repeaters: number[] } | { purchases: number; touches: number } | Buffer;

export class Interactions {
  private readonly itemNumbers = new Map<string, number>();
  readonly itemIds: string[] = [];
  private readonly rows = new Map<string, Row>();
  /** Per item number: log2 of the recency-weighted touches (weighted as TOUCH_WEIGHTS), and the all-time purchase count. */
  private recent: Float64Array<ArrayBuffer> = new Float64Array(1024);
  private bought: Float64Array<ArrayBuffer> = new Float64Array(1024);
  /** Per item number: shoppers who bought it, and those who bought it more than once (`buy-again`'s prior). */
  private buyers: Float64Array<ArrayBuffer> = new Float64Array(1024);
  private repeaters: Float64Array<ArrayBuffer> = new Float64Array(1024);
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
    if (row === undefined) this.rows.set(profileId, (row = emptyRow(4)));
    const minute = Math.floor(at / MINUTE_MS);
    const before = touch(row, item, weight, minute, minute, weight >= BOUGHT ? 1 : 0, minute, minute);
    if (weight >= BOUGHT && before === 0) this.buyers[item]! += 1;
    if (weight >= BOUGHT && before === 1) this.repeaters[item]! += 1;
  }

  /**
   * The share of the item's buyers who bought it again, shrunk toward 1 in 5 for items few bought:
   * (repeat buyers + 1) / (buyers + 5). Some products are bought once (a gift), others over and over.
   */
  repeatRate(item: number): number {
    return ((this.repeaters[item] ?? 0) + 1) / ((this.buyers[item] ?? 0) + 5);
  }

  /** The shopper's touched items (item number → strongest weight, times, purchases), oldest first touch first. */
  row(profileId: string): RowView | undefined {
    const row = this.rows.get(profileId);
    if (row === undefined) return undefined;
    const n = row.length;
    return { items: row.items.subarray(0, n), weights: row.weights.subarray(0, n), first: row.first.subarray(0, n), last: row.last.subarray(0, n), buys: row.buys.subarray(0, n), firstBuy: row.firstBuy.subarray(0, n), lastBuy: row.lastBuy.subarray(0, n) };
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
    for (let i = 0; i < moved.length; i++) touch(target, moved.items[i]!, moved.weights[i]!, moved.first[i]!, moved.last[i]!, moved.buys[i]!, moved.firstBuy[i]!, moved.lastBuy[i]!);
  }

  /** Erasure: the profile's row goes; item totals it added stay, as counts without a person. */
  forget(profileId: string): void {
    this.rows.delete(profileId);
  }

  /** Saved-state chunks (activity snapshots, not the model's `snapshot`): item ids, item totals, rows. */
  *save(): Iterable<InteractionChunk> {
    for (let at = 0; at < this.itemIds.length; at += 5_000) {
      const end = Math.min(at + 5_000, this.itemIds.length);
      yield { items: this.itemIds.slice(at, end), recent: [...this.recent.subarray(at, end)], bought: [...this.bought.subarray(at, end)], buyers: [...this.buyers.subarray(at, end)], repeaters: [...this.repeaters.subarray(at, end)] };
    }
    const out = new ChunkWriter();
    for (const [profileId, row] of this.rows) {
      out.string(profileId);
      out.u32(row.length);
      out.array(row.items.subarray(0, row.length));
      out.array(row.weights.subarray(0, row.length));
      for (const name of ROW_ARRAYS) out.array(row[name].subarray(0, row.length));
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
        const next = <T extends Int32Array | Float32Array>(array: T): T => {
          used += 4 * length;
          read.array(array);
          return array;
        };
        const int = () => next(new Int32Array(shared, used, length));
        const row: Row = { items: int(), weights: next(new Float32Array(shared, used, length)), first: int(), last: int(), buys: int(), firstBuy: int(), lastBuy: int(), length };
        if (length > 0) this.rows.set(profileId, row);
      }
    } else if ('items' in chunk) {
      chunk.items.forEach((itemId, i) => {
        const item = this.intern(itemId);
        // JSON writes an item never weighted (log2 of nothing, -Infinity) as null.
        this.recent[item] = chunk.recent[i] ?? -Infinity;
        this.bought[item] = chunk.bought[i]!;
        this.buyers[item] = chunk.buyers[i]!;
        this.repeaters[item] = chunk.repeaters[i]!;
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
    const first = new Int32Array(nnz);
    let r = 0;
    let at = 0;
    for (const row of this.rows.values()) {
      items.set(row.items.subarray(0, row.length), at);
      weights.set(row.weights.subarray(0, row.length), at);
      first.set(row.first.subarray(0, row.length), at);
      at += row.length;
      offsets[++r] = at;
    }
    return { itemIds: [...this.itemIds], offsets, items, weights, first };
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
      this.buyers = grow(this.buyers);
      this.repeaters = grow(this.repeaters);
    }
    this.recent[n] = -Infinity;
    return n;
  }
}

function emptyRow(capacity: number): Row {
  const int = () => new Int32Array(capacity);
  return { items: int(), weights: new Float32Array(capacity), first: int(), last: int(), buys: int(), firstBuy: int(), lastBuy: int(), length: 0 };
}

/**
 * Folds touches of `item` into the row: the strongest weight, the earliest first and latest last
 * touch, purchases added up (their first and last minutes; 0 is "none"). Activities may arrive out of
 * time order (imports, merges), so every time is a min or a max.
 */
function touch(row: Row, item: number, weight: number, first: number, last: number, buys: number, firstBuy: number, lastBuy: number): number {
  for (let i = row.length - 1; i >= 0; i--) {
    if (row.items[i] !== item) continue;
    const before = row.buys[i]!;
    if (weight > row.weights[i]!) row.weights[i] = weight;
    if (first < row.first[i]!) row.first[i] = first;
    if (last > row.last[i]!) row.last[i] = last;
    if (buys > 0) {
      row.firstBuy[i] = row.buys[i] === 0 ? firstBuy : Math.min(row.firstBuy[i]!, firstBuy);
      row.lastBuy[i] = Math.max(row.lastBuy[i]!, lastBuy);
      row.buys[i]! += buys;
    }
    return before;
  }
  if (row.length === row.items.length) {
    const bigger = emptyRow(row.length * 2);
    bigger.items.set(row.items);
    bigger.weights.set(row.weights);
    for (const name of ROW_ARRAYS) bigger[name].set(row[name]);
    Object.assign(row, { ...bigger, length: row.length });
  }
  const at = row.length;
  row.items[at] = item;
  row.weights[at] = weight;
  row.first[at] = first;
  row.last[at] = last;
  row.buys[at] = buys;
  row.firstBuy[at] = buys > 0 ? firstBuy : 0;
  row.lastBuy[at] = buys > 0 ? lastBuy : 0;
  row.length++;
  return 0;
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
