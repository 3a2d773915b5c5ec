/** Search queries shoppers typed, with how often and what they found: what autocomplete suggests. */
import { DAY_MS } from './popularity.js';

interface QueryStats {
  query: string;
  byDay: Map<number, number>;
  lastResultCount: number | undefined;
}

export interface QuerySuggestion {
  query: string;
  count: number;
  resultCount: number | undefined;
}

export function normalizeQuery(query: string): string {
  return query.trim().replace(/\s+/g, ' ').toLowerCase();
}

export class SearchQueries {
  private readonly queries = new Map<string, QueryStats>();

  /** Counts one search (or a search-results page view); `resultCount` is the latest known number of hits. */
  record(query: string, at: number, resultCount?: number): void {
    const key = normalizeQuery(query);
    if (key === '') return;
    let stats = this.queries.get(key);
    if (stats === undefined) this.queries.set(key, (stats = { query: key, byDay: new Map(), lastResultCount: undefined }));
    const day = Math.floor(at / DAY_MS);
    stats.byDay.set(day, (stats.byDay.get(day) ?? 0) + 1);
    if (resultCount !== undefined) stats.lastResultCount = resultCount;
  }

  /** Queries starting with `prefix` over the last `sinceDays` days, most frequent first; queries that found nothing are left out. */
  suggest(prefix: string, options: { now: number; sinceDays: number; limit: number }): QuerySuggestion[] {
    const start = normalizeQuery(prefix);
    const firstDay = Math.floor(options.now / DAY_MS) - options.sinceDays + 1;
    const out: QuerySuggestion[] = [];
    for (const stats of this.queries.values()) {
      if (!stats.query.startsWith(start) || stats.lastResultCount === 0) continue;
      let count = 0;
      for (const [day, n] of stats.byDay) if (day >= firstDay) count += n;
      if (count > 0) out.push({ query: stats.query, count, resultCount: stats.lastResultCount });
    }
    return out.sort((a, b) => b.count - a.count || a.query.localeCompare(b.query)).slice(0, options.limit);
  }
}
