/**
 * What shoppers searched, per search token and UTC day, for a merchandiser: searches, zero-result
 * and corrected queries, click-through (a `click` or `view` of a product whose `sourceId` is the
 * search's `id`) and conversion (an `add-to-cart` or `purchase` from that search, or of an item the
 * same shopper clicked from it). Kept in one store document per tenant, written every few seconds
 * and at shutdown, so the counts survive a restart.
 *
 * Memory is bounded by design: at most MAX_QUERIES_PER_DAY queries per token and day (later new
 * queries are counted under OTHER_QUERIES), DAYS_KEPT days, and the last RECENT_SEARCHES search ids
 * and RECENT_CLICKS clicks remembered for attribution (process-wide; older ones are let go first).
 */
import type { LoggedActivity } from '../tracking/activity-record.js';
import type { Clock } from '../../platform/clock.js';
import type { Logger } from '../../platform/logger.js';
import type { DocumentStore, StoredDocument } from '../../platform/store/document-store.js';

export const MAX_QUERIES_PER_DAY = 1_000;
export const OTHER_QUERIES = '(other queries)';
export const DAYS_KEPT = 90;
export const MAX_QUERY_CHARS = 200;
const RECENT_SEARCHES = 100_000;
const RECENT_CLICKS = 100_000;
/** Pending counts reach the store this often. */
const FLUSH_MS = 5_000;

const CLICK_VERBS = new Set(['click', 'view']);
const CONVERSION_VERBS = new Set(['add-to-cart', 'purchase', 'buy']);

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
}

/** Day (YYYY-MM-DD) → token → query → stats. */
interface AnalyticsDocument {
  days: Record<string, Record<string, Record<string, QueryDayStats>>>;
}

interface RecentSearch {
  tenantId: string;
  day: string;
  stats: QueryDayStats;
  clicked: boolean;
  converted: boolean;
}

export interface SearchOutcome {
  tenantId: string;
  token: string;
  /** The search's response id: activities carry it as `sourceId`. */
  id: string;
  query: string;
  count: number;
  corrected: string | undefined;
  relaxed: boolean;
}

export class QueryAnalytics {
  private readonly documents = new Map<string, StoredDocument<AnalyticsDocument>>();
  /** Each tenant's counts as they stand (the stored document is changed only inside `update`, at flush). */
  private readonly live = new Map<string, AnalyticsDocument>();
  /** Tenant → days changed since the last flush. */
  private readonly dirtyDays = new Map<string, Set<string>>();
  private readonly recentSearches = new Map<string, RecentSearch>();
  /** tenant, profile, item → the search a click came from. */
  private readonly recentClicks = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;

  private constructor(private readonly deps: { store: DocumentStore; clock: Clock; logger: Logger }) {}

  static async open(deps: { store: DocumentStore; clock: Clock; logger: Logger; tenantIds: readonly string[] }): Promise<QueryAnalytics> {
    const analytics = new QueryAnalytics(deps);
    for (const tenantId of deps.tenantIds) {
      const doc = await deps.store.document<AnalyticsDocument>(`tenants/${tenantId}/search-analytics`, () => ({ days: {} }));
      analytics.documents.set(tenantId, doc);
      analytics.live.set(tenantId, structuredClone(doc.data));
    }
    analytics.timer = setInterval(() => void analytics.flush(), FLUSH_MS);
    analytics.timer.unref();
    return analytics;
  }

  /** Searches per query and day, as persisted: autocomplete restores its search counts from them at start. */
  *searchCounts(tenantId: string): Iterable<{ day: string; query: string; searches: number }> {
    const doc = this.live.get(tenantId);
    if (doc === undefined) return;
    for (const [day, tokens] of Object.entries(doc.days)) {
      for (const queries of Object.values(tokens)) for (const [query, stats] of Object.entries(queries)) if (query !== OTHER_QUERIES) yield { day, query, searches: stats.searches };
    }
  }

  recordSearch(outcome: SearchOutcome): void {
    const doc = this.live.get(outcome.tenantId);
    if (doc === undefined) return;
    const day = dayOf(this.deps.clock.now());
    const tokens = ownEntry(doc.days, day, () => ({}));
    const queries = ownEntry(tokens, outcome.token, () => ({}));
    // A query is kept to its first MAX_QUERY_CHARS characters: a 1,000-character query costs no more.
    let key = outcome.query.slice(0, MAX_QUERY_CHARS);
    if (!Object.hasOwn(queries, key) && Object.keys(queries).length >= MAX_QUERIES_PER_DAY) key = OTHER_QUERIES;
    const stats = ownEntry<QueryDayStats>(queries, key, () => ({ searches: 0, zeroResults: 0, corrected: 0, relaxed: 0, clicks: 0, conversions: 0 }));
    stats.searches++;
    if (outcome.count === 0) stats.zeroResults++;
    if (outcome.corrected !== undefined) {
      stats.corrected++;
      if (key !== OTHER_QUERIES) stats.correctedTo = outcome.corrected;
    }
    if (outcome.relaxed) stats.relaxed++;
    remember(this.recentSearches, outcome.id, { tenantId: outcome.tenantId, day, stats, clicked: false, converted: false }, RECENT_SEARCHES);
    this.touch(outcome.tenantId, day);
  }

