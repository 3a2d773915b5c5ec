/**
 * Query analytics' day records and how counts are added into them. A process counts its own searches,
 * clicks and conversions as increments (`pending`) and adds them to the stored document inside its
 * update, so several processes on one store (PostgreSQL) add up instead of overwriting each other's
 * days; a reader sees the stored days with this process's increments not yet written on top.
 */
export interface QueryDayStats {
  searches: number;
  /** Searches that found nothing (after relaxation: nothing at all). */
  zeroResults: number;
  /** Searches answered for another query than typed (typo, split or joined words). */
  corrected: number;
  /** The query last run instead, when corrected. */
  correctedTo?: string;
  /** Searches with a served looser match (not every word matched). */
  relaxed: number;
  /** Searches whose results got at least one click or product view. */
  clicks: number;
  /** Searches followed by an add-to-cart or purchase. */
  conversions: number;
  /** Purchases from the search's results, price × quantity in cents (absent in days stored before it was kept). */
  revenue?: number;
  /** Results of the latest search (absent in days stored before it was kept): a fixed query leaves the zero-result list. */
  lastResultCount?: number;
  lastAt?: number;
}

/** Day (YYYY-MM-DD) → token → query → stats. */
export type Days = Record<string, Record<string, Record<string, QueryDayStats>>>;

export const zeroStats = (): QueryDayStats => ({ searches: 0, zeroResults: 0, corrected: 0, relaxed: 0, clicks: 0, conversions: 0 });

/**
 * The entry `key` of a record keyed by what shoppers type, made when missing. Own properties only, set
 * by definition: a query such as `__proto__` or `constructor` must be an ordinary key, never reach
 * Object.prototype (a plain `record[key] ??= {}` would hand back, and then change, the prototype).
 */
export function ownEntry<T>(record: Record<string, T>, key: string, make: () => T): T {
  if (Object.hasOwn(record, key)) return record[key]!;
  const value = make();
  Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
  return value;
}

/** The record at `key` when it is an own one, else undefined. */
export function ownValue<T>(record: Record<string, T> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

/** Adds `delta`'s counts to `into`; the latest search's result count (and correction) is the later of the two. */
export function addStats(into: QueryDayStats, delta: QueryDayStats): void {
  into.searches += delta.searches;
  into.zeroResults += delta.zeroResults;
  into.corrected += delta.corrected;
  into.relaxed += delta.relaxed;
  into.clicks += delta.clicks;
  into.conversions += delta.conversions;
  if (delta.revenue !== undefined) into.revenue = (into.revenue ?? 0) + delta.revenue;
  if (delta.correctedTo !== undefined) into.correctedTo = delta.correctedTo;
  if (delta.lastAt !== undefined && delta.lastAt >= (into.lastAt ?? -Infinity)) {
    into.lastAt = delta.lastAt;
    if (delta.lastResultCount !== undefined) into.lastResultCount = delta.lastResultCount;
  }
}

/**
 * Adds every increment of `deltas` into `days` (which it never keeps a reference into `deltas` for).
 * A token's day holds at most `cap` queries: a new query past it counts under `other`, as at the
 * search itself, now that other processes' queries count towards the cap as well.
 */
export function addDays(days: Days, deltas: Days, cap: number, other: string): void {
  for (const [day, tokens] of Object.entries(deltas)) {
    const target = ownEntry(days, day, () => ({}));
    for (const [token, queries] of Object.entries(tokens)) {
      const stored = ownEntry(target, token, () => ({}));
      let count = Object.keys(stored).length;
      for (const [query, delta] of Object.entries(queries)) {
        const key = Object.hasOwn(stored, query) || query === other || count < cap ? query : other;
        if (!Object.hasOwn(stored, key)) count++;
        addStats(ownEntry(stored, key, zeroStats), delta);
      }
    }
  }
}

/** A token's queries of a day as stored with this process's increments on top (the stored record itself when there are none). */
export function mergedQueries(stored: Record<string, QueryDayStats> | undefined, pending: Record<string, QueryDayStats> | undefined): Record<string, QueryDayStats> {
  if (pending === undefined) return stored ?? {};
  const merged: Record<string, QueryDayStats> = {};
  for (const source of [stored ?? {}, pending]) for (const [query, stats] of Object.entries(source)) addStats(ownEntry(merged, query, zeroStats), stats);
  return merged;
}
