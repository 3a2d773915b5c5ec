/**
 * Data-subject requests (docs/privacy.md): everything held about one person, exported as JSON, and
 * erased. A person is the profile an id stands for together with every profile merged into it (the
 * anonymous visits later joined to a login).
 *
 * Erasure, in this order, so that a crash at any point leaves a state that the same request finishes:
 * 1. the profiles and every index entry that finds them are removed from the profile directory, so no
 *    new request resolves to them;
 * 2. the event log is compacted without their records (the only copy of their activities on disk);
 * 3. what memory keeps under their ids is dropped: histories, the idempotency memory, and what every
 *    registered aggregate kept per profile (`ActivityAggregate.forgetProfiles`).
 * On a log other processes follow (PostgreSQL), a notice naming the erased ids is appended before 1, so
 * that each of them forgets the person too (`LoggedErasure`); a notice that cannot be written fails the
 * erasure before anything is removed, and asking again finishes it.
 * Counts that name nobody (an item's views in popularity, a query's searches) stay until the next
 * start, which rebuilds them from the compacted log without the person.
 */
import { randomBytes } from 'node:crypto';
import { isLogRecord, type LoggedActivity, type LoggedErasure } from './activity-record.js';
import type { Profile } from './profiles.js';
import type { TenantActivities } from './tenant-activities.js';

export interface PersonExport {
  /** The profiles, the one the id stands for first; `mergedInto` links the others to it. */
  profiles: Profile[];
  /** Every logged activity of those profiles, oldest first. */
  activities: LoggedActivity[];
}

export interface ErasureSummary {
  /** The erased profile ids (pseudonymous: safe for the audit log). */
  profileIds: string[];
  /** Profiles removed from the directory (0 when only the log was compacted again for an erased id). */
  profiles: number;
  /** Activity records removed from the log. */
  activities: number;
}

export async function exportPerson(state: TenantActivities, profileId: string): Promise<PersonExport | undefined> {
  const profiles = state.profiles.members(profileId);
  if (profiles.length === 0) return undefined;
  const activities: LoggedActivity[] = [];
  await state.log.scan({ field: 'profileId', values: profiles.map((p) => p.id) }, (record) => {
    if (isLogRecord(record) && record.kind === 'activity' && record.tenant === state.tenant) activities.push(record);
  });
  return { profiles: structuredClone(profiles), activities };
}

/** Tells the other processes following the log of an erasure; removes the notice again once they have all folded it. */
async function announceErasure(state: TenantActivities, profileIds: readonly string[], notice: ErasureNotice): Promise<void> {
  if (state.log.follow === undefined) return;
  const id = `erasure-${randomBytes(9).toString('base64url')}`;
  await state.log.append([{ kind: 'erasure', tenant: state.tenant, receivedAt: notice.now, profileId: id, profileIds: [...profileIds] } satisfies LoggedErasure]);
  removeNoticeWhenDue(state, { profileId: id, receivedAt: notice.now }, notice);
}

/**
 * Removes an erasure notice from the shared log once `keepMs` have passed since it was written (at
 * once when they have): by the process that wrote it, and by every process that folded it, so that a
 * notice outlives a writer that stopped early by at most that time. Removing it twice removes nothing.
 */
export function removeNoticeWhenDue(state: TenantActivities, record: Pick<LoggedErasure, 'profileId' | 'receivedAt'>, notice: ErasureNotice): void {
  const timer = setTimeout(() => void state.log.remove({ field: 'profileId', values: [record.profileId] }).catch(() => undefined), Math.max(0, record.receivedAt + notice.keepMs - notice.now));
  timer.unref();
}

/** When an erasure happens, and how long its notice to the other processes stays in a shared log. */
export interface ErasureNotice {
  now: number;
  keepMs: number;
}

/**
 * Erases the person behind `profileId`. An id no profile has any more (erased earlier) only compacts
 * the log again, for a record that raced that erasure; undefined when it had none either.
 */
export async function erasePerson(state: TenantActivities, profileId: string, notice: ErasureNotice): Promise<ErasureSummary | undefined> {
  // With no snapshot being taken meanwhile; the stored one, which may hold the person, is deleted after.
  const summary = await state.snapshots.exclusive(async () => {
    const profiles = state.profiles.members(profileId);
    const ids = profiles.length > 0 ? profiles.map((p) => p.id) : [profileId];
    // An experiment's exposure served before the session had a profile names the session id as its profileId (experiments.md).
    const keys = [...new Set([...ids, ...profiles.flatMap((p) => p.sessions)])];
    // First: a notice that cannot be written leaves everything as it was, to be asked again.
    if (profiles.length > 0) await announceErasure(state, keys, notice);
    if (profiles.length > 0) await state.profiles.erase(profiles);
    const removed = await state.log.remove({ field: 'profileId', values: keys });
    if (profiles.length === 0 && removed === 0) return undefined;
    // Only a session's exposures were found: the other processes are told once they are gone.
    if (profiles.length === 0) await announceErasure(state, keys, notice);
    state.forgetProfiles(keys);
    return { profileIds: ids, profiles: profiles.length, activities: removed };
  });
  // A fresh snapshot without the person, in the background (seconds at scale), so the next start need not replay the whole log.
  if (summary !== undefined) void state.snapshots.take('erasure');
  return summary;
}
