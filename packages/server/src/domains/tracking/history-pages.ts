/**
 * Pages of a profile's whole activity history. Memory keeps each profile's newest 500 activities and a
 * count of all of them; a page that reaches past the newest 500 is read from the tenant's log, one such
 * read at a time per tenant so that deep pages cannot pile up scans of the log.
 */
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
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

/**
 * Every logged activity of the profile (or of profiles merged into it) matching `filters`, newest first.
 * Log lines are JSON.stringify output, so a profile id appears as `"profileId":"<id>"`: the reader looks
 * for that text in each chunk and parses only the lines holding it (a few thousand of a million).
 */
async function scanLog(state: TenantActivities, profileId: string, filters: HistoryFilters): Promise<LoggedActivity[]> {
  const needles = state.history.loggedIds(profileId).map((id) => Buffer.from(`"profileId":${JSON.stringify(id)}`));
  const found: LoggedActivity[] = [];
  const take = (line: string) => {
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      return; // a torn or unreadable line: replay skips it too
    }
    if (!isLogRecord(record) || record.kind !== 'activity' || record.tenant !== state.tenant) return;
    if (state.profiles.canonicalId(record.profileId) !== profileId || !matchesHistoryFilters(record, filters)) return;
    found.push(record);
  };
  for (const { name } of await state.log.segments()) {
    // Bytes, not text: searching the raw chunk skips decoding the whole log; only matched lines are decoded.
    let rest = Buffer.alloc(0);
    try {
      for await (const chunk of createReadStream(join(state.log.directory, name), { highWaterMark: 1 << 20 })) {
        const bytes = rest.length === 0 ? (chunk as Buffer) : Buffer.concat([rest, chunk as Buffer]);
        const complete = bytes.lastIndexOf(NEWLINE);
        rest = Buffer.from(bytes.subarray(complete + 1));
        for (const line of linesHolding(bytes, complete, needles)) take(line);
      }
    } catch (error) {
      // Retention may drop a closed segment while it is read: its activities are past retention anyway.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    for (const line of linesHolding(rest, rest.length, needles)) take(line);
  }
  return found.reverse();
}

const NEWLINE = 0x0a;

/** The lines of `bytes` before `end` that hold one of `needles`, decoded, in file order. */
function linesHolding(bytes: Buffer, end: number, needles: readonly Buffer[]): string[] {
  const hits: Array<[number, string]> = [];
  for (const needle of needles) {
    for (let at = bytes.indexOf(needle); at !== -1 && at < end; ) {
      const lineStart = bytes.lastIndexOf(NEWLINE, at) + 1;
      const found = bytes.indexOf(NEWLINE, at);
      const lineEnd = found === -1 || found > end ? end : found;
      hits.push([lineStart, bytes.toString('utf8', lineStart, lineEnd)]);
      at = bytes.indexOf(needle, lineEnd);
    }
  }
  if (needles.length > 1) hits.sort((a, b) => a[0] - b[0]);
  return hits.map(([, line]) => line);
}

function serialised<T>(state: TenantActivities, run: () => Promise<T>): Promise<T> {
  const previous = scans.get(state) ?? Promise.resolve();
  const next = previous.then(run, run);
  scans.set(state, next.catch(() => undefined));
  return next;
}
