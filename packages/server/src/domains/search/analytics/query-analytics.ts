/**
 * What shoppers searched, per search token and UTC day: the one source of query analytics, read by
 * the search-analytics API and the console (admin analytics). Searches, zero-result and corrected
 * queries come from the search requests; click-through and conversion from activities. A click (or
 * product view) names the search it came from as the interface says, by `sourceId` = the search's
 * response id; when that id is not a search this process remembers (a restart since, another
 * process) and the activity carries the typed keyword in `metadata.query`, the click counts for that
 * query on that day, once per shopper. Conversion is an `add-to-cart` or `purchase` from that search,
 * or of an item the same shopper clicked from it. Kept in one store document per tenant: each process
 * adds what it counted since its last write every few seconds and at shutdown (analytics-days.ts), so
 * the counts survive a restart and several processes on one store add up; reads see the stored
 * counts, which include the other processes' writes, with this process's unwritten ones on top.
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
import { addDays, mergedQueries, ownEntry, ownValue, zeroStats, type Days, type QueryDayStats } from './analytics-days.js';

export type { QueryDayStats } from './analytics-days.js';

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

interface AnalyticsDocument {
  days: Days;
}

/** A search clicks and conversions are credited to: where its counts are (the query may be OTHER_QUERIES). */
interface RecentSearch {
  tenantId: string;
  day: string;
  token: string;
  query: string;
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
  /** Each tenant's stored counts: every process's written ones (another process's write replaces `data`). */
  private readonly documents = new Map<string, StoredDocument<AnalyticsDocument>>();
  /** Tenant → what this process counted since its last write: increments, added to the stored counts at flush. */
  private pending = new Map<string, Days>();
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
    }
    analytics.timer = setInterval(() => void analytics.flush(), FLUSH_MS);
    analytics.timer.unref();
    return analytics;
  }

  /** Searches per query and day, as persisted: autocomplete restores its search counts from them at start. */
  *searchCounts(tenantId: string): Iterable<{ day: string; query: string; searches: number }> {
    for (const { day, queries } of this.tenantDays(tenantId, '', '\uffff')) {
      for (const [query, stats] of Object.entries(queries)) if (query !== OTHER_QUERIES) yield { day, query, searches: stats.searches };
    }
  }

  recordSearch(outcome: SearchOutcome): void {
    const doc = this.documents.get(outcome.tenantId);
    if (doc === undefined) return;
    const day = dayOf(this.deps.clock.now());
    const stored = ownValue(ownValue(doc.data.days, day), outcome.token);
    const queries = ownEntry(ownEntry(this.pendingDays(outcome.tenantId), day, () => ({})), outcome.token, () => ({}));
    // A query is kept to its first MAX_QUERY_CHARS characters: a 1,000-character query costs no more.
    let key = outcome.query.slice(0, MAX_QUERY_CHARS);
    if (!Object.hasOwn(queries, key) && (stored === undefined || !Object.hasOwn(stored, key)) && (this.full(queries) || (stored !== undefined && this.full(stored)))) key = OTHER_QUERIES;
    const stats = ownEntry<QueryDayStats>(queries, key, zeroStats);
    stats.searches++;
    if (outcome.count === 0) stats.zeroResults++;
    if (outcome.corrected !== undefined) {
      stats.corrected++;
      if (key !== OTHER_QUERIES) stats.correctedTo = outcome.corrected;
    }
    if (outcome.relaxed) stats.relaxed++;
    stats.lastResultCount = outcome.count;
    stats.lastAt = this.deps.clock.now();
    remember(this.recentSearches, outcome.id, { tenantId: outcome.tenantId, day, token: outcome.token, query: key, clicked: false, converted: false }, RECENT_SEARCHES);
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
   * Whether a token's queries of a day number MAX_QUERIES_PER_DAY. A record only grows (days go whole;
   * a stored one another process wrote is a new record), so a full one is remembered: counting its
   * keys again for every later new query made an array of a thousand keys per search on a busy day.
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
      this.countsOf(ref.search).clicks++;
      return;
    }
    if (!isConversion(activity.verb)) return;
    const direct = activity.sourceId === undefined ? undefined : this.recentSearches.get(activity.sourceId);
    const viaClick = this.recentClicks.get(clickKey);
    const search = direct ?? (viaClick === undefined ? undefined : this.recentSearches.get(viaClick));
    if (search === undefined || search.tenantId !== activity.tenant) return;
    // Every purchase line from the search earns it revenue; the search converts once.
    const counts = this.countsOf(search);
    if (isPurchase(activity.verb)) counts.revenue = (counts.revenue ?? 0) + (activity.price ?? 0) * (activity.quantity ?? 1);
    if (!search.converted) {
      search.converted = true;
      counts.conversions++;
    }
  }

  /** This process's increments for a search's query and day, to add clicks and conversions to. */
  private countsOf(search: RecentSearch): QueryDayStats {
    const tokens = ownEntry(this.pendingDays(search.tenantId), search.day, () => ({}));
    return ownEntry(ownEntry(tokens, search.token, () => ({})), search.query, zeroStats);
  }

  private pendingDays(tenantId: string): Days {
    let days = this.pending.get(tenantId);
    if (days === undefined) this.pending.set(tenantId, (days = {}));
    return days;
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
    const day = dayOf(this.deps.clock.now());
    const query = normalizeQuery(activity.query).slice(0, MAX_QUERY_CHARS);
    if (query === OTHER_QUERIES) return undefined;
    // The query searched today (here or, once written, on another process) under some token.
    const holding = [ownValue(this.documents.get(activity.tenant)?.data.days, day), ownValue(this.pending.get(activity.tenant), day)];
    const token = holding.flatMap((tokens) => Object.entries(tokens ?? {})).find(([, queries]) => Object.hasOwn(queries, query))?.[0];
    if (token === undefined) return undefined;
    const id = `query\u0000${activity.tenant}\u0000${activity.profileId}\u0000${day}\u0000${query}`;
    let search = this.recentSearches.get(id);
    if (search === undefined) remember(this.recentSearches, id, (search = { tenantId: activity.tenant, day, token, query, clicked: false, converted: false }), RECENT_SEARCHES);
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

  /**
   * Every token's (or only `onlyToken`'s) queries of each day from `from` to `to`: the stored counts with
   * this process's unwritten ones on top. A day with none of the token's queries gives it an empty record.
   */
  private *tenantDays(tenantId: string, from: string, to: string, onlyToken?: string): Iterable<{ day: string; queries: Record<string, QueryDayStats> }> {
    const stored = this.documents.get(tenantId)?.data.days;
    if (stored === undefined) return;
    const pending = this.pending.get(tenantId);
    for (const day of new Set([...Object.keys(stored), ...Object.keys(pending ?? {})])) {
      if (day < from || day > to) continue;
      const [storedTokens, pendingTokens] = [ownValue(stored, day), ownValue(pending, day)];
      const tokens = onlyToken === undefined ? new Set([...Object.keys(storedTokens ?? {}), ...Object.keys(pendingTokens ?? {})]) : [onlyToken];
      for (const token of tokens) yield { day, queries: mergedQueries(ownValue(storedTokens, token), ownValue(pendingTokens, token)) };
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
    return [...this.tenantDays(tenantId, from, to, token)].sort((a, b) => (a.day < b.day ? -1 : 1)).map(({ day, queries }) => ({ day, queries: withoutLastSearch(queries) }));
  }

  /** Writes the days whose counts changed, and lets days past DAYS_KEPT go. */
  async flush(): Promise<void> {
    const oldest = dayOf(this.deps.clock.now() - DAYS_KEPT * 24 * 60 * 60 * 1000);
    const taken = this.pending;
    this.pending = new Map();
    for (const [tenantId, days] of taken) {
      try {
        // Added inside the update: on a shared store it runs on the latest stored counts, other processes' included.
        await this.documents.get(tenantId)!.update((data) => {
          addDays(data.days, days, MAX_QUERIES_PER_DAY, OTHER_QUERIES);
          for (const day of Object.keys(data.days)) if (day < oldest) delete data.days[day];
        });
      } catch (error) {
        // Kept for the next write, with what was counted meanwhile.
        addDays(this.pendingDays(tenantId), days, MAX_QUERIES_PER_DAY, OTHER_QUERIES);
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
