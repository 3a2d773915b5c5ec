/**
 * Remembers assertion ids (`jti`) until their assertion expires, so that a captured assertion
 * cannot be sent twice, not even across a restart: accepted ids are kept in a small document
 * (`auth/replays`) written before the token is issued, and read back at start. An assertion lives
 * at most a few minutes, so the document holds only the ids of the last few minutes' token
 * requests (the rate limit bounds them). Several server processes on one PostgreSQL share the
 * document, and `claim` decides on the stored data, so an id used on one is refused on the others.
 */
import type { DocumentStore, StoredDocument } from '../../platform/store/document-store.js';

interface ReplayData {
  /** `clientId \0 jti` → time (ms) until which the assertion could still be accepted. */
  seen: Record<string, number>;
}

export class ReplayCache {
  private readonly seen = new Map<string, number>();
  private nextSweep = 0;

  private constructor(private readonly doc: StoredDocument<ReplayData> | undefined) {
    for (const [id, until] of Object.entries(doc?.data.seen ?? {})) this.seen.set(id, until);
  }

  /** The cache over the store's `auth/replays` document (without a store: memory only, for tests of the rules). */
  static async open(store?: DocumentStore): Promise<ReplayCache> {
    return new ReplayCache(store === undefined ? undefined : await store.document<ReplayData>('auth/replays', () => ({ seen: {} })));
  }

  /** Whether this `jti` of this client was accepted before and its assertion has not expired yet. */
  has(clientId: string, jti: string, nowMs: number): boolean {
    const until = this.seen.get(key(clientId, jti));
    return until !== undefined && until > nowMs;
  }

  /**
   * Takes this `jti` for good: false when it was taken already (a concurrent request with the same
   * assertion got there first). Resolves once the id is on disk, so a token is issued only after.
   */
  async claim(clientId: string, jti: string, untilMs: number, nowMs: number): Promise<boolean> {
    if (this.has(clientId, jti, nowMs)) return false;
    const sweep = this.sweep(nowMs);
    const id = key(clientId, jti);
    this.seen.set(id, untilMs);
    if (this.doc === undefined) return true;
    // The store may be shared with other server processes (PostgreSQL): an update runs on the newest
    // stored data under the row's lock, so an id another process took is seen here, exactly once.
    return this.doc.update((data) => {
      const taken = data.seen[id];
      if (taken !== undefined && taken > nowMs) return false;
      for (const expired of sweep) delete data.seen[expired];
      data.seen[id] = untilMs;
      return true;
    });
  }

  get size(): number {
    return this.seen.size;
  }

  /** Drops expired ids at most once a second, so that memory follows the rate limit, not uptime. */
  private sweep(nowMs: number): string[] {
    if (nowMs < this.nextSweep) return [];
    this.nextSweep = nowMs + 1000;
    const expired: string[] = [];
    for (const [id, until] of this.seen) {
      if (until > nowMs) continue;
      this.seen.delete(id);
      expired.push(id);
    }
    return expired;
  }
}

function key(clientId: string, jti: string): string {
  return `${clientId}\u0000${jti}`;
}
