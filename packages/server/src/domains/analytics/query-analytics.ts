/**
 * Search analytics per tenant, day and query: searches, zero-result and corrected searches (from the
 * search requests, which are not activities), and clicks and conversions (from the activity log).
 *
 * This is the console's own adapter until the search-relevance work's query analytics land in main;
 * the console reads it only through `topQueries` / `zeroResultQueries`, so swapping the source is local.
 * Search counts are not in the activity log, so they are kept in stored documents, one per tenant and
 * day (a flush rewrites today's, not the history), written at most every FLUSH_MS and on shutdown;
 * click and conversion counts are rebuilt from the log at start.
 */
import type { QueryAnalyticsRow } from '@discovery-kit/protocol';
import type { LogRecord } from '../tracking/activity-record.js';
import type { ActivityAggregate, SnapshotPart } from '../tracking/activity-aggregate.js';
import type { QuerySpelling } from '../search/search-queries.js';
import type { DocumentStore } from '../../platform/store/document-store.js';
import { BoundedLru } from '../../platform/collections/bounded-lru.js';
import { DAY_MS } from '../../platform/clock.js';

/** Distinct queries counted per tenant and day; later new ones are counted in `otherSearches`. */
export const MAX_QUERIES_PER_DAY = 10_000;
export const QUERY_DAYS_KEPT = 90;
const FLUSH_MS = 10_000;

const emptyDay = (): StoredDay => ({ queries: {}, otherSearches: 0 });

interface SearchCounts {
  searches: number;
  zeroResults: number;
  corrected: number;
  lastResultCount: number;
  lastAt: number;
}

/** One tenant's searches of one day. */
interface StoredDay {
  queries: Record<string, SearchCounts>;
  /** Searches of new queries past MAX_QUERIES_PER_DAY. */
  otherSearches: number;
}

/** One query's figures, as the admin API answers them (the protocol's type). */
export type QueryRow = QueryAnalyticsRow;

/** Queries key plain objects (stored as JSON): `__proto__` would change the object's prototype instead, so it is not counted. */
const normalize = (query: string) => {
  const key = query.trim().replace(/\s+/g, ' ').toLowerCase().slice(0, 200);
  return key === '__proto__' ? '' : key;
};

class TenantQueries {
  /** day → query → [clicks, conversions]; rebuilt from the log. */
  readonly engagement = new Map<number, Map<string, [number, number]>>();
  readonly clickedFrom = new BoundedLru<string>(20_000);
  /** The counts as they are now, by day number; a stored document gets a copy at each flush (it is read-only outside update). */
  readonly days = new Map<number, StoredDay>();
  readonly dirty = new Set<number>();
}

const dayDocument = (tenantId: string, day: number) => `analytics/queries/${tenantId}/${day}`;

type SavedEngagement = { engagement: Array<[number, Array<[string, [number, number]]>]>; clickedFrom: Array<[string, string]> };

export class QueryAnalytics implements ActivityAggregate {
  private readonly tenants = new Map<string, TenantQueries>();

