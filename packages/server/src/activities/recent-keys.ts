/**
 * The idempotency memory: the most recent client activity ids (or idempotency keys) of each tenant,
 * with the activity they produced, so that a retried send is answered without being counted again.
 * Bounded, oldest forgotten first; rebuilt from the log at start.
 */
import type { LoggedActivity } from './activity-record.js';
import { BoundedMap } from './bounded-map.js';

export class RecentKeys {
  private readonly entries: BoundedMap<string, LoggedActivity | 'pending'>;

  constructor(limit = 100_000) {
    this.entries = new BoundedMap(limit);
  }

  get(tenant: string, key: string): LoggedActivity | 'pending' | undefined {
    return this.entries.get(`${tenant}\u0000${key}`);
  }

  /** Marks a key as taken before its append, so that two concurrent retries cannot both be logged. */
  reserve(tenant: string, key: string): void {
    this.set(`${tenant}\u0000${key}`, 'pending');
  }

  remember(activity: LoggedActivity): void {
    if (activity.clientKey !== undefined) this.set(`${activity.tenant}\u0000${activity.clientKey}`, activity);
  }

  release(tenant: string, key: string): void {
    this.entries.delete(`${tenant}\u0000${key}`);
  }

  private set(key: string, value: LoggedActivity | 'pending'): void {
    this.entries.set(key, value);
  }
}
