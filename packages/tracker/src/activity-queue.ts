/**
 * The durable queue: activities wait in IndexedDB (through idb-keyval) until the server took them,
 * across offline periods, reloads and closed tabs. Keys are activity ids, which sort by creation time.
 * Tabs share the queue; a tab takes items under a short lease so that two tabs do not send the same
 * ones at once. Should IndexedDB be unavailable (some private modes), the queue lives in memory.
 */
import { createStore, promisifyRequest, type UseStore } from 'idb-keyval';
import type { TrackedActivity } from './activity.js';

export const QUEUE_DATABASE = 'discovery-kit';
export const QUEUE_STORE = 'activity-queue';

/** How long taken items stay reserved for the tab that took them; a send that outlives it may be repeated, harmlessly. */
export const LEASE_MS = 30_000;

interface Entry {
  activity: TrackedActivity;
  /** Epoch ms until which a tab's send holds this entry. */
  leasedUntil?: number;
}

export interface Taken {
  activities: TrackedActivity[];
  /** Entries skipped because another tab holds them. */
  leasedElsewhere: number;
}

export class ActivityQueue {
  /** Opened on first use; a browser without IndexedDB fails that use, and the queue falls back to memory. */
  private store: UseStore | undefined = createStore(QUEUE_DATABASE, QUEUE_STORE);
  private readonly memory = new Map<string, Entry>();

  constructor(private readonly maxQueue: number) {}

  /** Adds an activity; past `maxQueue` the oldest entries go, so the queue never grows without bound. */
  add(activity: TrackedActivity): Promise<void> {
    return this.use(
      (store) => {
        store.put({ activity } satisfies Entry, activity.id);
        const counted = store.count();
        counted.onsuccess = () => {
          let excess = counted.result - this.maxQueue;
          if (excess <= 0) return;
          const cursor = store.openCursor();
          cursor.onsuccess = () => {
            if (!cursor.result || excess-- <= 0) return;
            cursor.result.delete();
            cursor.result.continue();
          };
        };
      },
      () => {
        this.memory.set(activity.id, { activity });
        for (const id of this.memory.keys()) {
          if (this.memory.size <= this.maxQueue) break;
          this.memory.delete(id);
        }
      },
    );
  }

  /** Takes up to `limit` of the oldest entries no other tab holds, and leases them in the same transaction. */
  async take(limit: number, now = Date.now()): Promise<Taken> {
    const taken: Taken = { activities: [], leasedElsewhere: 0 };
    const consider = (entry: Entry): Entry | undefined => {
      if ((entry.leasedUntil ?? 0) > now) {
        taken.leasedElsewhere++;
        return undefined;
      }
      taken.activities.push(entry.activity);
      return { activity: entry.activity, leasedUntil: now + LEASE_MS };
    };
    await this.use(
      (store) => {
        const cursor = store.openCursor();
        cursor.onsuccess = () => {
          if (!cursor.result || taken.activities.length >= limit) return;
          const leased = consider(cursor.result.value as Entry);
          if (leased) cursor.result.update(leased);
          cursor.result.continue();
        };
      },
      () => {
        taken.activities = [];
        taken.leasedElsewhere = 0;
        for (const [id, entry] of this.memory) {
          if (taken.activities.length >= limit) break;
          const leased = consider(entry);
          if (leased) this.memory.set(id, leased);
        }
      },
    );
    return taken;
  }

  /** Removes entries the server took (or refused for good). */
  remove(ids: string[]): Promise<void> {
    return this.use(
      (store) => ids.forEach((id) => store.delete(id)),
      () => ids.forEach((id) => this.memory.delete(id)),
    );
  }

  /** Gives leased entries back after a failed send, so that any tab may try them again. */
  release(ids: string[]): Promise<void> {
    return this.use(
      (store) => {
        for (const id of ids) {
          const read = store.get(id);
          read.onsuccess = () => read.result && store.put({ activity: (read.result as Entry).activity } satisfies Entry, id);
        }
      },
      () => ids.forEach((id) => this.memory.has(id) && this.memory.set(id, { activity: this.memory.get(id)!.activity })),
    );
  }

  /** Every queued activity, oldest first. */
  async list(): Promise<TrackedActivity[]> {
    let entries: Entry[] = [];
    await this.use(
      (store) => {
        const read = store.getAll();
        read.onsuccess = () => (entries = read.result as Entry[]);
      },
      () => (entries = [...this.memory.values()]),
    );
    return entries.map((entry) => entry.activity);
  }

  clear(): Promise<void> {
    return this.use(
      (store) => store.clear(),
      () => this.memory.clear(),
    );
  }

  /**
   * Runs `durable`'s requests in one read-write transaction and waits for it to commit; once
   * IndexedDB has failed (missing, private mode, quota), this page's queue carries on in memory.
   */
  private async use(durable: (store: IDBObjectStore) => unknown, inMemory: () => unknown): Promise<void> {
    if (this.store) {
      try {
        return await this.store('readwrite', (store) => {
          durable(store);
          return promisifyRequest(store.transaction);
        });
      } catch {
        this.store = undefined;
      }
    }
    inMemory();
  }
}
