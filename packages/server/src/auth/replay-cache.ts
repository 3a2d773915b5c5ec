/**
 * Remembers assertion ids (`jti`) until their assertion expires, so that a captured assertion
 * cannot be sent twice. In memory on purpose: an assertion lives at most a few minutes, so after a
 * restart only assertions issued just before it could be replayed, and one server process answers
 * every token request. Several server processes behind one balancer would need a shared cache.
 */
export class ReplayCache {
  private readonly seen = new Map<string, number>();
  private nextSweep = 0;

  /** Whether this `jti` of this client was accepted before and its assertion has not expired yet. */
  has(clientId: string, jti: string, nowMs: number): boolean {
    const until = this.seen.get(key(clientId, jti));
    return until !== undefined && until > nowMs;
  }

  remember(clientId: string, jti: string, untilMs: number, nowMs: number): void {
    this.sweep(nowMs);
    this.seen.set(key(clientId, jti), untilMs);
  }

  get size(): number {
    return this.seen.size;
  }

  /** Drops expired ids at most once a second, so that memory follows the rate limit, not uptime. */
  private sweep(nowMs: number): void {
    if (nowMs < this.nextSweep) return;
    this.nextSweep = nowMs + 1000;
    for (const [id, until] of this.seen) if (until <= nowMs) this.seen.delete(id);
  }
}

function key(clientId: string, jti: string): string {
  return `${clientId}\u0000${jti}`;
}
