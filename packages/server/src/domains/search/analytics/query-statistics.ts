/**
 * Autocomplete's query statistics for every tenant (search-queries.ts holds one tenant's): results-page
 * views folded from the activity log (handed to tracking as an `ActivityAggregate`), and searches
 * counted as the search API answers them. Search owns these numbers (query analytics, for people,
 * are query-analytics.ts).
 */
import type { Clock } from '../../../platform/clock.js';
import type { ActivityAggregate, SnapshotPart } from '../../tracking/activity-aggregate.js';
import type { LogRecord } from '../../tracking/activity-record.js';
import { SearchQueries, type QuerySpelling, type QuerySuggestion, type SavedQuery } from './search-queries.js';

export class QueryStatistics implements ActivityAggregate {
  private readonly tenants = new Map<string, SearchQueries>();

  constructor(private readonly clock: Clock) {}

  /** Saved with the activity state: views come from the log, and searches (not logged) come back too. */
  readonly snapshot: SnapshotPart = {
    name: 'search-queries',
    version: 1,
    save: (tenantId) => this.tenants.get(tenantId)?.save() ?? [],
    restore: (tenantId, chunk) => this.tenant(tenantId).restore(chunk as SavedQuery[]),
    clear: (tenantId) => void this.tenants.delete(tenantId),
  };

  /** A results-page view that carries the query it shows counts for that query and shopper. */
  fold(tenantId: string, record: LogRecord, profileId: string | undefined): void {
    if (record.kind !== 'activity' || record.type !== 'page' || record.query === undefined) return;
    this.tenant(tenantId).recordView(record.query, record.timestamp, profileId ?? record.profileId);
  }

  forgetProfiles(tenantId: string, profileIds: readonly string[]): void {
    const queries = this.tenants.get(tenantId);
    if (queries !== undefined) for (const profileId of profileIds) queries.forgetShopper(profileId);
  }

  /**
   * Counts a query with its number of results and how its words matched. Kept in memory, not logged:
   * a search is not a shopper activity, and a disk write per search request would cost more than the
   * search (the results page view the storefront sends is logged durably).
   */
  recordSearch(tenantId: string, query: string, resultCount: number, spelling?: QuerySpelling): void {
    this.tenant(tenantId).recordSearch(query, this.clock.now(), resultCount, spelling);
  }

  /** Search counts kept by search analytics, restored at start: searches are not logged, so the log cannot give them back. */
  restoreSearches(tenantId: string, query: string, at: number, count: number): void {
    this.tenant(tenantId).restoreSearches(query, at, count);
  }

  /** Autocomplete's candidates: earlier queries starting with `prefix`, most viewed within the window first. */
  suggestQueries(tenantId: string, prefix: string, options: { sinceDays?: number; limit?: number; minShoppers?: number; accept?: (candidate: QuerySuggestion) => boolean } = {}): QuerySuggestion[] {
    return this.tenant(tenantId).suggest(prefix, {
      now: this.clock.now(),
      sinceDays: options.sinceDays ?? 7,
      limit: options.limit ?? 10,
      minShoppers: options.minShoppers,
      accept: options.accept,
    });
  }

  private tenant(tenantId: string): SearchQueries {
    let queries = this.tenants.get(tenantId);
    if (queries === undefined) this.tenants.set(tenantId, (queries = new SearchQueries()));
    return queries;
  }
}
