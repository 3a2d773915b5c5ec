/**
 * Search analytics per tenant, day and query: searches, zero-result and corrected searches (from the
 * search requests, which are not activities), and clicks and conversions (from the activity log).
 *
 * This is the console's own adapter until the search-relevance work's query analytics land in main;
 * the console reads it only through `topQueries` / `zeroResultQueries`, so swapping the source is local.
 * Search counts are not in the activity log, so they are kept in a stored document, written at most
 * every FLUSH_MS and on shutdown; click and conversion counts are rebuilt from the log at start.
 */
import type { LogRecord } from '../activities/activity-record.js';
import type { QuerySpelling } from '../activities/search-queries.js';
import type { DocumentStore, StoredDocument } from '../store/document-store.js';
import { BoundedLru } from './bounded-lru.js';
import { DAY_MS } from './widget-analytics.js';

/** Distinct queries counted per tenant and day; later new ones are counted in `otherSearches`. */
export const MAX_QUERIES_PER_DAY = 10_000;
export const QUERY_DAYS_KEPT = 90;
const FLUSH_MS = 10_000;

interface SearchCounts {
  searches: number;
  zeroResults: number;
  corrected: number;
  lastResultCount: number;
  lastAt: number;
}

interface StoredSearches {
  /** day number → query → counts */
  days: Record<string, Record<string, SearchCounts>>;
  otherSearches: Record<string, number>;
}

export interface QueryRow {
  query: string;
  searches: number;
  zeroResults: number;
  corrected: number;
  lastResultCount: number;
  clicks: number;
  conversions: number;
  /** clicks ÷ searches (0 without searches). */
  clickThrough: number;
  conversionRate: number;
}

/** Queries key plain objects (stored as JSON): `__proto__` would change the object's prototype instead, so it is not counted. */
const normalize = (query: string) => {
  const key = query.trim().replace(/\s+/g, ' ').toLowerCase().slice(0, 200);
  return key === '__proto__' ? '' : key;
};

class TenantQueries {
  /** day → query → [clicks, conversions]; rebuilt from the log. */
  readonly engagement = new Map<number, Map<string, [number, number]>>();
  readonly clickedFrom = new BoundedLru<string>(20_000);
  dirty = false;
  /** The counts as they are now; the stored document gets a copy at each flush (it is read-only outside update). */
  readonly live: StoredSearches;
  constructor(readonly doc: StoredDocument<StoredSearches>) {
    this.live = structuredClone(doc.data);
  }
}

export class QueryAnalytics {
  private readonly tenants = new Map<string, TenantQueries>();
  private timer: NodeJS.Timeout | undefined;

  private constructor(private readonly now: () => number) {}

  static async open(deps: { store: DocumentStore; tenantIds: readonly string[]; now: () => number }): Promise<QueryAnalytics> {
    const analytics = new QueryAnalytics(deps.now);
    for (const tenantId of deps.tenantIds) {
      const doc = await deps.store.document<StoredSearches>(`analytics/queries/${tenantId}`, () => ({ days: {}, otherSearches: {} }));
      analytics.tenants.set(tenantId, new TenantQueries(doc));
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
    const data = state.live;
    const day = String(Math.floor(at / DAY_MS));
    const queries = (data.days[day] ??= {});
    let counts = Object.hasOwn(queries, key) ? queries[key] : undefined;
    if (counts === undefined) {
      if (Object.keys(queries).length >= MAX_QUERIES_PER_DAY) {
        data.otherSearches[day] = (data.otherSearches[day] ?? 0) + 1;
        state.dirty = true;
        return;
      }
      queries[key] = counts = { searches: 0, zeroResults: 0, corrected: 0, lastResultCount: 0, lastAt: 0 };
    }
    counts.searches++;
    if (resultCount === 0) counts.zeroResults++;
    if (spelling === 'corrected') counts.corrected++;
    counts.lastResultCount = resultCount;
    counts.lastAt = at;
    state.dirty = true;
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
      for (const [query, counts] of Object.entries(state.live.days[String(day)] ?? {})) {
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
    const data = this.tenants.get(tenantId)?.live;
    const out: Array<{ day: number; searches: number; zeroResults: number }> = [];
    for (let day = fromDay; day <= toDay; day++) {
      let searches = data?.otherSearches[String(day)] ?? 0;
      let zeroResults = 0;
      for (const counts of Object.values(data?.days[String(day)] ?? {})) {
        searches += counts.searches;
        zeroResults += counts.zeroResults;
      }
      out.push({ day, searches, zeroResults });
    }
    return out;
  }

  /** Writes the search counts kept since the last flush, and forgets days past QUERY_DAYS_KEPT. */
  async flush(): Promise<void> {
    const today = Math.floor(this.now() / DAY_MS);
    for (const state of this.tenants.values()) {
      if (!state.dirty) continue;
      state.dirty = false;
      const live = state.live;
      for (const day of Object.keys(live.days)) if (Number(day) < today - QUERY_DAYS_KEPT) delete live.days[day];
      for (const day of Object.keys(live.otherSearches)) if (Number(day) < today - QUERY_DAYS_KEPT) delete live.otherSearches[day];
      const copy = structuredClone(live);
      await state.doc.update((data) => {
        data.days = copy.days;
        data.otherSearches = copy.otherSearches;
      });
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