  /** Clicks and conversions are folded from the log, so they are saved with the activity state; searches have their documents. */
  readonly snapshot: SnapshotPart = {
    name: 'query-analytics',
    version: 1,
    save: (tenantId) => {
      const state = this.tenants.get(tenantId);
      if (state === undefined) return [];
      const saved: SavedEngagement = { engagement: [...state.engagement].map(([day, queries]) => [day, [...queries].map(([q, c]) => [q, [c[0], c[1]]] as [string, [number, number]])]), clickedFrom: [...state.clickedFrom.entries()] };
      return [saved];
    },
    restore: (tenantId, chunk) => {
      const state = this.tenants.get(tenantId);
      if (state === undefined) return;
      const saved = chunk as SavedEngagement;
      for (const [day, queries] of saved.engagement) state.engagement.set(day, new Map(queries));
      for (const [key, query] of saved.clickedFrom) state.clickedFrom.set(key, query);
    },
    clear: (tenantId) => {
      const state = this.tenants.get(tenantId);
      if (state === undefined) return;
      state.engagement.clear();
      state.clickedFrom.clear();
    },
  };
  private timer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly store: DocumentStore,
    private readonly now: () => number,
  ) {}

  static async open(deps: { store: DocumentStore; tenantIds: readonly string[]; now: () => number }): Promise<QueryAnalytics> {
    const analytics = new QueryAnalytics(deps.store, deps.now);
    const oldest = Math.floor(deps.now() / DAY_MS) - QUERY_DAYS_KEPT;
    for (const tenantId of deps.tenantIds) {
      const state = new TenantQueries();
      for (const name of await deps.store.list(`analytics/queries/${tenantId}/`)) {
        const day = Number(name.slice(name.lastIndexOf('/') + 1));
        if (!Number.isInteger(day)) continue;
        if (day < oldest) {
          await deps.store.remove(name);
          continue;
        }
        const doc = await deps.store.document<StoredDay>(name, emptyDay);
        state.days.set(day, structuredClone(doc.data));
      }
      analytics.tenants.set(tenantId, state);
    }
    analytics.timer = setInterval(() => void analytics.flush().catch(() => undefined), FLUSH_MS);
    analytics.timer.unref();
    return analytics;
  }

  /** Registered on the activity service's searches: counts one search request. */
  readonly recordSearch = (tenantId: string, query: string, at: number, resultCount: number, spelling: QuerySpelling | undefined): void => {
    const state = this.tenants.get(tenantId);
    const key = normalize(query);
    if (state === undefined || key === '') return;
    const day = Math.floor(at / DAY_MS);
    let data = state.days.get(day);
    if (data === undefined) state.days.set(day, (data = emptyDay()));
    state.dirty.add(day);
    const queries = data.queries;
    let counts = Object.hasOwn(queries, key) ? queries[key] : undefined;
    if (counts === undefined) {
      if (Object.keys(queries).length >= MAX_QUERIES_PER_DAY) {
        data.otherSearches++;
        return;
      }
      counts = { searches: 0, zeroResults: 0, corrected: 0, lastResultCount: 0, lastAt: 0 };
      // Defined, not assigned: a query named `__proto__` is an ordinary key.
      Object.defineProperty(queries, key, { value: counts, writable: true, enumerable: true, configurable: true });
    }
    counts.searches++;
    if (resultCount === 0) counts.zeroResults++;
    if (spelling === 'corrected') counts.corrected++;
    counts.lastResultCount = resultCount;
    counts.lastAt = at;
  };

  /** Registered on the activity service: clicks on results of a query, and the carts and purchases that follow them. */
  readonly fold = (tenantId: string, record: LogRecord): void => {
    if (record.kind !== 'activity') return;
    const state = this.tenants.get(tenantId);
    if (state === undefined) return;
    const pair = `${record.profileId}|${record.itemId}`;
    let query: string | undefined;
    let slot: 0 | 1;
    if (record.verb === 'click' && record.query !== undefined && record.type !== 'page') {
      query = normalize(record.query);
      state.clickedFrom.set(pair, query);
      slot = 0;
    } else if (record.verb === 'add-to-cart' || record.verb === 'purchase' || record.verb === 'buy') {
      query = state.clickedFrom.get(pair);
      slot = 1;
    } else return;
    if (query === undefined || query === '') return;
    const day = Math.floor(record.timestamp / DAY_MS);
    const today = Math.floor(this.now() / DAY_MS);
    if (day < today - QUERY_DAYS_KEPT || day > today + 1) return;
    let queries = state.engagement.get(day);
    if (queries === undefined) state.engagement.set(day, (queries = new Map()));
    let counts = queries.get(query);
    if (counts === undefined) {
      if (queries.size >= MAX_QUERIES_PER_DAY) return;
      queries.set(query, (counts = [0, 0]));
    }
    counts[slot]++;
  };

  /** Every query of the last `days` days (today included), summed, most searched first. */
  queries(tenantId: string, days: number): QueryRow[] {
    const state = this.tenants.get(tenantId);
    if (state === undefined) return [];
    const today = Math.floor(this.now() / DAY_MS);
    const rows = new Map<string, QueryRow & { lastAt: number }>();
    const row = (query: string) => {
      let found = rows.get(query);
      if (found === undefined) {
        rows.set(query, (found = { query, searches: 0, zeroResults: 0, corrected: 0, lastResultCount: -1, clicks: 0, conversions: 0, clickThrough: 0, conversionRate: 0, lastAt: 0 }));
      }
      return found;
    };
    for (let day = today - days + 1; day <= today; day++) {
      for (const [query, counts] of Object.entries(state.days.get(day)?.queries ?? {})) {
        const r = row(query);
        r.searches += counts.searches;
        r.zeroResults += counts.zeroResults;
        r.corrected += counts.corrected;
        if (counts.lastAt >= r.lastAt) {
          r.lastAt = counts.lastAt;
          r.lastResultCount = counts.lastResultCount;
        }
      }
      for (const [query, [clicks, conversions]] of state.engagement.get(day) ?? []) {
        const r = row(query);
        r.clicks += clicks;
        r.conversions += conversions;
      }
    }
    const out: QueryRow[] = [];
    for (const { lastAt: _lastAt, ...r } of rows.values()) {
      out.push({ ...r, clickThrough: r.searches > 0 ? r.clicks / r.searches : 0, conversionRate: r.searches > 0 ? r.conversions / r.searches : 0 });
    }
    return out.sort((a, b) => b.searches - a.searches || (a.query < b.query ? -1 : 1));
  }

  /** Searches per day (oldest first), for the overview chart. */
  searchesPerDay(tenantId: string, fromDay: number, toDay: number): Array<{ day: number; searches: number; zeroResults: number }> {
    const state = this.tenants.get(tenantId);
    const out: Array<{ day: number; searches: number; zeroResults: number }> = [];
    for (let day = fromDay; day <= toDay; day++) {
      const data = state?.days.get(day);
      let searches = data?.otherSearches ?? 0;
      let zeroResults = 0;
      for (const counts of Object.values(data?.queries ?? {})) {
        searches += counts.searches;
        zeroResults += counts.zeroResults;
      }
      out.push({ day, searches, zeroResults });
    }
    return out;
  }

  /** Writes the days whose counts changed since the last flush, and forgets days past QUERY_DAYS_KEPT. */
  /** Erasure: the queries these profiles clicked items from are forgotten; counts per query stay, without a person. */
  forgetProfiles(tenantId: string, profileIds: readonly string[]): void {
    const state = this.tenants.get(tenantId);
    if (state !== undefined) for (const profileId of profileIds) state.clickedFrom.deletePrefix(`${profileId}|`);
  }

  async flush(): Promise<void> {
    const oldest = Math.floor(this.now() / DAY_MS) - QUERY_DAYS_KEPT;
    for (const [tenantId, state] of this.tenants) {
      for (const day of [...state.days.keys()]) {
        if (day >= oldest) continue;
        state.days.delete(day);
        state.dirty.delete(day);
        await this.store.remove(dayDocument(tenantId, day));
      }
      for (const day of [...state.dirty]) {
        state.dirty.delete(day);
        const copy = structuredClone(state.days.get(day)!);
        const doc = await this.store.document<StoredDay>(dayDocument(tenantId, day), emptyDay);
        await doc.update((data) => {
          data.queries = copy.queries;
          data.otherSearches = copy.otherSearches;
        });
      }
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
