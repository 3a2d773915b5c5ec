/**
 * Rate limits of the public browser APIs (collect, tracker, search, recommendations): a token bucket
 * per source address and one per key (tracker key, search token, widget), refused with 429 and
 * `Retry-After`. Buckets are two numbers each and their number is capped, so a flood from many
 * addresses or under invented keys cannot grow memory.
 */
import type { Context, Next } from 'koa';
import { HttpError } from './errors.js';
import type { SharedRateWindows } from '../../platform/shared-state/rate-windows.js';
import { deleteOldest } from '../../platform/collections/oldest-first.js';

export interface BucketLimit {
  /** Sustained requests per second. */
  perSecond: number;
  /** Requests allowed at once after a quiet spell. */
  burst: number;
}

export interface PublicRateLimitConfig {
  enabled: boolean;
  perAddress: BucketLimit;
  perKey: BucketLimit;
}

/** Buckets kept per kind; past it the least recently used bucket is forgotten (its owner starts full again). */
const MAX_BUCKETS = 100_000;

export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly limit: BucketLimit) {}

  /** Takes one token for `key`; returns 0 when allowed, or the seconds until a token is back. */
  take(key: string, nowMs: number): number {
    const bucket = this.buckets.get(key);
    let tokens = this.limit.burst;
    if (bucket !== undefined) {
      // A clock set back (tests, a corrected system clock) refills nothing rather than draining the bucket.
      tokens = Math.min(this.limit.burst, bucket.tokens + (Math.max(0, nowMs - bucket.at) / 1000) * this.limit.perSecond);
      this.buckets.delete(key); // re-inserted below: the map's order is least recently used first
    } else if (this.buckets.size >= MAX_BUCKETS) {
      deleteOldest(this.buckets);
    }
    if (tokens < 1) {
      this.buckets.set(key, { tokens, at: nowMs });
      return Math.max(1, Math.ceil((1 - tokens) / this.limit.perSecond));
    }
    this.buckets.set(key, { tokens: tokens - 1, at: nowMs });
    return 0;
  }

  get size(): number {
    return this.buckets.size;
  }
}

export class PublicRateLimits {
  private readonly addresses: TokenBuckets;
  private readonly keys: TokenBuckets;

  constructor(
    private readonly config: PublicRateLimitConfig,
    private readonly now: () => number,
    /** Counts shared by every process (Redis): a limit then holds for the shop, not per process. */
    private readonly shared?: SharedRateWindows,
  ) {
    this.addresses = new TokenBuckets(config.perAddress);
    this.keys = new TokenBuckets(config.perKey);
  }

  /** Middleware counting the request under its source address. */
  readonly byAddress = async (ctx: Context, next: Next): Promise<void> => {
    if (this.config.enabled) await this.take(this.addresses, this.config.perAddress, `addr:${ctx.ip}`, 'from this address');
    await next();
  };

  /** Middleware counting the request under the key `keyOf` reads (a path parameter, or the parsed body's token). */
  byKey(keyOf: (ctx: Context) => unknown) {
    return async (ctx: Context, next: Next): Promise<void> => {
      const key = keyOf(ctx);
      if (this.config.enabled && typeof key === 'string') await this.take(this.keys, this.config.perKey, `key:${key.slice(0, 200)}`, 'for this key');
      await next();
    };
  }

  /**
   * Shared counts, when there are any, decide in windows of `burst / perSecond` seconds holding `burst`
   * requests (the bucket's long-run rate and its largest burst); while Redis is away, the local bucket does.
   */
  private async take(buckets: TokenBuckets, limit: BucketLimit, key: string, scope: string): Promise<void> {
    if (this.shared !== undefined) {
      const windowMs = Math.max(1000, Math.round((limit.burst / limit.perSecond) * 1000));
      const count = await this.shared.hit(key, windowMs);
      if (count !== undefined) {
        if (count.hits > limit.burst) this.refuseAfter(Math.max(1, Math.ceil(count.resetMs / 1000)), scope);
        return;
      }
    }
    this.refuseAfter(buckets.take(key.slice(key.indexOf(':') + 1), this.now()), scope);
  }

  private refuseAfter(seconds: number, scope: string): void {
    if (seconds === 0) return;
    throw new HttpError(429, 'rate_limited', `Too many requests ${scope}; retry in ${seconds} s.`, { headers: { 'Retry-After': String(seconds) } });
  }
}
