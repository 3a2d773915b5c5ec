/** Per-item counts by verb and day, the raw material of "popular" and "trending" recommendations. */

import { DAY_MS } from '../../platform/clock.js';
import { kthLargest } from './top-k.js';
import { runAtOnce } from '../../platform/sliced-work.js';
import { ChunkReader, ChunkWriter } from '../tracking/snapshot-encoding.js';

export interface PopularItem {
  itemId: string;
  score: number;
}

/** The order of every popularity list: score, best first, then item id (kept lists must sort the same way). */
export function byScore(a: PopularItem, b: PopularItem): number {
  return b.score - a.score || a.itemId.localeCompare(b.itemId);
}

export interface WindowOptions {
  verbs: readonly string[];
  weights: Record<string, number>;
  sinceDays: number;
  now: number;
}


/** Days counted behind the newest: the longest window is 30 days (and one more for safety). */
export const KEPT_DAYS = 31;
/** Counts added per step of `ranking` (a fraction of a millisecond). */
const RANKING_STEP = 16_384;
/** Items per snapshot chunk of one verb and day: a chunk is one step of the snapshot writer (a few milliseconds). */
const SAVED_ITEMS = 2_000;

export class Popularity {
  /**
   * verb → day number → item number → count: a query walks only the verbs and days it asks for. Items
   * are numbered (`names`) so a whole pass adds counts into a typed array: keyed by id strings, the
   * map lookups of a pass over 1,000,000 activities took 250 ms.
   */
  private readonly counts = new Map<string, Map<number, Map<number, number>>>();
  private readonly numbers = new Map<string, number>();
  private readonly names: string[] = [];
  /** The newest day counted (see `keeps`). */
  private newestDay = -Infinity;
  /** Per snapshot's item names (one restore): this counter's number of each (-1: not needed yet); let go with the names. */
  private readonly restoredNumbers = new WeakMap<readonly string[], Int32Array>();

  /** `now`: the clock's time, in milliseconds. */
  constructor(private readonly now: () => number) {}

  add(verb: string, itemId: string, timestamp: number, count = 1): void {
    const day = Math.floor(timestamp / DAY_MS);
    if (!this.keeps(day)) return;
    const items = this.countsOf(verb, day);
    const item = this.numberOf(itemId);
    items.set(item, (items.get(item) ?? 0) + count);
  }

  /**
   * Whether a day can still be read, dropping the days that fell out of reach when `day` is a new
   * newest one. Every window ends at the newest activity or later (now) and reaches back 30 days at
   * most, so days more than KEPT_DAYS before both are never read again: without this, a year of
   * trading kept a year of per-day item counts. Both bounds count: an activity dated in the future
   * (the public may send any date) must not drop today's counts.
   */
  private keeps(day: number): boolean {
    const today = Math.floor(this.now() / DAY_MS);
    if (day <= Math.min(today, this.newestDay) - KEPT_DAYS) return false;
    if (day > this.newestDay) {
      this.newestDay = day;
      const reach = Math.min(today, day) - KEPT_DAYS;
      for (const days of this.counts.values()) for (const old of [...days.keys()]) if (old <= reach) days.delete(old);
    }
    return true;
  }

  private numberOf(itemId: string): number {
    let item = this.numbers.get(itemId);
    if (item === undefined) {
      item = this.names.length;
      this.names.push(itemId);
      this.numbers.set(itemId, item);
    }
    return item;
  }

  private countsOf(verb: string, day: number): Map<number, number> {
    let days = this.counts.get(verb);
    if (days === undefined) this.counts.set(verb, (days = new Map()));
    let items = days.get(day);
    if (items === undefined) days.set(day, (items = new Map()));
    return items;
  }

  /** Items by weighted score over the last `sinceDays` days (counting today), best first. */
  top(options: WindowOptions & { limit: number }): PopularItem[] {
    return runAtOnce(this.ranking(options));
  }

  /**
   * `top` a step at a time (RANKING_STEP counts added per step), for a server that must keep answering
   * while it runs (runInSlices): over the 30 days of a busy shop it walks millions of counts. The maps
   * may change between steps (new activities are counted meanwhile); the caller scores the items they
   * touched again afterwards (strategies.ts), so the list is exact once merged.
   */
  *ranking(options: WindowOptions & { limit: number }): Generator<unknown, PopularItem[]> {
    const scores = new Float64Array(this.names.length);
    let walked = 0;
    for (const [items, weight] of this.days(options)) {
      for (const [item, count] of items) {
        // An item first counted after the walk began has no place in `scores`: the merge after scores it.
        if (item < scores.length) scores[item] += count * weight;
        if (++walked % RANKING_STEP === 0) yield;
      }
    }
    yield;
    // Only the items scoring at least the limit-th best score are sorted: sorting every scored item
    // (100,000 of them, most tied, ties compared by id) was a third of a recomputation.
    const positive = new Float64Array(scores.length);
    let n = 0;
    for (let item = 0; item < scores.length; item++) if (scores[item]! > 0) positive[n++] = scores[item]!;
    const threshold = n > options.limit ? kthLargest(positive, n, options.limit) : 0;
    yield;
    const kept: PopularItem[] = [];
    for (let item = 0; item < scores.length; item++) {
      const score = scores[item]!;
      if (score > 0 && score >= threshold) kept.push({ itemId: this.names[item]!, score });
    }
    return kept.sort(byScore).slice(0, options.limit);
  }

