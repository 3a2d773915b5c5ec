/**
 * What shoppers searched, per search token and UTC day: the one source of query analytics, read by
 * the search-analytics API and the console (admin analytics). Searches, zero-result and corrected
 * queries come from the search requests; click-through and conversion from activities. A click (or
 * product view) names the search it came from as the interface says, by `sourceId` = the search's
 * response id; when that id is not a search this process remembers (a restart since, another
 * process) and the activity carries the typed keyword in `metadata.query`, the click counts for that
 * query on that day, once per shopper. Conversion is an `add-to-cart` or `purchase` from that search,
 * or of an item the same shopper clicked from it. Kept in one store document per tenant, written
 * every few seconds and at shutdown, so the counts survive a restart.
 *
 * Memory is bounded by design: at most MAX_QUERIES_PER_DAY queries per token and day (later new
 * queries are counted under OTHER_QUERIES), DAYS_KEPT days, and the last RECENT_SEARCHES search ids
 * and RECENT_CLICKS clicks remembered for attribution, and the last RECENT_TYPING_SEARCHES searches made
 * while typing, uncounted until clicked (process-wide; older ones are let go first).
 */
import { statelessPart, type ActivityAggregate } from '../../tracking/activity-aggregate.js';
import { isVerifiedAttribution, type LoggedActivity } from '../../tracking/activity-record.js';
import { normalizeQuery } from './search-queries.js';
import type { Clock } from '../../../platform/clock.js';
import type { Logger } from '../../../platform/logger.js';
import type { DocumentStore, StoredDocument } from '../../../platform/store/document-store.js';
import { isConversion, isPurchase } from '../../tracking/verbs.js';
import type { QueryAnalyticsRow } from '@discovery-kit/protocol';
import { deleteOldest } from '../../../platform/collections/oldest-first.js';

export const MAX_QUERIES_PER_DAY = 1_000;
export const OTHER_QUERIES = '(other queries)';
export const DAYS_KEPT = 90;
export const MAX_QUERY_CHARS = 200;
const RECENT_SEARCHES = 100_000;
const RECENT_CLICKS = 100_000;
const RECENT_TYPING_SEARCHES = 20_000;
/** Pending counts reach the store this often. */
const FLUSH_MS = 5_000;

const CLICK_VERBS = new Set(['click', 'view']);

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

/** One query over several days and every token of a tenant, for the console: the published row before its ratios. */
export type QuerySummary = Omit<QueryAnalyticsRow, 'clickThrough' | 'conversionRate'>;

export interface SearchDayTotals {
  searches: number;
  zeroResults: number;
  clicks: number;
  conversions: number;
  /** In cents. */
  revenue: number;
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
  /** As-you-type searches not counted yet, by response id (`recordTypingSearch`). */
  private readonly typingSearches = new Map<string, SearchOutcome>();
  private timer: NodeJS.Timeout | undefined;
  /** Handed to tracking with the other aggregates so that an erasure reaches the clicks remembered here (new activities come through `recordActivity`). */
  readonly erasure: ActivityAggregate = { fold: () => undefined, forgetProfiles: (tenantId, profileIds) => this.forgetProfiles(tenantId, profileIds), snapshot: statelessPart('search-analytics') };

