/**
 * MurmurHash3, x86 32-bit variant (Austin Appleby's public-domain algorithm), over the low byte of
 * each UTF-16 code unit of a string: the byte sequence the published `@attraqt/ab-test` client hashes,
 * so that a storefront drawing with it and the server agree shopper for shopper.
 */

const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;

function rotateLeft(value: number, bits: number): number {
  return (value << bits) | (value >>> (32 - bits));
}

/** One 32-bit block's contribution before it is mixed into the state. */
function scramble(block: number): number {
  return Math.imul(rotateLeft(Math.imul(block, C1), 15), C2);
}

/** The final avalanche: every input bit reaches every output bit. */
function finalMix(hash: number): number {
  let h = hash ^ (hash >>> 16);
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** The unsigned 32-bit hash of `text`, each code unit taken as its low 8 bits. */
export function murmur3(text: string, seed = 0): number {
  const length = text.length;
  const whole = length - (length % 4);
  let h = seed | 0;
  for (let i = 0; i < whole; i += 4) {
    const block = (text.charCodeAt(i) & 0xff) | ((text.charCodeAt(i + 1) & 0xff) << 8) | ((text.charCodeAt(i + 2) & 0xff) << 16) | ((text.charCodeAt(i + 3) & 0xff) << 24);
    h ^= scramble(block);
    h = rotateLeft(h, 13);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  let tail = 0;
  for (let i = length - 1; i >= whole; i--) tail = (tail << 8) | (text.charCodeAt(i) & 0xff);
  if (length > whole) h ^= scramble(tail);
  return finalMix(h ^ length);
}
