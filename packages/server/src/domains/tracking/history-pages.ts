/**
 * Pages of a profile's whole activity history. Memory keeps each profile's newest 500 activities and a
 * count of all of them; a page that reaches past the newest 500 is read from the tenant's log, one such
 * read at a time per tenant so that deep pages cannot pile up scans of the log.
 */
import type { EventLog } from '../../platform/event-log/event-log.js';
import { isLogRecord, type LoggedActivity } from './activity-record.js';
import { matchesHistoryFilters, type HistoryFilters, type ProfileHistory } from './profile-history.js';
import type { ProfileDirectory } from './profiles.js';
import type { LogPositions } from './log-positions.js';
import { deleteOldest } from '../../platform/collections/oldest-first.js';

export interface HistoryPageResult {
  total: number;
  activities: LoggedActivity[];
}

const CACHED_READS = 16;
/** Profiles whose history was read back, with their count then: remembered for this many, oldest let go. */
const READ_BACK_MARKS = 10_000;
/** Reads larger than this are not kept (the next deep page reads the log again). */
const CACHED_ACTIVITIES = 20_000;

/** One tenant's history pages (TenantActivities holds one). */
export class HistoryPages {
  /** The log read in progress: reads run one at a time. */
  private scan: Promise<unknown> = Promise.resolve();
  /** The last few log reads: a shopper paging back through a long history reads the log once. */
  private readonly recent = new Map<string, { profileId: string; count: number; found: LoggedActivity[] }>();

  /** `positions` is undefined when the log finds a profile's records by itself (PostgreSQL's index on profileId). */
  constructor(private readonly state: { tenant: string; log: EventLog; history: ProfileHistory; profiles: ProfileDirectory; positions: LogPositions | undefined }) {}

  /**
   * Brings the profile's newest activities back into memory when they left it (evicted past
   * `historyInMemory`, or restored from a snapshot without them), so that `recently-viewed` and every
   * strategy reading the history see them. Reads only the segments the index names for the profile.
   */
  async readBack(profileId: string): Promise<void> {
    const { history } = this.state;
    // Counts are never lowered (retention drops records the counts still hold): a shopper whose log held
    // less than the count is not read again on every request, only once they have a new activity.
    const count = history.count(profileId);
    if (!history.missesNewest(profileId) || this.readBackAt.get(profileId) === count) return;
    const found = await this.serialised(async () => (history.missesNewest(profileId) ? this.scanLog(profileId, {}, undefined, 'newest') : undefined));
    if (found !== undefined) history.readmit(profileId, found.reverse());
    this.readBackAt.delete(profileId);
    if (!history.missesNewest(profileId)) return;
    this.readBackAt.set(profileId, count);
    if (this.readBackAt.size > READ_BACK_MARKS) deleteOldest(this.readBackAt);
  }

  /** Per profile read back, its count at the time (see readBack). */
  private readonly readBackAt = new Map<string, number>();

  async page(profileId: string, filters: HistoryFilters, range: { offset: number; limit: number }): Promise<HistoryPageResult> {
    const { history } = this.state;
    const inMemory = history.list(profileId).filter((a) => matchesHistoryFilters(a, filters));
    const total = Math.max(history.count(profileId, filters), inMemory.length);
    const end = Math.min(range.offset + range.limit, total);
    if (end <= inMemory.length || inMemory.length === total) return { total, activities: inMemory.slice(range.offset, range.offset + range.limit) };
    const all = await this.cachedScan(profileId, filters, total);
    return { total: Math.max(total, all.length), activities: all.slice(range.offset, range.offset + range.limit) };
  }

  /**
   * A page of the activities of `profileId` (a canonical profile) that were recorded under one of `ids`:
   * what one of its merged profiles shows. Per-id counts are not kept, so when memory does not hold the
   * whole history the log is read (and the read kept like the others).
   */
  async sharePage(profileId: string, ids: ReadonlySet<string>, filters: HistoryFilters, range: { offset: number; limit: number }): Promise<HistoryPageResult> {
    const { history } = this.state;
    const kept = history.list(profileId);
    const mine = (a: LoggedActivity) => ids.has(a.profileId) && matchesHistoryFilters(a, filters);
    const all = kept.length >= history.count(profileId) ? kept.filter(mine) : (await this.cachedScan(profileId, filters, history.count(profileId), ids)).filter(mine);
    return { total: all.length, activities: all.slice(range.offset, range.offset + range.limit) };
  }

  /** Erasure: reads kept for these profiles go. */
  forget(profileIds: ReadonlySet<string>): void {
    for (const id of profileIds) this.readBackAt.delete(id);
    for (const [key, read] of [...this.recent]) if (profileIds.has(read.profileId)) this.recent.delete(key);
  }

  /** A read stays good while the profile's count is unchanged (activities of other shoppers do not matter). */
  private async cachedScan(profileId: string, filters: HistoryFilters, count: number, only?: ReadonlySet<string>): Promise<LoggedActivity[]> {
    const key = JSON.stringify([profileId, filters.types ?? null, filters.verbs ?? null, only === undefined ? null : [...only].sort()]);
    const hit = this.recent.get(key);
    if (hit !== undefined && hit.count === count) return hit.found;
    const found = await this.serialised(() => this.scanLog(profileId, filters, only));
    this.recent.delete(key);
    if (found.length <= CACHED_ACTIVITIES) this.recent.set(key, { profileId, count, found });
    if (this.recent.size > CACHED_READS) deleteOldest(this.recent);
    return found;
  }

  /** Every logged activity of the profile (or of profiles merged into it) matching `filters`, newest first. */
  private async scanLog(profileId: string, filters: HistoryFilters, only?: ReadonlySet<string>, reach: 'all' | 'newest' = 'all'): Promise<LoggedActivity[]> {
    const { log, history, profiles, tenant, positions } = this.state;
    const found: LoggedActivity[] = [];
    const values = only === undefined ? history.loggedIds(profileId) : [...only];
    // The index names every segment holding the ids' records, or (partial) their newest ones: enough for the newest activities.
    const where = positions === undefined ? undefined : reach === 'newest' ? positions.newestOf(values) : positions.positionsOf(values);
    await log.scan({ field: 'profileId', values, ...(where === undefined ? {} : { positions: where }) }, (record) => {
      if (!isLogRecord(record) || record.kind !== 'activity' || record.tenant !== tenant) return;
      if (profiles.canonicalId(record.profileId) !== profileId || !matchesHistoryFilters(record, filters)) return;
      found.push(record);
    });
    return found.reverse();
  }

  private serialised<T>(run: () => Promise<T>): Promise<T> {
    const next = this.scan.then(run, run);
    this.scan = next.catch(() => undefined);
    return next;
  }
}
