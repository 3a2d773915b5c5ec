/**
 * The idempotency memory: the most recent client activity ids (or idempotency keys) of each tenant,
 * with the activity they produced, so that a retried send is answered without being counted again.
 * Bounded, oldest forgotten first; rebuilt from the log at start.
 */
import type { LoggedActivity } from './activity-record.js';

export class RecentKeys {
  private readonly limit: number;
  /** Map keeps insertion order, which makes it a cheap FIFO for forgetting the oldest keys. */
  private readonly entries = new Map<string, LoggedActivity | 'pending'>();

  constructor(limit = 100_000) {
    this.limit = limit;
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
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.limit) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }
}
