/**
 * The matcher's per-slot arrays, one set per SearchIndex (SearchIndex.matchScratch), reused by every
 * query on that index: its queries run one at a time, synchronously, and read their answer before the
 * next one starts.
 */

/** One entry per slot for each array; `generation` stamps tell this query's marks from older ones. */
export class MatchScratch {
  stamp: Int32Array;
  mark: Int32Array;
  best: Float32Array;
  total: Float32Array;
  typo: Uint8Array;
  /** Generation of the last word whose title-field list held the document, and how many words did so. */
  titleStamp: Int32Array;
  titleWords: Uint8Array;
  listA: Int32Array;
  listB: Int32Array;
  /**
   * One bit per slot, set for the documents still matching while a later word's lists are walked:
   * most entries of a common word's lists are documents rarer words already dropped, and this test
   * reads a few kilobytes that stay in the processor's nearest cache, where `stamp` is megabytes.
   * All clear between queries.
   */
  aliveBits: Uint32Array;
  /** The answer's arrays: valid until the next query on this index. */
  docs: Int32Array;
  scores: Float32Array;
  generation = 0;

  constructor(readonly capacity: number) {
    this.stamp = new Int32Array(capacity);
    this.mark = new Int32Array(capacity);
    this.best = new Float32Array(capacity);
    this.total = new Float32Array(capacity);
    this.typo = new Uint8Array(capacity);
    this.titleStamp = new Int32Array(capacity);
    this.titleWords = new Uint8Array(capacity);
    this.listA = new Int32Array(capacity);
    this.listB = new Int32Array(capacity);
    this.aliveBits = new Uint32Array((capacity >>> 5) + 1);
    this.docs = new Int32Array(capacity);
    this.scores = new Float32Array(capacity);
  }

  /** Sets (or clears) the alive bit of the first `count` documents of `list`. */
  markAlive(list: Int32Array, count: number, alive: boolean): void {
    const bits = this.aliveBits;
    if (alive) for (let i = 0; i < count; i++) bits[list[i]! >>> 5]! |= 1 << (list[i]! & 31);
    else for (let i = 0; i < count; i++) bits[list[i]! >>> 5] = 0;
  }

  next(): number {
    if (this.generation >= 0x3fffffff) {
      this.stamp.fill(0);
      this.mark.fill(0);
      this.titleStamp.fill(0);
      this.generation = 0;
    }
    return ++this.generation;
  }
}
