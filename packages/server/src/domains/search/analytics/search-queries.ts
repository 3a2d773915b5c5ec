/**
 * Shoppers' search queries, for autocomplete: how often each was viewed as a search-results page (a
 * durable page-view activity carrying `metadata.query`), how often it was searched, and how its last
 * search matched. Counts are kept per hour so a window of days is exact to the hour.
 *
 * Searches are counted in memory only: a search request is not an activity and is never written to
 * the activity log (no disk write per search). After a restart the views come back from the log; the
 * outcome of a query nobody searched since is then unknown and the caller checks it (search-api).
 */
import { DAY_MS } from '../../../platform/clock.js';
import { deleteOldest } from '../../../platform/collections/oldest-first.js';

const HOUR_MS = 60 * 60 * 1000;

/** How a query's words matched the catalog the last time it was searched. */
export type QuerySpelling = 'typed' | 'corrected' | 'none';

/**
 * Queries kept per tenant: past it, the oldest query nobody viewed (or, failing that, the oldest) is
 * let go, so a stream of random searches cannot grow memory. Longer queries are not kept at all.
 */
export const MAX_QUERIES = 100_000;
export const MAX_QUERY_LENGTH = 100;
/** How many of the oldest queries eviction looks at for one nobody viewed. */
const EVICTION_SCAN = 100;

/** Shoppers remembered per query (the latest); a token's threshold cannot be above it (config schema). */
export const SHOPPERS_KEPT = 32;

interface QueryStats {
  query: string;
  views: Map<number, number>;
  /** Shopper (profile id) → hour of their latest results-page view of this query, the latest SHOPPERS_KEPT only. */
  shoppers: Map<string, number>;
  searches: Map<number, number>;
  lastResultCount: number | undefined;
  lastSpelling: QuerySpelling | undefined;
}

export interface QuerySuggestion {
  query: string;
  /** Search-results page views within the window: the order of suggestions. */
  count: number;
  /** Searches within the window: the tie-break. */
  searches: number;
  /** Distinct shoppers who viewed its results page within the window (counted up to SHOPPERS_KEPT). */
  shoppers: number;
  resultCount: number | undefined;
  spelling: QuerySpelling | undefined;
}

export interface SuggestOptions {
  now: number;
  /** The window, in days (fractions allowed): activity older than this does not count. */
  sinceDays: number;
  limit: number;
  /** Distinct shoppers whose results-page views a query needs within the window (1 when absent). */
  minShoppers?: number;
  /** Whether a candidate may be suggested (offensive words, zero results, typo-only matches); all pass when absent. */
  accept?: (candidate: QuerySuggestion) => boolean;
}

/** One query in a snapshot: query, views, shoppers, searches (hour → count or hour), last result count, last spelling. */
export type SavedQuery = [string, Array<[number, number]>, Array<[string, number]>, Array<[number, number]>, number | null, QuerySpelling | null];

export function normalizeQuery(query: string): string {
  return query.trim().replace(/\s+/g, ' ').toLowerCase();
}

export class SearchQueries {
  private readonly queries = new Map<string, QueryStats>();

  constructor(private readonly maxQueries = MAX_QUERIES) {}

  /** Queries kept now. */
  get size(): number {
    return this.queries.size;
  }

  /** The same queries in sorted order, so a prefix is a contiguous range found by binary search. */
  private sorted: string[] = [];
  /** Set by a restore, which appends to `sorted`: sorted once before the next use rather than per query. */
  private unsorted = false;

  /** Snapshot chunks (activity-snapshots.ts): every query's figures, oldest first, 1,000 a chunk. */
  *save(): Iterable<SavedQuery[]> {
    let chunk: SavedQuery[] = [];
    for (const stats of this.queries.values()) {
      chunk.push([stats.query, [...stats.views], [...stats.shoppers], [...stats.searches], stats.lastResultCount ?? null, stats.lastSpelling ?? null]);
      if (chunk.length >= 1_000) {
        yield chunk;
        chunk = [];
      }
    }
    if (chunk.length > 0) yield chunk;
  }

  restore(chunk: readonly SavedQuery[]): void {
    for (const [query, views, shoppers, searches, lastResultCount, lastSpelling] of chunk) {
      if (this.queries.has(query)) continue;
      this.queries.set(query, { query, views: new Map(views), shoppers: new Map(shoppers), searches: new Map(searches), lastResultCount: lastResultCount ?? undefined, lastSpelling: lastSpelling ?? undefined });
      this.sorted.push(query);
      this.unsorted = true;
    }
  }

  private sortedQueries(): string[] {
    if (this.unsorted) {
      this.sorted.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      this.unsorted = false;
    }
    return this.sorted;
  }

  /** Erasure: the shopper is no longer remembered among any query's shoppers (view counts stay, without a person). */
  forgetShopper(shopper: string): void {
    for (const stats of this.queries.values()) stats.shoppers.delete(shopper);
  }

