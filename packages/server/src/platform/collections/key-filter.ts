/**
 * A Bloom filter of strings (Bloom, 1970): `mightHave` is false only for a key never added, and true
 * for about one key in a hundred that was not, while it holds no more than its capacity. It answers
 * "certainly not there" without touching what it guards: the profile directory asks it before hashing
 * a key with SHA-1 to find its shard (profiles.ts), which for a new shopper's session finds nothing.
 * Keys cannot be removed (a removed key only costs the lookup it would have cost anyway).
 */

/** Bits per key at capacity and probes per key: about 1% false positives (m/n = 10, k = 7). */
const BITS_PER_KEY = 10;
const PROBES = 7;

export class KeyFilter {
  private readonly words: Uint32Array;
  private readonly mask: number;
  private added = 0;

  constructor(readonly capacity: number) {
    let bits = 1024;
    while (bits < capacity * BITS_PER_KEY) bits *= 2;
    this.words = new Uint32Array(bits >>> 5);
    this.mask = bits - 1;
  }

  /** True once more keys were added than the filter was sized for: its answers grow less useful (never wrong). */
  get overfull(): boolean {
    return this.added > this.capacity;
  }

  add(key: string): void {
    this.added++;
    const [h1, h2] = hashes(key);
    for (let i = 0; i < PROBES; i++) {
      const bit = (h1 + Math.imul(i, h2)) & this.mask;
      this.words[bit >>> 5]! |= 1 << (bit & 31);
    }
  }

  mightHave(key: string): boolean {
    const [h1, h2] = hashes(key);
    for (let i = 0; i < PROBES; i++) {
      const bit = (h1 + Math.imul(i, h2)) & this.mask;
      if ((this.words[bit >>> 5]! & (1 << (bit & 31))) === 0) return false;
    }
    return true;
  }
}

const pair: [number, number] = [0, 0];

/** Two 32-bit FNV-1a hashes of the key's UTF-16 units from different offset bases; the second odd, for double hashing. */
function hashes(key: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x9e3779b9;
  for (let i = 0; i < key.length; i++) {
    const unit = key.charCodeAt(i);
    a = Math.imul(a ^ unit, 0x01000193);
    b = Math.imul(b ^ unit, 0x01000193) ^ (b >>> 13);
  }
  pair[0] = a >>> 0;
  pair[1] = (b | 1) >>> 0;
  return pair;
}