  /** The day records known to hold MAX_QUERIES_PER_DAY queries (`full`). */
  private readonly fullRecords = new WeakSet<object>();

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
    if (!Object.hasOwn(queries, key) && this.full(queries)) key = OTHER_QUERIES;
    const stats = ownEntry<QueryDayStats>(queries, key, () => ({ searches: 0, zeroResults: 0, corrected: 0, relaxed: 0, clicks: 0, conversions: 0 }));
    stats.searches++;
    if (outcome.count === 0) stats.zeroResults++;
    if (outcome.corrected !== undefined) {
      stats.corrected++;
      if (key !== OTHER_QUERIES) stats.correctedTo = outcome.corrected;
    }
    if (outcome.relaxed) stats.relaxed++;
    stats.lastResultCount = outcome.count;
    stats.lastAt = this.deps.clock.now();
    remember(this.recentSearches, outcome.id, { tenantId: outcome.tenantId, day, stats, clicked: false, converted: false }, RECENT_SEARCHES);
    this.touch(outcome.tenantId, day);
  }

  /**
   * A search made while the shopper typed (`options.asYouType`): "t", "te", "tea" are not searches
   * anybody meant. It is remembered, uncounted, and counted as a search once a result of it is clicked
   * (the shopper stopped there); the search they submit is counted as any search.
   */
  recordTypingSearch(outcome: SearchOutcome): void {
    remember(this.typingSearches, outcome.id, outcome, RECENT_TYPING_SEARCHES);
  }

  /**
   * Whether a token's queries of a day number MAX_QUERIES_PER_DAY. A record only grows (days go whole),
   * so a full one is remembered: counting its keys again for every later new query made an array of
   * a thousand keys per search on a busy day.
   */
  private full(queries: Record<string, QueryDayStats>): boolean {
    if (this.fullRecords.has(queries)) return true;
    if (Object.keys(queries).length < MAX_QUERIES_PER_DAY) return false;
    this.fullRecords.add(queries);
    return true;
  }

  /** Folds one newly recorded activity (the activity service calls it once the activity is durable). */
  recordActivity(activity: LoggedActivity): void {
    // A response id never issued to this tenant (or a widget id alone) credits no search, not even by its query.
    if (activity.attribution !== undefined && !isVerifiedAttribution(activity)) return;
    if (activity.sourceId === undefined && activity.query === undefined && !isConversion(activity.verb)) return;
    if (activity.type === 'page') return;
    const clickKey = `${activity.tenant}\u0000${activity.profileId}\u0000${activity.itemId}`;
    if (CLICK_VERBS.has(activity.verb)) {
      const typed = activity.sourceId === undefined ? undefined : this.typingSearches.get(activity.sourceId);
      if (typed !== undefined && typed.tenantId === activity.tenant) {
        this.typingSearches.delete(activity.sourceId!);
        this.recordSearch(typed);
      }
      const ref = this.searchOf(activity);
      if (ref === undefined) return;
      remember(this.recentClicks, clickKey, ref.id, RECENT_CLICKS);
      if (ref.search.clicked) return;
      ref.search.clicked = true;
      ref.search.stats.clicks++;
      this.touch(ref.search.tenantId, ref.search.day);
      return;
    }
    if (!isConversion(activity.verb)) return;
    const direct = activity.sourceId === undefined ? undefined : this.recentSearches.get(activity.sourceId);
    const viaClick = this.recentClicks.get(clickKey);
    const search = direct ?? (viaClick === undefined ? undefined : this.recentSearches.get(viaClick));
    if (search === undefined || search.tenantId !== activity.tenant) return;
    // Every purchase line from the search earns it revenue; the search converts once.
    if (isPurchase(activity.verb)) search.stats.revenue = (search.stats.revenue ?? 0) + (activity.price ?? 0) * (activity.quantity ?? 1);
    if (!search.converted) {
      search.converted = true;
      search.stats.conversions++;
    }
    this.touch(search.tenantId, search.day);
  }

  /**
   * The search a click came from: the one its `sourceId` names, else (a recommendation's click aside)
   * today's stats of the query in `metadata.query`, as one shopper's search of it, so that a shopper
   * clicking five results of "lamp" counts one search with a click, as by `sourceId`.
   */
  private searchOf(activity: LoggedActivity): { id: string; search: RecentSearch } | undefined {
    const known = activity.sourceId === undefined ? undefined : this.recentSearches.get(activity.sourceId);
    if (known !== undefined) return known.tenantId === activity.tenant ? { id: activity.sourceId!, search: known } : undefined;
    if (activity.query === undefined || activity.widgetId !== undefined || activity.recommendationId !== undefined) return undefined;
    const doc = this.live.get(activity.tenant);
    const day = dayOf(this.deps.clock.now());
    const query = normalizeQuery(activity.query).slice(0, MAX_QUERY_CHARS);
    const tokens = doc !== undefined && Object.hasOwn(doc.days, day) ? doc.days[day]! : {};
    const stats = Object.values(tokens).find((queries) => Object.hasOwn(queries, query))?.[query];
    if (stats === undefined || query === OTHER_QUERIES) return undefined;
    const id = `query\u0000${activity.tenant}\u0000${activity.profileId}\u0000${day}\u0000${query}`;
    let search = this.recentSearches.get(id);
    if (search === undefined) remember(this.recentSearches, id, (search = { tenantId: activity.tenant, day, stats, clicked: false, converted: false }), RECENT_SEARCHES);
    return { id, search };
  }

  /** Every query of the tenant from `from` to `to` (inclusive, YYYY-MM-DD), its tokens summed, most searched first. */
  summary(tenantId: string, from: string, to: string): QuerySummary[] {
    const rows = new Map<string, QuerySummary & { lastAt: number }>();
    for (const { queries } of this.tenantDays(tenantId, from, to)) {
      for (const [query, stats] of Object.entries(queries)) {
        if (query === OTHER_QUERIES) continue;
        let row = rows.get(query);
        if (row === undefined) rows.set(query, (row = { query, searches: 0, zeroResults: 0, corrected: 0, lastResultCount: -1, clicks: 0, conversions: 0, lastAt: -1 }));
        row.searches += stats.searches;
        row.zeroResults += stats.zeroResults;
        row.corrected += stats.corrected;
        row.clicks += stats.clicks;
        row.conversions += stats.conversions;
        // Days stored before the latest result count was kept: whether the last search found anything.
        const lastAt = stats.lastAt ?? 0;
        if (lastAt >= row.lastAt) {
          row.lastAt = lastAt;
          row.lastResultCount = stats.lastResultCount ?? (stats.zeroResults === stats.searches ? 0 : 1);
        }
      }
    }
    return [...rows.values()].map(({ lastAt: _lastAt, ...row }) => row).sort((a, b) => b.searches - a.searches || (a.query < b.query ? -1 : 1));
  }

  /** Searches, zero-result searches, clicks, conversions and revenue per day from `from` to `to` (inclusive), every token summed, for the overview. */
  searchesPerDay(tenantId: string, from: string, to: string): Map<string, SearchDayTotals> {
    const out = new Map<string, SearchDayTotals>();
    for (const { day, queries } of this.tenantDays(tenantId, from, to)) {
      let counts = out.get(day);
      if (counts === undefined) out.set(day, (counts = { searches: 0, zeroResults: 0, clicks: 0, conversions: 0, revenue: 0 }));
      for (const stats of Object.values(queries)) {
        counts.searches += stats.searches;
        counts.zeroResults += stats.zeroResults;
        counts.clicks += stats.clicks;
        counts.conversions += stats.conversions;
        counts.revenue += stats.revenue ?? 0;
      }
    }
    return out;
  }

  private *tenantDays(tenantId: string, from: string, to: string): Iterable<{ day: string; queries: Record<string, QueryDayStats> }> {
    const doc = this.live.get(tenantId);
    if (doc === undefined) return;
    for (const [day, tokens] of Object.entries(doc.days)) {
      if (day < from || day > to) continue;
      for (const queries of Object.values(tokens)) yield { day, queries };
    }
  }

  /** Erasure: which search each of these profiles clicked an item from is forgotten; the day counts stay, without a person. */
  forgetProfiles(tenantId: string, profileIds: readonly string[]): void {
    for (const profileId of profileIds) {
      const prefix = `${tenantId}\u0000${profileId}\u0000`;
      for (const key of [...this.recentClicks.keys()]) if (key.startsWith(prefix)) this.recentClicks.delete(key);
      for (const key of [...this.recentSearches.keys()]) if (key.startsWith(`query\u0000${prefix}`)) this.recentSearches.delete(key);
    }
  }

  /** One token's days from `from` to `to` (inclusive, YYYY-MM-DD). */
  report(tenantId: string, token: string, from: string, to: string): { day: string; queries: Record<string, QueryDayStats> }[] {
    const doc = this.live.get(tenantId);
    if (doc === undefined) return [];
    return Object.keys(doc.days)
      .filter((day) => day >= from && day <= to)
      .sort()
      .map((day) => ({ day, queries: withoutLastSearch(doc.days[day]![token] ?? {}) }));
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

/** The day's figures without what only the console's zero-result list uses (Object.fromEntries defines keys: `__proto__` stays a query). */
function withoutLastSearch(queries: Record<string, QueryDayStats>): Record<string, QueryDayStats> {
  return Object.fromEntries(Object.entries(queries).map(([query, { lastResultCount: _count, lastAt: _at, ...stats }]) => [query, stats]));
}

export function dayOf(at: number): string {
  // Every search asks for its day: the last answer is kept with the span it covers (a UTC day is
  // always 86,400,000 ms of JavaScript time, which has no leap seconds).
  if (at >= lastDay.start && at < lastDay.start + DAY_MS) return lastDay.day;
  const day = new Date(at).toISOString().slice(0, 10);
  if (Number.isFinite(at)) lastDay = { start: Math.floor(at / DAY_MS) * DAY_MS, day };
  return day;
}

const DAY_MS = 86_400_000;
let lastDay = { start: Number.NaN, day: '' };

/** Sets `key` as the newest entry, letting the oldest go past `cap`. */
function remember<V>(map: Map<string, V>, key: string, value: V, cap: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > cap) deleteOldest(map);
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
