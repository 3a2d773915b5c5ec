/**
 * SharedRateWindows on Redis: one counter per key and window (`dk:rate:<window ms>:<key>`), increased
 * and given its expiry in one script, so every process counts into the same window. While Redis is
 * away a hit resolves `undefined` at once (the connection's offline queue is off).
 */
import type { Redis } from 'ioredis';
import type { SharedRateWindows, WindowCount } from '../shared-state/rate-windows.js';

// INCRBY, then PEXPIRE only when the key is new, so the window keeps the end its first hit gave it.
const HIT = `
local hits = redis.call('INCRBY', KEYS[1], ARGV[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  ttl = tonumber(ARGV[2])
end
return { hits, ttl }
`;

export class RedisRateWindows implements SharedRateWindows {
  constructor(private readonly redis: Redis) {}

  async hit(key: string, windowMs: number, count = 1): Promise<WindowCount | undefined> {
    if (this.redis.status !== 'ready') return undefined;
    try {
      const [hits, resetMs] = (await this.redis.eval(HIT, 1, `dk:rate:${windowMs}:${key.slice(0, 200)}`, count, windowMs)) as [number, number];
      return { hits, resetMs };
    } catch {
      return undefined;
    }
  }
}
