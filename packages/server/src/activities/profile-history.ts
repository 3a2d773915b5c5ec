/** Each profile's most recent activities, newest last: the history endpoint and "recently viewed" read it. */
import type { LoggedActivity } from './activity-record.js';

/** Activities kept per profile; older ones stay in the log but leave memory. */
export const HISTORY_LIMIT = 500;

export class ProfileHistory {
  private readonly byProfile = new Map<string, LoggedActivity[]>();

  add(profileId: string, activity: LoggedActivity): void {
    let list = this.byProfile.get(profileId);
    if (list === undefined) this.byProfile.set(profileId, (list = []));
    list.push(activity);
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
