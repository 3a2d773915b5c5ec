/** A sliding window per key: the token endpoint's limits per client and per source address, and the public APIs' limits. */

export interface RateDecision {
  allowed: boolean;
  /** Whole seconds until a request would be allowed again; at least 1 when refused. */
  retryAfterSeconds: number;
}

export class SlidingWindowLimiter {
  private readonly hits = new Map<string, number[]>();
  private nextSweep = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs = 1000,
  ) {}

  /** Counts a request under every key; refused requests are counted too, so hammering does not pay. */
  hit(keys: readonly string[], nowMs: number): RateDecision {
    this.sweep(nowMs);
    let waitMs = 0;
    for (const key of keys) {
      const recent = (this.hits.get(key) ?? []).filter((at) => at > nowMs - this.windowMs);
      if (recent.length >= this.limit) waitMs = Math.max(waitMs, recent[recent.length - this.limit]! + this.windowMs - nowMs);
      recent.push(nowMs);
      // Older hits than `limit` can never decide a refusal: keep the window bounded.
      this.hits.set(key, recent.slice(-this.limit));
    }
    return waitMs > 0 ? { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) } : { allowed: true, retryAfterSeconds: 0 };
  }

  /** The decision `hit` would take, without counting anything. */
  peek(keys: readonly string[], nowMs: number): RateDecision {
    let waitMs = 0;
    for (const key of keys) {
      const recent = (this.hits.get(key) ?? []).filter((at) => at > nowMs - this.windowMs);
      if (recent.length >= this.limit) waitMs = Math.max(waitMs, recent[recent.length - this.limit]! + this.windowMs - nowMs);
    }
    return waitMs > 0 ? { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) } : { allowed: true, retryAfterSeconds: 0 };
  }

  private sweep(nowMs: number): void {
    if (nowMs < this.nextSweep) return;
    this.nextSweep = nowMs + this.windowMs;
    for (const [key, times] of this.hits) if ((times.at(-1) ?? 0) <= nowMs - this.windowMs) this.hits.delete(key);
  }
}