  /** Folds one newly recorded activity (the activity service calls it once the activity is durable). */
  recordActivity(activity: LoggedActivity): void {
    if (activity.sourceId === undefined && !CONVERSION_VERBS.has(activity.verb)) return;
    if (activity.type === 'page') return;
    const clickKey = `${activity.tenant}\u0000${activity.profileId}\u0000${activity.itemId}`;
    if (CLICK_VERBS.has(activity.verb)) {
      const search = activity.sourceId === undefined ? undefined : this.recentSearches.get(activity.sourceId);
      if (search === undefined || search.tenantId !== activity.tenant) return;
      remember(this.recentClicks, clickKey, activity.sourceId!, RECENT_CLICKS);
      if (search.clicked) return;
      search.clicked = true;
      search.stats.clicks++;
      this.touch(search.tenantId, search.day);
      return;
    }
    if (!CONVERSION_VERBS.has(activity.verb)) return;
    const direct = activity.sourceId === undefined ? undefined : this.recentSearches.get(activity.sourceId);
    const viaClick = this.recentClicks.get(clickKey);
    const search = direct ?? (viaClick === undefined ? undefined : this.recentSearches.get(viaClick));
    if (search === undefined || search.tenantId !== activity.tenant || search.converted) return;
    search.converted = true;
    search.stats.conversions++;
    this.touch(search.tenantId, search.day);
  }

  /** Erasure: which search each of these profiles clicked an item from is forgotten; the day counts stay, without a person. */
  forgetProfiles(tenantId: string, profileIds: readonly string[]): void {
    for (const profileId of profileIds) {
      const prefix = `${tenantId}\u0000${profileId}\u0000`;
      for (const key of [...this.recentClicks.keys()]) if (key.startsWith(prefix)) this.recentClicks.delete(key);
    }
  }

  /** One token's days from `from` to `to` (inclusive, YYYY-MM-DD). */
  report(tenantId: string, token: string, from: string, to: string): { day: string; queries: Record<string, QueryDayStats> }[] {
    const doc = this.live.get(tenantId);
    if (doc === undefined) return [];
    return Object.keys(doc.days)
      .filter((day) => day >= from && day <= to)
      .sort()
      .map((day) => ({ day, queries: doc.days[day]![token] ?? {} }));
  }

  private touch(tenantId: string, day: string): void {
    let days = this.dirtyDays.get(tenantId);
    if (days === undefined) this.dirtyDays.set(tenantId, (days = new Set()));
    days.add(day);
  }

  /** Writes the days whose counts changed, and lets days past DAYS_KEPT go. */
  async flush(): Promise<void> {
    const oldest = dayOf(this.deps.clock.now() - DAYS_KEPT * 24 * 60 * 60 * 1000);
    for (const [tenantId, days] of [...this.dirtyDays]) {
      this.dirtyDays.delete(tenantId);
      const live = this.live.get(tenantId)!;
      for (const day of Object.keys(live.days)) if (day < oldest) delete live.days[day];
      const copies = [...days].filter((day) => live.days[day] !== undefined).map((day) => [day, structuredClone(live.days[day]!)] as const);
      try {
        await this.documents.get(tenantId)!.update((data) => {
          for (const [day, tokens] of copies) data.days[day] = tokens;
          for (const day of Object.keys(data.days)) if (day < oldest) delete data.days[day];
        });
      } catch (error) {
        for (const day of days) this.touch(tenantId, day);
        this.deps.logger.error({ err: error, tenantId }, 'search analytics write failed');
      }
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}

export function dayOf(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

/** Sets `key` as the newest entry, letting the oldest go past `cap`. */
function remember<V>(map: Map<string, V>, key: string, value: V, cap: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > cap) map.delete(map.keys().next().value!);
}

/**
 * The entry `key` of a record keyed by what shoppers type, made when missing. Own properties only, set
 * by definition: a query such as `__proto__` or `constructor` must be an ordinary key, never reach
 * Object.prototype (a plain `record[key] ??= {}` would hand back, and then change, the prototype).
 */
function ownEntry<T>(record: Record<string, T>, key: string, make: () => T): T {
  if (Object.hasOwn(record, key)) return record[key]!;
  const value = make();
  Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
  return value;
}
