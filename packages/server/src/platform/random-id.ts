/**
 * Random identifiers from a pool of the system's random bytes. `randomBytes(12)` per id made a call into
 * OpenSSL for every new shopper: about 4 µs each, 6–7% of the CPU of accepting the activity mix, where
 * most shoppers are new. The pool is filled 4 KB at a time from the same source (`randomFillSync`)
 * and each id takes the next unused bytes, so the ids are as unpredictable as before (about 0.2 µs each).
 */
import { randomFillSync } from 'node:crypto';

const POOL = Buffer.alloc(4096);
let next = POOL.length;

/** `bytes` random bytes (at most 64) as base64url text. */
export function randomBase64Url(bytes: number): string {
  if (!Number.isInteger(bytes) || bytes < 1 || bytes > 64) throw new RangeError(`random ids take 1 to 64 bytes, not ${bytes}`);
  if (next + bytes > POOL.length) {
    randomFillSync(POOL);
    next = 0;
  }
  const text = POOL.toString('base64url', next, next + bytes);
  // Used bytes are not handed out twice; they are overwritten at the next fill.
  next += bytes;
  return text;
}
