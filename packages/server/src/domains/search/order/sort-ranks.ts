/**
 * Each index slot's position under a sort order (equal keys share a rank), computed once per order,
 * so a request sorts by comparing integers. Items lacking an attribute go last in either direction.
 * One per SearchIndex; the index marks its orders stale on every change and refreshes them off the
 * request path.
 */
import type { FilterValue } from '../../../platform/filter-language/filter-tree.js';
import { DomainError } from '../../../platform/domain-error.js';
import { composing, keyRanking, lowerBound, type KeyRanks } from './key-ranks.js';
import { runAtOnce, runInSlices } from '../../../platform/sliced-work.js';
import { deleteOldest } from '../../../platform/collections/oldest-first.js';

export interface SortKey {
  attribute: string;
  order: 'asc' | 'desc';
}

/** Sort orders whose ranks are kept; requests may name any order, so older ones are recomputed when asked again. */
const MAX_RANKED_ORDERS = 32;
/** A numeric ranking yields after every this many slots plus one (a mask). */
const STEP_SLOTS = 4095;
/** Orders a request may wait on at once per index (`preparing`). */
const MAX_PENDING_ORDERS = 16;
/** Stepped rankings a request waits for before ranking its order at once (writes kept landing). */
const PREPARE_ATTEMPTS = 3;

/** What ranks are computed from: the index's slots and its per-slot attribute values. */
export interface RankSource {
  readonly docs: readonly unknown[];
  /** One attribute's values per slot, read in steps that yield when the index has not kept them yet. */
  valuing(attribute: string): Generator<unknown, FilterValue[][]>;
}

/** Where a sort order's array keeps its key (`SortRanks.keyOf`). */
const SORT_KEY = Symbol('sort key');

export class SortRanks {
  private readonly ranks = new Map<string, { sortBy: readonly SortKey[]; ranks: Int32Array; stale: boolean }>();

  constructor(private readonly source: RankSource) {}

  rank(sortBy: readonly SortKey[]): Int32Array {
    return runAtOnce(this.ranking(sortBy));
  }

  /** Whether `sortBy` is ranked and up to date: `rank` would answer at once. */
  private ready(sortBy: readonly SortKey[]): boolean {
    const entry = this.ranks.get(this.keyOf(sortBy));
    return entry !== undefined && !entry.stale;
  }

  /**
   * Ranks `sortBy` in slices for a request that names it, which waits on the promise while the server
   * answers others; undefined when it is ready. Requests for one order share one ranking, and orders
   * are ranked one after another. Too many orders waiting at once is refused (429): requests may name
   * any order, and each is a pass over the catalog. Should catalog writes keep landing meanwhile, the
   * request ranks the order itself after a few tries (`rank`).
   */
  preparing(sortBy: readonly SortKey[]): Promise<void> | undefined {
    const key = this.keyOf(sortBy);
    const entry = this.ranks.get(key);
    if (entry !== undefined && !entry.stale) return undefined;
    const waiting = this.pending.get(key);
    if (waiting !== undefined) return waiting;
    if (this.pending.size >= MAX_PENDING_ORDERS) {
      throw new DomainError('rate_limited', `Too many sort orders are being prepared at once; retry in a second.`, { field: 'options.sortBy', retryAfterSeconds: 1 });
    }
    const run = this.queue
      .then(async () => {
        for (let attempt = 0; attempt < PREPARE_ATTEMPTS && !this.ready(sortBy); attempt++) await runInSlices(this.ranking(sortBy));
      })
      .finally(() => this.pending.delete(key));
    this.queue = run.catch(() => undefined);
    this.pending.set(key, run);
    return run;
  }

  private readonly pending = new Map<string, Promise<void>>();
  private queue: Promise<void> = Promise.resolve();

  private keyOf(sortBy: readonly SortKey[]): string {
    // Configured orders are the same array at every request; a request's own sortBy is keyed by its text.
    // Kept on the array (not enumerable), not in a WeakMap: each request naming an order brings a new
    // array, and a WeakMap would grow with each until a full collection.
    const kept = (sortBy as { [SORT_KEY]?: string })[SORT_KEY];
    if (kept !== undefined) return kept;
    const key = JSON.stringify(sortBy);
    Reflect.defineProperty(sortBy, SORT_KEY, { value: key });
    return key;
  }