  /** One item's score as `top` computes it, for updating a kept top list after new activities. */
  scoreOf(itemId: string, options: WindowOptions): number {
    const item = this.numbers.get(itemId);
    if (item === undefined) return 0;
    let score = 0;
    // Walked in place, not through `days`' list: this runs for every item new activities touch.
    const firstDay = firstDayOf(options);
    for (const verb of options.verbs) {
      const weight = options.weights[verb] ?? 1;
      for (const [day, items] of this.counts.get(verb) ?? []) if (day >= firstDay) score += (items.get(item) ?? 0) * weight;
    }
    return score;
  }

  /** Each day's item counts of each asked verb inside the window, with the verb's weight (listed first: a walk in steps holds them while days come and go). */
  private days(options: WindowOptions): Array<[Map<number, number>, number]> {
    const firstDay = firstDayOf(options);
    const out: Array<[Map<number, number>, number]> = [];
    for (const verb of options.verbs) {
      const weight = options.weights[verb] ?? 1;
      for (const [day, items] of this.counts.get(verb) ?? []) if (day >= firstDay) out.push([items, weight]);
    }
    return out;
  }

  /**
   * Snapshot chunks (binary, snapshot-encoding.ts), per verb and day: the verb, the day, the number of
   * items, then each item's number (`numberOf`, which knows every counted item) and count, at most
   * SAVED_ITEMS items each. A restore names items with the caller's strings, one per item instead of one per
   * item and day.
   */
  *save(numberOf: (itemId: string) => number): Iterable<Buffer> {
    const out = new ChunkWriter();
    // One chunk's items, gathered from the day's map as it is walked (not a copy of the whole map:
    // a day can count every item of the catalog, and the copy was one long step of a snapshot).
    const numbers = new Uint32Array(SAVED_ITEMS);
    const counts = new Float64Array(SAVED_ITEMS);
    for (const [verb, days] of this.counts) {
      for (const [day, items] of days) {
        let n = 0;
        const flush = (): Buffer => {
          out.string(verb);
          out.f64(day);
          out.u32(n);
          for (let at = 0; at < n; at++) {
            out.u32(numbers[at]!);
            out.f64(counts[at]!);
          }
          n = 0;
          return out.take();
        };
        for (const [item, count] of items) {
          numbers[n] = numberOf(this.names[item]!);
          counts[n++] = count;
          if (n === SAVED_ITEMS) yield flush();
        }
        if (n > 0) yield flush();
      }
    }
  }

  restore(chunk: Buffer, names: readonly string[]): void {
    const read = new ChunkReader(chunk);
    const verb = read.string();
    const day = read.f64();
    if (!this.keeps(day)) return;
    const counts = this.countsOf(verb, day);
    // The snapshot's item numbers translated to this counter's once per item, not once per item, verb
    // and day (a string-keyed lookup each: a sixteenth of a restart's CPU); dropped with the names.
    let local = this.restoredNumbers.get(names);
    // The names may have grown since the last chunk (the snapshot's item list comes in chunks too).
    if (local === undefined || local.length < names.length) {
      const grown = new Int32Array(names.length).fill(-1);
      if (local !== undefined) grown.set(local);
      this.restoredNumbers.set(names, (local = grown));
    }
    for (let left = read.u32(); left > 0; left--) {
      const index = read.u32();
      const count = read.f64();
      if (index >= names.length) throw new RangeError('a popularity chunk names an item the snapshot does not');
      let item = local[index]!;
      if (item < 0) local[index] = item = this.numberOf(names[index]!);
      counts.set(item, (counts.get(item) ?? 0) + count);
    }
  }

  /** Raw count of one item for one verb over the window, for tests and explanations. */
  count(verb: string, itemId: string): number {
    const item = this.numbers.get(itemId);
    let total = 0;
    if (item !== undefined) for (const items of this.counts.get(verb)?.values() ?? []) total += items.get(item) ?? 0;
    return total;
  }
}

/** The first day number a window counts (it counts `sinceDays` days, the day of `now` included). */
function firstDayOf(options: WindowOptions): number {
  return Math.floor(options.now / DAY_MS) - options.sinceDays + 1;
}
