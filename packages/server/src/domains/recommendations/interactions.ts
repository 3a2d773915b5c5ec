/**
 * Who touched which product, compactly: interned item and profile ids, and per profile one small
 * growable typed array (item numbers, strongest touches, times and purchases end to end). The
 * recommendation model trains from a snapshot of it, and `personalized` reads a shopper's live row at
 * query time, so an activity counts in the very next response even before any retraining.
 */
import { ChunkReader, ChunkWriter } from '../tracking/snapshot-encoding.js';
import { kthLargest } from './top-k.js';
import { RowPages, SEGMENTS, type Block } from './row-pages.js';

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
interface Row extends Block {
  /**
   * The seven arrays end to end, seven times the capacity from `base` in `data` (item, weight as
   * float32 bits, first, last, buys, firstBuy, lastBuy): a block of a shared page for most shoppers
   * (row-pages.ts), an array of its own for a heavy one. Seven arrays each cost about 1.3 KB a shopper
   * (a third of the heap at 200,000 shoppers), one array of its own about 250 bytes beside the numbers.
   */
  capacity: number;
  length: number;
}

const ITEM = 0;
const WEIGHT = 1;
const FIRST = 2;
const LAST = 3;
const BUYS = 4;
const FIRST_BUY = 5;
const LAST_BUY = 6;
/** Float32 ↔ its bits, for the weight segment. */
const bits = new Int32Array(1);
const asFloat = new Float32Array(bits.buffer);
function floatOf(value: number): number {
  bits[0] = value;
  return asFloat[0]!;
}
function bitsOf(weight: number): number {
  asFloat[0] = weight;
  return bits[0]!;
}
const at = (row: Row, segment: number, i: number): number => row.data[row.base + segment * row.capacity + i]!;
const weightAt = (row: Row, i: number): number => floatOf(row.data[row.base + WEIGHT * row.capacity + i]!);
/** The used part of one of the row's columns: a view of the page, for copying at once (a freed block is reused). */
const column = (row: Row, segment: number): Int32Array => row.data.subarray(row.base + segment * row.capacity, row.base + segment * row.capacity + row.length);
/** The used part of the weights, as the float32 they are (a view, as `column`). */
const weightsOf = (row: Row): Float32Array => new Float32Array(row.data.buffer, row.data.byteOffset + (row.base + WEIGHT * row.capacity) * 4, row.length);

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
  private readonly pages = new RowPages();
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
    if (row === undefined) this.rows.set(profileId, (row = this.emptyRow(4)));
    const minute = Math.floor(at / MINUTE_MS);
    const before = this.touch(row, item, weight, minute, minute, weight >= BOUGHT ? 1 : 0, minute, minute);
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

  /**
   * The shopper's touched items (item number → strongest weight, times, purchases), oldest first touch
   * first: copies, which stay the shopper's whatever is folded later (a page block is reused once its
   * row grows or goes).
   */
  row(profileId: string): RowView | undefined {
    const row = this.rows.get(profileId);
    if (row === undefined) return undefined;
    return {
      items: column(row, ITEM).slice(),
      weights: weightsOf(row).slice(),
      first: column(row, FIRST).slice(),
      last: column(row, LAST).slice(),
      buys: column(row, BUYS).slice(),
      firstBuy: column(row, FIRST_BUY).slice(),
      lastBuy: column(row, LAST_BUY).slice(),
    };
  }

  /** Item ids the shopper bought. */
  boughtBy(profileId: string): Set<string> {
    const out = new Set<string>();
    const row = this.rows.get(profileId);
    if (row === undefined) return out;
    for (let i = 0; i < row.length; i++) if (weightAt(row, i) >= BOUGHT) out.add(this.itemIds[at(row, ITEM, i)]!);
    return out;
  }

  /** Item ids the shopper bought, with how many times each. */
  purchasesBy(profileId: string): Map<string, number> {
    const out = new Map<string, number>();
    const row = this.rows.get(profileId);
    if (row === undefined) return out;
    for (let i = 0; i < row.length; i++) if (at(row, BUYS, i) > 0) out.set(this.itemIds[at(row, ITEM, i)]!, at(row, BUYS, i));
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
    for (let i = 0; i < moved.length; i++) {
      this.touch(target, at(moved, ITEM, i), weightAt(moved, i), at(moved, FIRST, i), at(moved, LAST, i), at(moved, BUYS, i), at(moved, FIRST_BUY, i), at(moved, LAST_BUY, i));
    }
    this.pages.release(moved, moved.capacity);
  }

  /** Erasure: the profile's row goes (its block zeroed at once, then free for reuse); item totals it added stay, as counts without a person. */
  forget(profileId: string): void {
    const row = this.rows.get(profileId);
    if (row === undefined) return;
    this.rows.delete(profileId);
    row.data.fill(0, row.base, row.base + SEGMENTS * row.capacity);
    this.pages.release(row, row.capacity);
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
      // Item numbers, weights (float32: the same bytes), then the five time and purchase arrays, as before rows were one array.
      for (let segment = 0; segment < SEGMENTS; segment++) out.array(column(row, segment));
      if (out.length >= 64 * 1024) yield out.take();
    }
    if (out.length > 0) yield out.take();
    yield { purchases: this.purchases, touches: this.touches };
  }

  restore(chunk: InteractionChunk): void {
    if (chunk instanceof Uint8Array) {
      // Rows go into page blocks like live ones (a typed array of its own per row costs an allocation
      // each: seconds at 200,000 shoppers).
      const read = new ChunkReader(chunk);
      while (!read.done) {
        const profileId = read.string();
        const length = read.u32();
        // An empty row holds nothing to read, and leaves a row already here as it is.
        if (length === 0) continue;
        const row = this.emptyRow(RowPages.capacityFor(length));
        row.length = length;
        // The weights were written as float32: their bytes go in unchanged. Each column is read into its place in the block.
        for (let segment = 0; segment < SEGMENTS; segment++) read.array(column(row, segment));
        const previous = this.rows.get(profileId);
        if (previous !== undefined) this.pages.release(previous, previous.capacity);
        this.rows.set(profileId, row);
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
      items.set(column(row, ITEM), at);
      weights.set(weightsOf(row), at);
      first.set(column(row, FIRST), at);
      at += row.length;
      offsets[++r] = at;
    }
    return { itemIds: [...this.itemIds], offsets, items, weights, first };
  }

  private emptyRow(capacity: number): Row {
    const { data, base, page } = this.pages.allocate(capacity);
    // One literal, one shape for every row (spreading the block gave each row a dictionary of its own).
    return { data, base, page, capacity, length: 0 };
  }

  /**
   * Folds touches of `item` into the row: the strongest weight, the earliest first and latest last
   * touch, purchases added up (their first and last minutes; 0 is "none"). Activities may arrive out of
   * time order (imports, merges), so every time is a min or a max. A full row moves to a block twice
   * its size and gives its old one back.
   */
  private touch(row: Row, item: number, weight: number, first: number, last: number, buys: number, firstBuy: number, lastBuy: number): number {
    const { data, base: b, capacity: c } = row;
    for (let i = row.length - 1; i >= 0; i--) {
      if (data[b + i] !== item) continue;
      const before = data[b + BUYS * c + i]!;
      if (weight > weightAt(row, i)) data[b + WEIGHT * c + i] = bitsOf(weight);
      if (first < data[b + FIRST * c + i]!) data[b + FIRST * c + i] = first;
      if (last > data[b + LAST * c + i]!) data[b + LAST * c + i] = last;
      if (buys > 0) {
        data[b + FIRST_BUY * c + i] = before === 0 ? firstBuy : Math.min(data[b + FIRST_BUY * c + i]!, firstBuy);
        data[b + LAST_BUY * c + i] = Math.max(data[b + LAST_BUY * c + i]!, lastBuy);
        data[b + BUYS * c + i] = before + buys;
      }
      return before;
    }
    if (row.length === row.capacity) {
      const old: Block = { data: row.data, base: row.base, page: row.page };
      const bigger = this.pages.allocate(c * 2);
      for (let segment = 0; segment < SEGMENTS; segment++) bigger.data.set(old.data.subarray(old.base + segment * c, old.base + (segment + 1) * c), bigger.base + segment * c * 2);
      row.data = bigger.data;
      row.base = bigger.base;
      row.page = bigger.page;
      row.capacity = c * 2;
      this.pages.release(old, c);
    }
    const i = row.length;
    const d = row.data;
    const n = row.capacity;
    const o = row.base;
    d[o + ITEM * n + i] = item;
    d[o + WEIGHT * n + i] = bitsOf(weight);
    d[o + FIRST * n + i] = first;
    d[o + LAST * n + i] = last;
    d[o + BUYS * n + i] = buys;
    d[o + FIRST_BUY * n + i] = buys > 0 ? firstBuy : 0;
    d[o + LAST_BUY * n + i] = buys > 0 ? lastBuy : 0;
    row.length++;
    return 0;
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
