/**
 * Fast path of filter-batch.ts (the filter evaluated over the matches): must equal it (search-filter-bits.test.ts).
 *
 * The filters a storefront repeats ("in_stock = 1", "price < 4000"), kept per index as one bit per
 * slot: whether the slot passes. Checking a match then reads a bit from an array of a few kilobytes that
 * stays in the processor's nearest cache, instead of one attribute column of megabytes per comparison
 * (filter-batch.ts), a cache miss each for a match set that reaches its documents in no useful order.
 *
 * A filter gets its bits at its second request, not its first (a one-off filter costs one pass over its
 * own matches, not one over the whole catalog), and keeps them through catalog writes: `update`
 * re-evaluates the written slots. Bounded: the least recently used filter is forgotten first, so an
 * index holds at most CAPACITY bit sets (for 100,000 slots, 12.5 KB each).
 */
import type { FilterNode } from '../../../platform/filter-language/filter-tree.js';
import { compileBatchFilter } from './filter-batch.js';
import { compileFilter, type AttributeColumn } from './filter-evaluation.js';
import type { FacetColumn } from '../facets/facet-column.js';
import { countValues } from '../facets/facets.js';
import { deleteOldest } from '../../../platform/collections/oldest-first.js';

/** Filters whose bits an index keeps. */
const CAPACITY = 32;

/** What the index lends a filter to be evaluated: its slots and attribute columns. */
export interface FilterSource {
  /** Slots in use so far (some may be empty: `live` says which). */
  slots(): number;
  live(slot: number): boolean;
  values(attribute: string): AttributeColumn;
  numbers(attribute: string): Float64Array | undefined;
}

interface Entry {
  node: FilterNode;
  /** Bits once the filter was requested twice; undefined after its first request. */
  bits: Uint32Array | undefined;
}

export class FilterBits {
  /** Least recently used first: a Map iterates in insertion order, and a use re-inserts its entry. */
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly source: FilterSource) {}

  /**
   * The bits of filter `text` (parsed as `node`), or undefined at its first request (the caller then
   * evaluates the filter over its matches directly).
   */
  get(text: string, node: FilterNode): Uint32Array | undefined {
    const entry = this.entries.get(text);
    if (entry === undefined) {
      // First request: only remembered. The same text always means the same filter.
      this.entries.set(text, { node, bits: undefined });
      if (this.entries.size > CAPACITY) deleteOldest(this.entries);
      return undefined;
    }
    this.entries.delete(text);
    this.entries.set(text, entry);
    entry.bits ??= this.build(entry.node);
    return entry.bits;
  }

  /**
   * What a filter's bits let through, per facet column: how many slots pass and how many of them hold
   * each value. A match set holding most of them is counted as these minus the few it lacks
   * (facet-pass.ts), which for a word in most items is a fraction of counting every match. Worked out
   * at the first request after a write and kept until the next one (or the column's next change).
   */
  private readonly counted = new WeakMap<Uint32Array, { passing: number; columns: Map<FacetColumn, { changes: number; counts: Int32Array }> }>();

  /** How many live slots pass `bits` (from `get`). */
  passing(bits: Uint32Array): number {
    return this.countedOf(bits).passing;
  }

  /** How many of the live slots passing `bits` hold each of `column`'s values (indexed by value id). */
  passCounts(bits: Uint32Array, column: FacetColumn): Int32Array {
    const entry = this.countedOf(bits);
    let counts = entry.columns.get(column);
    if (counts === undefined || counts.changes !== column.changes) {
      const values = new Int32Array(column.labels.length + 1);
      const { pairs, more } = column;
      const extra = more.size > 0;
      const slots = Math.min(bits.length * 32, column.capacity);
      for (let slot = 0; slot < slots; slot++) if (((bits[slot >>> 5]! >>> (slot & 31)) & 1) !== 0) countValues(pairs, more, extra, slot, values);
      entry.columns.set(column, (counts = { changes: column.changes, counts: values }));
    }
    return counts.counts;
  }

  private countedOf(bits: Uint32Array): { passing: number; columns: Map<FacetColumn, { changes: number; counts: Int32Array }> } {
    let entry = this.counted.get(bits);
    if (entry === undefined) {
      let passing = 0;
      for (let w = 0; w < bits.length; w++) passing += popCount(bits[w]!);
      this.counted.set(bits, (entry = { passing, columns: new Map() }));
    }
    return entry;
  }

  /** After a catalog write changed `touched` slots (their columns already updated): their bits again. */
  update(touched: Iterable<number>): void {
    const needed = (this.source.slots() >>> 5) + 1;
    for (const entry of this.entries.values()) {
      if (entry.bits === undefined) continue;
      this.counted.delete(entry.bits);
      if (entry.bits.length < needed) {
        const grown = new Uint32Array(Math.max(needed, entry.bits.length * 2));
        grown.set(entry.bits);
        entry.bits = grown;
      }
      // Compiled anew: a write can replace a number column (grown, or no longer one number per slot).
      const passes = compileFilter(entry.node, (a) => this.source.values(a), (a) => this.source.numbers(a));
      const bits = entry.bits;
      for (const slot of touched) {
        if (this.source.live(slot) && passes(slot)) bits[slot >>> 5]! |= 1 << (slot & 31);
        else bits[slot >>> 5]! &= ~(1 << (slot & 31));
      }
    }
  }

  /** The filter over every live slot, through the same batch evaluation a match set gets. */
  private build(node: FilterNode): Uint32Array {
    const slots = this.source.slots();
    const docs = new Int32Array(slots);
    let n = 0;
    for (let slot = 0; slot < slots; slot++) if (this.source.live(slot)) docs[n++] = slot;
    const keep = compileBatchFilter(node, (a) => this.source.values(a), (a) => this.source.numbers(a));
    const passed = keep(docs, new Float32Array(n), n);
    const bits = new Uint32Array((slots >>> 5) + 1);
    for (let i = 0; i < passed; i++) bits[docs[i]! >>> 5]! |= 1 << (docs[i]! & 31);
    return bits;
  }
}

/** Keeps the entries of `docs` (and the same positions of `scores`) whose bit is set, in order; returns how many. */
export function keepBits(bits: Uint32Array, docs: Int32Array, scores: Float32Array, length: number): number {
  let n = 0;
  // Without a branch: every entry is written at the next place, which only advances past a kept one
  // (n <= i, so nothing unread is overwritten). Whether a match passes is as good as random, and a
  // mispredicted branch per entry cost more than the extra writes.
  for (let i = 0; i < length; i++) {
    const doc = docs[i]!;
    docs[n] = doc;
    scores[n] = scores[i]!;
    n += (bits[doc >>> 5]! >>> (doc & 31)) & 1;
  }
  return n;
}

/** Set bits of a 32-bit word. */
export function popCount(word: number): number {
  let x = word - ((word >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
}
