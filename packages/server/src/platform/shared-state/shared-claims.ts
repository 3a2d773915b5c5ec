/**
 * The port for keys that exactly one of several server processes may take (an activity's idempotency
 * key: one process logs it, a retry reaching another is answered as a duplicate). Without an adapter
 * each process decides alone; with Redis (redis/redis-shared-claims.ts) they decide together.
 *
 * Contract: `claim(keys, owner, ttlMs)` takes each key that nobody holds for `owner` until `ttlMs`
 * passes, and resolves with the keys another owner holds (a key `owner` already holds is its own);
 * `release(keys, owner)` gives back the keys `owner` holds (its write failed). Both resolve
 * `undefined`, quickly, while the shared store is out of reach: the caller decides alone.
 */

export interface SharedClaims {
  claim(keys: readonly string[], owner: string, ttlMs: number): Promise<Set<string> | undefined>;
  release(keys: readonly string[], owner: string): Promise<void>;
}
