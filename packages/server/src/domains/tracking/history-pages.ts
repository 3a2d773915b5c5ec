/**
 * Pages of a profile's whole activity history. Memory keeps each profile's newest 500 activities and a
 * count of all of them; a page that reaches past the newest 500 is read from the tenant's log, one such
 * read at a time per tenant so that deep pages cannot pile up scans of the log.
 */
import { isLogRecord, type LoggedActivity } from './activity-record.js';
import { matchesHistoryFilters, type HistoryFilters } from './profile-history.js';
import type { TenantActivities } from './tenant-activities.js';

export interface HistoryPageResult {
  total: number;
  activities: LoggedActivity[];
}

const scans = new WeakMap<TenantActivities, Promise<unknown>>();
/** Per tenant, the last few log reads: a shopper paging back through a long history reads the log once. */
const recent = new WeakMap<TenantActivities, Map<string, { count: number; found: LoggedActivity[] }>>();
const CACHED_READS = 16;
/** Reads larger than this are not kept (the next deep page reads the log again). */
const CACHED_ACTIVITIES = 20_000;

export async function readHistoryPage(
  state: TenantActivities,
  profileId: string,
  filters: HistoryFilters,
  range: { offset: number; limit: number },
): Promise<HistoryPageResult> {
  const inMemory = state.history.list(profileId).filter((a) => matchesHistoryFilters(a, filters));
  const total = Math.max(state.history.count(profileId, filters), inMemory.length);
  const end = Math.min(range.offset + range.limit, total);
  if (end <= inMemory.length || inMemory.length === total) return { total, activities: inMemory.slice(range.offset, range.offset + range.limit) };
  const all = await cachedScan(state, profileId, filters, total);
  return { total: Math.max(total, all.length), activities: all.slice(range.offset, range.offset + range.limit) };
}

/** A read stays good while the profile's count is unchanged (activities of other shoppers do not matter). */
async function cachedScan(state: TenantActivities, profileId: string, filters: HistoryFilters, count: number): Promise<LoggedActivity[]> {
  let cache = recent.get(state);
  if (cache === undefined) recent.set(state, (cache = new Map()));
  const key = JSON.stringify([profileId, filters.types ?? null, filters.verbs ?? null]);
  const hit = cache.get(key);
  if (hit !== undefined && hit.count === count) return hit.found;
  const found = await serialised(state, () => scanLog(state, profileId, filters));
  cache.delete(key);
  if (found.length <= CACHED_ACTIVITIES) cache.set(key, { count, found });
  if (cache.size > CACHED_READS) cache.delete(cache.keys().next().value!);
  return found;
}

/** Every logged activity of the profile (or of profiles merged into it) matching `filters`, newest first. */
async function scanLog(state: TenantActivities, profileId: string, filters: HistoryFilters): Promise<LoggedActivity[]> {
  const found: LoggedActivity[] = [];
  await state.log.scan({ field: 'profileId', values: state.history.loggedIds(profileId) }, (record) => {
    if (!isLogRecord(record) || record.kind !== 'activity' || record.tenant !== state.tenant) return;
    if (state.profiles.canonicalId(record.profileId) !== profileId || !matchesHistoryFilters(record, filters)) return;
    found.push(record);
  });
  return found.reverse();
}

function serialised<T>(state: TenantActivities, run: () => Promise<T>): Promise<T> {
  const previous = scans.get(state) ?? Promise.resolve();
  const next = previous.then(run, run);
  scans.set(state, next.catch(() => undefined));
  return next;
}
