/** SharedClaims on Redis: `SET key owner NX PX ttl` per key in one script; a key held by another owner is reported back. */
import type { Redis } from 'ioredis';
import type { SharedClaims } from '../shared-state/shared-claims.js';

const CLAIM = `
local others = {}
for i, key in ipairs(KEYS) do
  if not redis.call('SET', key, ARGV[1], 'NX', 'PX', ARGV[2]) then
    if redis.call('GET', key) ~= ARGV[1] then table.insert(others, i) end
  end
end
return others
`;

// Deletes only the keys this owner holds: another's claim taken since stays.
const RELEASE = `
for _, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then redis.call('DEL', key) end
end
return 0
`;

const PREFIX = 'dk:claim:';

export class RedisSharedClaims implements SharedClaims {
  constructor(private readonly redis: Redis) {}

  async claim(keys: readonly string[], owner: string, ttlMs: number): Promise<Set<string> | undefined> {
    if (keys.length === 0) return new Set();
    if (this.redis.status !== 'ready') return undefined;
    try {
      const others = (await this.redis.eval(CLAIM, keys.length, ...keys.map((key) => PREFIX + key), owner, ttlMs)) as number[];
      return new Set(others.map((index) => keys[index - 1]!));
    } catch {
      return undefined;
    }
  }

  async release(keys: readonly string[], owner: string): Promise<void> {
    if (keys.length === 0 || this.redis.status !== 'ready') return;
    await this.redis.eval(RELEASE, keys.length, ...keys.map((key) => PREFIX + key), owner).catch(() => undefined);
  }
}