  /**
   * `rank` in steps that yield every few thousand slots (for an index build's warm-up, a request's
   * `preparing`): ranking one numeric order of 75,000 slots at once held the event loop for 90 to 200
   * ms of a promotion. Stepped alongside catalog writes, what it ranks is kept but marked stale when a
   * write landed meanwhile.
   */
  *ranking(sortBy: readonly SortKey[]): Generator<unknown, Int32Array> {
    const key = this.keyOf(sortBy);
    let entry = this.ranks.get(key);
    if (entry === undefined || entry.stale) {
      const { ranks, stale } = yield* this.computingTracked(sortBy);
      entry = this.ranks.get(key);
      if (entry === undefined) {
        // Orders come from requests: keep the most recently added few, each is a catalog-sized array.
        if (this.ranks.size >= MAX_RANKED_ORDERS) deleteOldest(this.ranks);
        this.ranks.set(key, { sortBy, ranks, stale });
      } else if (entry.stale) {
        entry.ranks = ranks;
        entry.stale = stale;
      }
      return ranks;
    }
    return entry.ranks;
  }

  /** Rankings being computed in steps, each marked when a change to one of its attributes lands meanwhile. */
  private readonly inFlight = new Set<{ sortBy: readonly SortKey[]; stale: boolean }>();

  /** `computing`, and whether a change to one of the order's attributes landed meanwhile (its ranks are then stale). */
  private *computingTracked(sortBy: readonly SortKey[]): Generator<unknown, { ranks: Int32Array; stale: boolean }> {
    const flight = { sortBy, stale: false };
    this.inFlight.add(flight);
    try {
      const ranks = yield* this.computing(sortBy);
      return { ranks, stale: flight.stale };
    } finally {
      this.inFlight.delete(flight);
    }
  }

  /**
   * The index changed: the orders by an attribute `changed` names are recomputed at their next use
   * or refresh (a price patch leaves a title order as it is). Without `changed`, every order is.
   */
  markStale(changed: (attribute: string) => boolean = () => true): void {
    for (const entry of this.ranks.values()) if (entry.sortBy.some((key) => changed(key.attribute))) entry.stale = true;
    for (const flight of this.inFlight) if (flight.sortBy.some((key) => changed(key.attribute))) flight.stale = true;
  }

  /** The orders kept, so a successor index can compute them before it serves. */
  orders(): (readonly SortKey[])[] {
    return [...this.ranks.values()].map((entry) => entry.sortBy);
  }

  /**
   * Recomputes the stale orders in steps (sliced-work.ts), after a catalog write: every kept order at
   * once held the event loop 16 ms per numeric order of 75,000 slots, and a shop may keep 32. A request
   * meanwhile still gets a right order (it waits for one ranked in slices: `preparing`). The index's
   * write queue applies nothing until this ends; should a change land meanwhile all the same, the
   * result is dropped for the next use or refresh to compute.
   */
  *refreshing(): Generator<unknown, void> {
    for (const entry of [...this.ranks.values()]) {
      if (!entry.stale) continue;
      const { ranks, stale } = yield* this.computingTracked(entry.sortBy);
      if (!stale && entry.stale) {
        entry.ranks = ranks;
        entry.stale = false;
      }
      yield;
    }
  }

  private *computing(sortBy: readonly SortKey[]): Generator<unknown, Int32Array> {
    const slots = this.source.docs.length;
    if (sortBy.length === 1) {
      const numeric = yield* numericRanking(yield* this.source.valuing(sortBy[0]!.attribute), sortBy[0]!.order);
      if (numeric !== undefined) return numeric;
    }
    const keys: { key: KeyRanks; desc: boolean }[] = [];
    for (const { attribute, order } of sortBy) {
      const column = yield* this.source.valuing(attribute);
      keys.push({ key: yield* keyRanking(column, slots), desc: order === 'desc' });
    }
    return yield* composing(keys, slots);
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
