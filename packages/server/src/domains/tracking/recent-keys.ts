/**
 * The idempotency memory: the most recent client activity ids (or idempotency keys) of each tenant,
 * with the activity they produced, so that a retried send is answered without being counted again.
 * Bounded, oldest forgotten first; rebuilt from the log at start.
 */
import type { LoggedActivity } from './activity-record.js';
import { BoundedMap } from '../../platform/collections/bounded-map.js';

/** An activity being appended: a retry waits for it, so that no answer comes before the disk has the activity. */
export type PendingActivity = Promise<LoggedActivity>;

export class RecentKeys {
  private readonly entries: BoundedMap<string, LoggedActivity | PendingActivity>;

  constructor(limit = 100_000) {
    this.entries = new BoundedMap(limit);
  }

  get(tenant: string, key: string): LoggedActivity | PendingActivity | undefined {
    return this.entries.get(`${tenant}\u0000${key}`);
  }

  /** Marks a key as taken before its append, so that two concurrent retries cannot both be logged. */
  reserve(tenant: string, key: string, durable: PendingActivity): void {
    this.set(`${tenant}\u0000${key}`, durable);
  }

  remember(activity: LoggedActivity): void {
    if (activity.clientKey !== undefined) this.set(`${activity.tenant}\u0000${activity.clientKey}`, activity);
  }

  release(tenant: string, key: string): void {
    this.entries.delete(`${tenant}\u0000${key}`);
  }

  /** Erasure: recorded activities of these profiles leave the memory (a retry of one is then a new activity of nobody). */
  forgetProfiles(profileIds: ReadonlySet<string>): void {
    const gone: string[] = [];
    for (const [key, value] of this.entries.entries()) if (!(value instanceof Promise) && profileIds.has(value.profileId)) gone.push(key);
    for (const key of gone) this.entries.delete(key);
  }

  private set(key: string, value: LoggedActivity | PendingActivity): void {
    this.entries.set(key, value);
  }
}