  /** Counts one search-results page view of `query` by `shopper` (from the activity log, so also at start-up). */
  recordView(query: string, at: number, shopper = ''): void {
    const stats = this.stats(query);
    if (stats === undefined) return;
    bump(stats.views, at);
    const hour = Math.floor(at / HOUR_MS);
    const seen = stats.shoppers.get(shopper);
    if (seen !== undefined && seen >= hour) return;
    // Re-inserted, so the map's order is oldest view first and the oldest shopper is the one let go.
    stats.shoppers.delete(shopper);
    stats.shoppers.set(shopper, hour);
    if (stats.shoppers.size > SHOPPERS_KEPT) deleteOldest(stats.shoppers);
  }

  /** Counts one search request, with how many items it found and how its words matched. */
  recordSearch(query: string, at: number, resultCount: number, spelling?: QuerySpelling): void {
    const stats = this.stats(query);
    if (stats === undefined) return;
    bump(stats.searches, at);
    stats.lastResultCount = resultCount;
    stats.lastSpelling = spelling ?? (resultCount === 0 ? 'none' : stats.lastSpelling);
  }

  /** Searches of a query per hour, restored from the persisted analytics after a restart (searches are not logged). */
  restoreSearches(query: string, at: number, count: number): void {
    const hour = Math.floor(at / HOUR_MS);
    const stats = this.stats(query);
    if (stats !== undefined) stats.searches.set(hour, Math.max(stats.searches.get(hour) ?? 0, count));
  }

  /**
   * Queries starting with `prefix` viewed by enough distinct shoppers within the window, most viewed first, then
   * most searched, then alphabetical; `accept` decides which may be offered.
   */
  suggest(prefix: string, options: SuggestOptions): QuerySuggestion[] {
    const start = normalizeQuery(prefix);
    const lastHour = Math.floor(options.now / HOUR_MS);
    const firstHour = lastHour - Math.max(1, Math.round((options.sinceDays * DAY_MS) / HOUR_MS)) + 1;
    const candidates: QuerySuggestion[] = [];
    const sorted = this.sortedQueries();
    for (let at = lowerBound(sorted, start); at < sorted.length && sorted[at]!.startsWith(start); at++) {
      const stats = this.queries.get(sorted[at]!)!;
      if (stats.lastResultCount === 0 || stats.lastSpelling === 'none') continue;
      let shoppers = 0;
      for (const hour of stats.shoppers.values()) if (hour >= firstHour && hour <= lastHour) shoppers++;
      // One visitor's query, however often they opened it, never reaches other shoppers.
      if (shoppers < (options.minShoppers ?? 1)) continue;
      const count = within(stats.views, firstHour, lastHour);
      const searches = within(stats.searches, firstHour, lastHour);
      candidates.push({ query: stats.query, count, searches, shoppers, resultCount: stats.lastResultCount, spelling: stats.lastSpelling });
    }
    candidates.sort((a, b) => b.count - a.count || b.searches - a.searches || (a.query < b.query ? -1 : a.query > b.query ? 1 : 0));
    const out: QuerySuggestion[] = [];
    for (const candidate of candidates) {
      if (out.length >= options.limit) break;
      if (options.accept === undefined || options.accept(candidate)) out.push(candidate);
    }
    return out;
  }

  private stats(query: string): QueryStats | undefined {
    const key = normalizeQuery(query);
    if (key === '' || key.length > MAX_QUERY_LENGTH) return undefined;
    let stats = this.queries.get(key);
    if (stats === undefined) {
      if (this.queries.size >= this.maxQueries) this.evictOne();
      this.queries.set(key, (stats = { query: key, views: new Map(), shoppers: new Map(), searches: new Map(), lastResultCount: undefined, lastSpelling: undefined }));
      const sorted = this.sortedQueries();
      sorted.splice(lowerBound(sorted, key), 0, key);
    }
    return stats;
  }

  private evictOne(): void {
    let victim: string | undefined;
    let scanned = 0;
    for (const [key, stats] of this.queries) {
      victim ??= key;
      if (stats.views.size === 0) {
        victim = key;
        break;
      }
      if (++scanned >= EVICTION_SCAN) break;
    }
    if (victim === undefined) return;
    this.queries.delete(victim);
    const sorted = this.sortedQueries();
    const at = lowerBound(sorted, victim);
    if (sorted[at] === victim) sorted.splice(at, 1);
  }
}

/** The first position in `sorted` whose value is not below `value`. */
function lowerBound(sorted: readonly string[], value: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (sorted[mid]! < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

function bump(counts: Map<number, number>, at: number): void {
  const hour = Math.floor(at / HOUR_MS);
  counts.set(hour, (counts.get(hour) ?? 0) + 1);
}

function within(counts: Map<number, number>, firstHour: number, lastHour: number): number {
  let total = 0;
  for (const [hour, n] of counts) if (hour >= firstHour && hour <= lastHour) total += n;
  return total;
}
