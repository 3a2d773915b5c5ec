/**
 * The matcher's per-slot arrays, one set per SearchIndex (SearchIndex.matchScratch), reused by every
 * query on that index: its queries run one at a time, synchronously, and read their answer before the
 * next one starts.
 */

/**
 * One entry per slot for each array; `generation` stamps tell this query's marks from older ones.
 * Stamps are 16-bit: a query reaches its documents in no useful order, so every array read per
 * document is a likely cache miss, and half the bytes keep more of them in the processor's caches.
 * They wrap every 65,535 generations (a few thousand queries): `begin` clears them before a query
 * that would pass the wrap, never during one.
 */
export class MatchScratch {
  stamp: Uint16Array;
  mark: Uint16Array;
  best: Float32Array;
  total: Float32Array;
  typo: Uint8Array;
  /** Generation of the last word whose title-field list held the document, and how many words did so. */
  titleStamp: Uint16Array;
  titleWords: Uint8Array;
  listA: Int32Array;
  listB: Int32Array;
  /**
   * One bit per slot, set for the documents still matching while a later word's lists are walked:
   * most entries of a common word's lists are documents rarer words already dropped, and this test
   * reads a few kilobytes that stay in the processor's nearest cache, where `stamp` is megabytes.
   * A word sets the next word's bits (`nextBits`) as it first reaches each document, so the alive set
   * is never walked again to mark it. Both are all clear between queries.
   */
  aliveBits: Uint32Array;
  nextBits: Uint32Array;
  /** The answer's arrays: valid until the next query on this index. */
  docs: Int32Array;
  scores: Float32Array;
  generation = 0;

  constructor(readonly capacity: number) {
    this.stamp = new Uint16Array(capacity);
    this.mark = new Uint16Array(capacity);
    this.best = new Float32Array(capacity);
    this.total = new Float32Array(capacity);
    this.typo = new Uint8Array(capacity);
    this.titleStamp = new Uint16Array(capacity);
    this.titleWords = new Uint8Array(capacity);
    this.listA = new Int32Array(capacity);
    this.listB = new Int32Array(capacity);
    this.aliveBits = new Uint32Array((capacity >>> 5) + 1);
    this.nextBits = new Uint32Array((capacity >>> 5) + 1);
    this.docs = new Int32Array(capacity);
    this.scores = new Float32Array(capacity);
  }

  /**
   * After a word: the bits it set become the alive ones, and the bits it read (the `count` documents of
   * `list`, the previous word's) are cleared: one by one when they are few, else the whole array at once.
   */
  advance(list: Int32Array, count: number): void {
    const read = this.aliveBits;
    if (4 * count < read.length) for (let i = 0; i < count; i++) read[list[i]! >>> 5] = 0;
    else read.fill(0);
    this.aliveBits = this.nextBits;
    this.nextBits = read;
  }

  /** Before a query that takes up to `generations` from `next`: clears the stamps if it would pass the wrap. */
  begin(generations: number): void {
    if (this.generation + generations < 0xffff) return;
    this.stamp.fill(0);
    this.mark.fill(0);
    this.titleStamp.fill(0);
    this.generation = 0;
  }

  /** A new generation, which no stamp holds yet (`begin` made room for it). */
  next(): number {
    return ++this.generation;
  }
}
