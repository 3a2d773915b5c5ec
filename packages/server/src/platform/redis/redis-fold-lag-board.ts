/** FoldLagBoard on Redis: a hash per tenant, `owner → "<lagMs>:<published at>"`; stale fields are read past and removed. */
import type { Redis } from 'ioredis';
import type { FoldLagBoard } from '../shared-state/fold-lag-board.js';

const PREFIX = 'dk:fold-lag:';
/** A field left by a process that stopped is deleted once this old (a fresh one is rewritten each second). */
const FORGET_MS = 60_000;

export class RedisFoldLagBoard implements FoldLagBoard {
  constructor(
    private readonly redis: Redis,
    private readonly now: () => number = Date.now,
  ) {}

  async publish(tenant: string, owner: string, lagMs: number): Promise<void> {
    if (this.redis.status !== 'ready') return;
    await this.redis.hset(PREFIX + tenant, owner, `${Math.max(0, Math.round(lagMs))}:${this.now()}`).catch(() => undefined);
  }

  async worst(tenant: string, freshMs: number): Promise<number | undefined> {
    if (this.redis.status !== 'ready') return undefined;
    let fields: Record<string, string>;
    try {
      fields = await this.redis.hgetall(PREFIX + tenant);
    } catch {
      return undefined;
    }
    const now = this.now();
    let worst = 0;
    const gone: string[] = [];
    for (const [owner, value] of Object.entries(fields)) {
      const [lag, at] = value.split(':').map(Number) as [number, number];
      if (!Number.isFinite(lag) || !Number.isFinite(at) || now - at > FORGET_MS) gone.push(owner);
      else if (now - at <= freshMs) worst = Math.max(worst, lag);
    }
    if (gone.length > 0) await this.redis.hdel(PREFIX + tenant, ...gone).catch(() => undefined);
    return worst;
  }
}
