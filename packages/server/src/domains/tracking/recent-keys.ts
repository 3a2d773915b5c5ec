/**
 * The idempotency memory: the most recent client activity ids (or idempotency keys) of each tenant,
 * with the activity they produced, so that a retried send is answered without being counted again.
 * Bounded, oldest forgotten first; rebuilt from the log at start. Recorded activities are kept as the
 * log's objects, or as their JSON text when a snapshot restored them (parsed when a retry asks).
 */
import type { LoggedActivity } from './activity-record.js';
import { BoundedMap } from '../../platform/collections/bounded-map.js';
import { ChunkReader, ChunkWriter, activityOf, textOf, type KeptActivity } from './snapshot-encoding.js';

/** An activity being appended: a retry waits for it, so that no answer comes before the disk has the activity. */
export type PendingActivity = Promise<LoggedActivity>;

export class RecentKeys {
  private readonly entries: BoundedMap<string, KeptActivity | PendingActivity>;

  constructor(limit = 100_000) {
    this.entries = new BoundedMap(limit);
  }

  get(tenant: string, key: string): LoggedActivity | PendingActivity | undefined {
    const value = this.entries.get(`${tenant}\u0000${key}`);
    return value === undefined || value instanceof Promise ? value : activityOf(value);
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
    for (const [key, value] of this.entries.entries()) if (!(value instanceof Promise) && profileIds.has(activityOf(value).profileId)) gone.push(key);
    for (const key of gone) this.entries.delete(key);
  }

  /** Snapshot chunks of one tenant's recorded keys, oldest first, binary: key and activity text pairs (keys whose append is still in flight are left out). */
  *save(tenant: string): Iterable<Buffer> {
    const prefix = `${tenant}\u0000`;
    const out = new ChunkWriter();
    for (const [key, value] of this.entries.entries()) {
      if (value instanceof Promise || !key.startsWith(prefix)) continue;
      out.string(key.slice(prefix.length));
      out.string(textOf(value));
      if (out.length >= 64 * 1024) yield out.take();
    }
    if (out.length > 0) yield out.take();
  }

  restore(tenant: string, chunk: Buffer): void {
    const read = new ChunkReader(chunk);
    while (!read.done) {
      const key = read.string();
      this.set(`${tenant}\u0000${key}`, read.string());
    }
  }

  /** Forgets the tenant's recorded keys (keys still being appended stay). */
  clear(tenant: string): void {
    const prefix = `${tenant}\u0000`;
    const gone: string[] = [];
    for (const [key, value] of this.entries.entries()) if (!(value instanceof Promise) && key.startsWith(prefix)) gone.push(key);
    for (const key of gone) this.entries.delete(key);
  }

  private set(key: string, value: KeptActivity | PendingActivity): void {
    this.entries.set(key, value);
  }
}
