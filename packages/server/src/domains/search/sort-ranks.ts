/**
 * Each index slot's position under a sort order (equal keys share a rank), computed once per order,
 * so a request sorts by comparing integers. Items lacking an attribute go last in either direction.
 * One per SearchIndex; the index marks its orders stale on every change and refreshes them off the
 * request path.
 */
import type { FilterValue } from '../../platform/filter-language/filter-tree.js';
import { fold } from './analyzer.js';
import { runAtOnce } from './sliced-work.js';

export interface SortKey {
  attribute: string;
  order: 'asc' | 'desc';
}

/** Sort orders whose ranks are kept; requests may name any order, so older ones are recomputed when asked again. */
const MAX_RANKED_ORDERS = 32;
/** A numeric ranking yields after every this many slots plus one (a mask). */
const STEP_SLOTS = 4095;

/** What ranks are computed from: the index's slots and its per-slot attribute values. */
export interface RankSource {
  readonly docs: readonly unknown[];
  values(attribute: string): FilterValue[][];
}

export class SortRanks {
  private readonly ranks = new Map<string, { sortBy: readonly SortKey[]; ranks: Int32Array; stale: boolean }>();
  private readonly keys = new WeakMap<readonly SortKey[], string>();

  constructor(private readonly source: RankSource) {}

  rank(sortBy: readonly SortKey[]): Int32Array {
    return runAtOnce(this.ranking(sortBy));
  }

  /**
   * `rank` in steps that yield every few thousand slots, for an index build's warm-up: ranking one
   * numeric order of 75,000 slots at once held the event loop for 90 to 200 ms of a promotion.
   */
  *ranking(sortBy: readonly SortKey[]): Generator<unknown, Int32Array> {
    // Configured orders are the same array at every request; a request's own sortBy is keyed by its text.
    let key = this.keys.get(sortBy);
    if (key === undefined) {
      key = JSON.stringify(sortBy);
      this.keys.set(sortBy, key);
    }
    let entry = this.ranks.get(key);
    if (entry === undefined) {
      const ranks = yield* this.computing(sortBy);
      // Orders come from requests: keep the most recently added few, each is a catalog-sized array.
      if (this.ranks.size >= MAX_RANKED_ORDERS) this.ranks.delete(this.ranks.keys().next().value!);
      this.ranks.set(key, (entry = { sortBy, ranks, stale: false }));
    } else if (entry.stale) {
      entry.ranks = yield* this.computing(sortBy);
      entry.stale = false;
    }
    return entry.ranks;
  }

  /** Bumped by every change: a refresh that spanned one drops what it computed. */
  private changes = 0;

  /** The index changed: every order is recomputed at its next use or refresh. */
  markStale(): void {
    this.changes++;
    for (const entry of this.ranks.values()) entry.stale = true;
  }

  /** The orders kept, so a successor index can compute them before it serves. */
  orders(): (readonly SortKey[])[] {
    return [...this.ranks.values()].map((entry) => entry.sortBy);
  }

  /**
   * Recomputes the stale orders in steps (sliced-work.ts), after a catalog write: every kept order at
   * once held the event loop 16 ms per numeric order of 75,000 slots, and a shop may keep 32. A request
   * meanwhile still gets a right order (it recomputes a stale one itself). The index's write queue
   * applies nothing until this ends; should a change land meanwhile all the same, the result is dropped
   * for the next use or refresh to compute. (A text order is still one long step: its comparator sort.)
   */
  *refreshing(): Generator<unknown, void> {
    for (const entry of [...this.ranks.values()]) {
      if (!entry.stale) continue;
      const changes = this.changes;
      const ranks = yield* this.computing(entry.sortBy);
      if (this.changes === changes && entry.stale) {
        entry.ranks = ranks;
        entry.stale = false;
      }
      yield;
    }
  }

  private *computing(sortBy: readonly SortKey[]): Generator<unknown, Int32Array> {
    if (sortBy.length === 1) {
      const numeric = yield* numericRanking(this.source.values(sortBy[0]!.attribute), sortBy[0]!.order);
      if (numeric !== undefined) return numeric;
    }
    const keys = sortBy.map(({ attribute, order }) => {
      const column = this.source.values(attribute);
      // Strings compare folded; folding once per slot keeps the sort from folding at every comparison.
      const folded = column.map((values) => (typeof values[0] === 'string' ? fold(values[0]) : values[0]));
      return { folded, sign: order === 'desc' ? -1 : 1 };
    });
    const compare = (a: number, b: number): number => {
      for (const { folded, sign } of keys) {
        const x = folded[a];
        const y = folded[b];
        if (x === undefined || y === undefined) {
          if (x !== y) return x === undefined ? 1 : -1;
          continue;
        }
        const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x) < String(y) ? -1 : String(x) > String(y) ? 1 : 0;
        if (c !== 0) return sign * c;
      }
      return 0;
    };
    const order = this.source.docs.map((_, slot) => slot).sort((a, b) => compare(a, b) || a - b);
    const ranks = new Int32Array(this.source.docs.length);
    let rank = 0;
    for (let i = 0; i < order.length; i++) {
      if (i > 0 && compare(order[i - 1]!, order[i]!) !== 0) rank = i;
      ranks[order[i]!] = rank;
    }
    return ranks;
  }
}

/**
 * Ranks under one numeric attribute (the usual default sort: popularity, price) without a comparator
 * sort of the slots: the values sorted as a typed array, then each slot's rank is how many values come
 * before its own (a binary search). Equal values share a rank and slots lacking the value go last, as
 * in the general path. Undefined when some slot holds a value that is not a single number.
 */
function* numericRanking(column: readonly (readonly FilterValue[])[], order: 'asc' | 'desc'): Generator<unknown, Int32Array | undefined> {
  let present = 0;
  for (let slot = 0; slot < column.length; slot++) {
    const values = column[slot]!;
    if ((slot & STEP_SLOTS) === STEP_SLOTS) yield;
    if (values.length === 0) continue;
    if (typeof values[0] !== 'number' || Number.isNaN(values[0])) return undefined;
    present++;
  }
  const sorted = new Float64Array(present);
  let n = 0;
  for (const values of column) if (values.length > 0) sorted[n++] = values[0] as number;
  yield;
  sorted.sort();
  yield;
  const ranks = new Int32Array(column.length);
  for (let slot = 0; slot < column.length; slot++) {
    if ((slot & STEP_SLOTS) === STEP_SLOTS) yield;
    const values = column[slot]!;
    if (values.length === 0) {
      ranks[slot] = present;
      continue;
    }
    const value = values[0] as number;
    // asc: values strictly below; desc: values strictly above.
    ranks[slot] = order === 'asc' ? lowerBound(sorted, value) : present - upperBound(sorted, value);
  }
  return ranks;
}

function lowerBound(sorted: Float64Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function upperBound(sorted: Float64Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
