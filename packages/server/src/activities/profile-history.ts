/** Each profile's most recent activities, newest last: the history endpoint and "recently viewed" read it. */
import type { LoggedActivity } from './activity-record.js';

/** Activities kept per profile; older ones stay in the log but leave memory. */
export const HISTORY_LIMIT = 500;
/** Distinct strings shared between entries (item ids, verbs, types); past it the table starts over. */
const INTERNED = 500_000;

/**
 * Memory is the point here: one entry per activity of every shopper. An entry drops the idempotency
 * key and shares repeated strings (tenant, verbs, types, item, profile and session ids) between entries.
 */
export class ProfileHistory {
  private readonly byProfile = new Map<string, LoggedActivity[]>();
  private strings = new Map<string, string>();

  private intern(value: string): string {
    const known = this.strings.get(value);
    if (known !== undefined) return known;
    if (this.strings.size >= INTERNED) this.strings = new Map();
    this.strings.set(value, value);
    return value;
  }

  /** The activity without its idempotency key (the idempotency memory keeps that), its repeated strings shared. */
  private entry(activity: LoggedActivity): LoggedActivity {
    const { clientKey: _clientKey, ...entry } = activity;
    entry.tenant = this.intern(activity.tenant);
    entry.profileId = this.intern(activity.profileId);
    entry.verb = this.intern(activity.verb);
    entry.type = this.intern(activity.type);
    entry.itemId = this.intern(activity.itemId);
    if (activity.sessionId !== undefined) entry.sessionId = this.intern(activity.sessionId);
    return entry;
  }

  add(profileId: string, activity: LoggedActivity): void {
    let list = this.byProfile.get(profileId);
    if (list === undefined) this.byProfile.set(profileId, (list = []));
    list.push(this.entry(activity));
    if (list.length > HISTORY_LIMIT) list.splice(0, list.length - HISTORY_LIMIT);
  }

  /** Newest first. */
  list(profileId: string): LoggedActivity[] {
    return [...(this.byProfile.get(profileId) ?? [])].reverse();
  }

  has(profileId: string): boolean {
    return this.byProfile.has(profileId);
  }

  /** Folds an anonymous profile's history into the one it was merged into, in time order. */
  merge(from: string, into: string): void {
    const moved = this.byProfile.get(from);
    if (moved === undefined) return;
    this.byProfile.delete(from);
    const merged = [...(this.byProfile.get(into) ?? []), ...moved].sort((a, b) => a.receivedAt - b.receivedAt);
    this.byProfile.set(into, merged.slice(-HISTORY_LIMIT));
  }
}
