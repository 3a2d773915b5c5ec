/**
 * Facets over a match set: each configured facet keeps, per index slot, the ids of its values in typed
 * arrays (updated with the index), so counting a request's matches is integer increments, not string
 * work. Counts are disjunctive: a facet's counts apply every other facet's selection but not its own.
 */
import type { SearchFacet } from '@discovery-kit/protocol';
import type { StoredItem } from '../catalog/types.js';
import type { FacetConfig } from '../../platform/config/schema.js';
import { fold } from './analyzer.js';
import { firstInOrder } from './ranking.js';
import { attributeValues } from './attribute-values.js';

/** A facet as the search API answers it in `metadata.facets` (the protocol's wire type). */
export type FacetResult = SearchFacet;

/** `FacetColumn.singles`' entry for a slot without a value; also the first value id it cannot hold. */
export const NO_SINGLE = 255;

export class FacetColumn {
  /** Value id → the value as first seen (range facets: the range label). */
  readonly labels: string[] = [];
  /** The same values folded (case, accents), as selections are compared. */
  readonly folded: string[] = [];
  private readonly ids = new Map<string, number>();
  /**
   * Slot → its first and second value ids (at 2 × slot and 2 × slot + 1), -1 for none: most items have
   * one or two (a category pair), and both sit in the same cache line when counting reads them.
   * 16-bit while the facet has fewer than 32,767 values (nearly every facet), 32-bit past that: counting
   * reads it at every match in no useful order, and half the bytes keep more of it in the processor's
   * caches (a 100,000-slot column is 400 KB instead of 800 KB).
   */
  pairs: Int16Array | Int32Array;
  /** Slot → its value ids past the second, for the rare items with more. */
  readonly more = new Map<number, number[]>();
  /**
   * Slot → its only value id (NO_SINGLE for none), while no slot holds two values and none a value id
   * past 254: a colour, a brand, a price range. One byte a slot (100 KB for 100,000 slots, where
   * `pairs` takes 400 KB), so the per-match passes (facet-pass.ts), which read it in no useful order,
   * find more of it in the processor's caches. Dropped for good (undefined) when a slot stops fitting.
   */
  singles: Uint8Array | undefined;
  /**
   * Value id → how many slots hold it over the whole index, kept with every update: a match set holding
   * most of the catalog is counted as these totals minus the slots it lacks (countFacets).
   */
  totals = new Int32Array(16);

  constructor(
    readonly facet: FacetConfig,
    docs: readonly ({ item: StoredItem } | undefined)[],
  ) {
    if (facet.type === 'range') for (const range of facet.ranges ?? []) this.idOf(range.label);
    this.pairs = new Int16Array(2 * Math.max(16, docs.length)).fill(-1);
    this.singles = new Uint8Array(Math.max(16, docs.length)).fill(NO_SINGLE);
    docs.forEach((doc, slot) => this.update(slot, doc?.item));
  }

  /** The same column filled a few hundred slots per step, for a build that yields (sliced-work.ts). */
  static *building(facet: FacetConfig, docs: readonly ({ item: StoredItem } | undefined)[]): Generator<unknown, FacetColumn> {
    const column = new FacetColumn(facet, []);
    column.pairs = new Int16Array(2 * Math.max(16, docs.length)).fill(-1);
    column.singles = new Uint8Array(Math.max(16, docs.length)).fill(NO_SINGLE);
    for (let slot = 0; slot < docs.length; slot++) {
      column.update(slot, docs[slot]?.item);
      if ((slot & 511) === 511) yield;
    }
    return column;
  }

  /** Counts every update, so what was counted from the column can tell it is stale (filter-bits.ts `passCounts`). */
  changes = 0;

  update(slot: number, item: StoredItem | undefined): void {
    this.changes++;
    if (2 * slot >= this.pairs.length) this.pairs = this.widened(2 * Math.max(slot + 1, this.pairs.length), this.pairs instanceof Int32Array);
    this.adjustTotals(slot, -1);
    const ids = item === undefined ? [] : this.valueIds(item);
    this.pairs[2 * slot] = ids[0] ?? -1;
    this.pairs[2 * slot + 1] = ids[1] ?? -1;
    if (ids.length > 2) this.more.set(slot, ids.slice(2));
    else this.more.delete(slot);
    this.adjustTotals(slot, 1);
    if (this.singles !== undefined) {
      if (ids.length > 1 || (ids[0] ?? 0) >= NO_SINGLE) this.singles = undefined;
      else {
        if (slot >= this.singles.length) {
          const grown = new Uint8Array(this.pairs.length >> 1).fill(NO_SINGLE);
          grown.set(this.singles);
          this.singles = grown;
        }
        this.singles[slot] = ids[0] ?? NO_SINGLE;
      }
    }
  }

  /** Slots the column has room for (some past the index's last slot, holding no value). */
  get capacity(): number {
    return this.pairs.length >> 1;
  }

  private adjustTotals(slot: number, delta: 1 | -1): void {
    const one = this.pairs[2 * slot]!;
    if (one < 0) return;
    this.totals[one]! += delta;
    const two = this.pairs[2 * slot + 1]!;
    if (two < 0) return;
    this.totals[two]! += delta;
    for (const id of this.more.get(slot) ?? []) this.totals[id]! += delta;
  }

  has(slot: number, wanted: Uint8Array): boolean {
    const first = this.pairs[2 * slot]!;
    if (first < 0) return false;
    if (wanted[first] === 1) return true;
    const second = this.pairs[2 * slot + 1]!;
    if (second < 0) return false;
    if (wanted[second] === 1) return true;
    if (this.more.size === 0) return false;
    const more = this.more.get(slot);
    if (more !== undefined) for (const id of more) if (wanted[id] === 1) return true;
    return false;
  }

  /** The value ids of `slot`, in the order its item lists the values. */
  idsOf(slot: number): number[] {
    const one = this.pairs[2 * slot]!;
    if (one < 0) return [];
    const two = this.pairs[2 * slot + 1]!;
    if (two < 0) return [one];
    return [one, two, ...(this.more.get(slot) ?? [])];
  }

  /** A mask over value ids of the values a shopper selected (compared without case or accents). */
  selection(values: ReadonlySet<string>): Uint8Array {
    // Entries past the values, never set: where a slot without a value is sent (facet-pass.ts), the
    // id past the last in `pairs`, NO_SINGLE in `singles`.
    const mask = new Uint8Array(Math.max(this.labels.length + 1, NO_SINGLE + 1));
    for (let id = 0; id < this.folded.length; id++) if (values.has(this.folded[id]!)) mask[id] = 1;
    return mask;
  }

  /** `pairs` copied into a column of `length` entries, 32-bit when `wide`. */
  private widened(length: number, wide: boolean): Int16Array | Int32Array {
    const grown = (wide ? new Int32Array(length) : new Int16Array(length)).fill(-1);
    grown.set(this.pairs);
    return grown;
  }

  private idOf(label: string): number {
    let id = this.ids.get(label);
    if (id === undefined) {
      id = this.labels.length;
      if (id === 0x7fff && this.pairs instanceof Int16Array) this.pairs = this.widened(this.pairs.length, true);
      this.labels.push(label);
      this.folded.push(fold(label));
      this.ids.set(label, id);
      if (id >= this.totals.length) {
        const grown = new Int32Array(this.totals.length * 2);
        grown.set(this.totals);
        this.totals = grown;
      }
    }
    return id;
  }

  private valueIds(item: StoredItem): number[] {
    const values = attributeValues(item, this.facet.attribute);
    const out: number[] = [];
    if (this.facet.type === 'value') {
      for (const value of values) {
        const id = this.idOf(String(value));
        if (!out.includes(id)) out.push(id);
      }
      return out;
    }
    (this.facet.ranges ?? []).forEach((range, id) => {
      if (values.some((v) => typeof v === 'number' && (range.from === undefined || v >= range.from) && (range.to === undefined || v < range.to))) out.push(id);
    });
    return out;
  }
}

/**
 * countFacets' per-match arrays, reused by the next call on the same index (its queries run one at a
 * time, synchronously): grown with room to spare and kept, since a request's arrays are read before
 * the next request runs.
 */
export class FacetScratch {
  status = new Int8Array(1024);
  passing = new Int32Array(1024);
  /** Slot → the generation of the last count that found it passing (the complement count's marks). */
  passingSlots = new Int32Array(1024);
  /** A bit per slot of the matches kept, and the slots a filter passes that are not (facet-pass.ts). */
  keptBits = new Uint32Array(32);
  /** A filter's bits and a selection's joined (facet-pass.ts). */
  bothBits = new Uint32Array(32);
  missing = new Int32Array(1024);
  generation = 0;

  /** Marks the slots of `docs` at `passing` positions with a new generation, which it returns. */
  markPassing(docs: Int32Array, passing: Int32Array, passed: number, capacity: number): number {
    const generation = this.nextGeneration(capacity);
    const marks = this.passingSlots;
    for (let j = 0; j < passed; j++) marks[docs[passing[j]!]!] = generation;
    return generation;
  }

  /** Marks the first `count` slots of `docs` with a new generation, which it returns. */
  markSlots(docs: Int32Array, count: number, capacity: number): number {
    const generation = this.nextGeneration(capacity);
    const marks = this.passingSlots;
    for (let j = 0; j < count; j++) marks[docs[j]!] = generation;
    return generation;
  }

  /** A generation no mark holds, with room for `capacity` slots. */
  private nextGeneration(capacity: number): number {
    if (this.passingSlots.length < capacity) this.passingSlots = new Int32Array(Math.ceil(capacity * 1.25));
    // Marks older than the wrap would read as current: start over once in two billion counts.
    if (this.generation === 0x7fffffff) {
      this.passingSlots.fill(0);
      this.generation = 0;
    }
    return ++this.generation;
  }

  /** The arrays with room for `length` matches. */
  fit(length: number): this {
    if (this.status.length < length) {
      this.status = new Int8Array(Math.ceil(length * 1.25));
      this.passing = new Int32Array(this.status.length);
    }
    return this;
  }
}

/**
 * Counts every facet over `docs` and says which docs pass all selections (their positions in `docs`, in
 * order, valid until the next call with the same scratch). One pass per selected facet
 * finds, per doc, which selection it fails: a doc failing none counts everywhere, a doc failing exactly
 * one counts only in that facet (whose own selection does not apply to it). Loops run facet by facet
 * over typed arrays, the shape that stays fast when a broad query matches most of the catalog.
 */
export function countFacets(
  scratch: FacetScratch,
  columns: readonly FacetColumn[],
  selections: ReadonlyMap<string, ReadonlySet<string>>,
  docs: Int32Array,
  length: number,
  countsWanted: boolean,
): { results: FacetResult[]; passing: Int32Array } {
  scratch.fit(length);
  // -1: passes every selection; c >= 0: fails only facet c's; -2: fails two or more.
  const status = scratch.status.subarray(0, length).fill(-1);
  const counts = columns.map((column) => new Int32Array(column.labels.length + 1));
  const totals = new Int32Array(columns.length);
  const selected: number[] = [];
  for (let at = 0; at < columns.length; at++) if ((selections.get(columns[at]!.facet.id)?.size ?? 0) > 0) selected.push(at);
  // With one selected facet, every doc counts in that facet (no other selection can exclude it): its
  // counts are taken in the same pass that checks its selection.
  const fused = countsWanted && selected.length === 1 ? selected[0]! : -1;
  for (const at of selected) {
    const column = columns[at]!;
    const mask = column.selection(selections.get(column.facet.id)!);
    if (at === fused) {
      totals[at] = selectAndCount(column, at, mask, counts[at]!, status, docs, length);
      continue;
    }
    const { pairs } = column;
    const extra = column.more.size > 0;
    for (let i = 0; i < length; i++) {
      const doc = docs[i]!;
      const one = pairs[2 * doc]!;
      if (one >= 0 && mask[one] === 1) continue;
      const two = one < 0 ? -1 : pairs[2 * doc + 1]!;
      if (two >= 0 && mask[two] === 1) continue;
      if (extra && two >= 0 && column.has(doc, mask)) continue;
      status[i] = status[i] === -1 ? at : -2;
    }
  }
  // Positions of the docs passing every selection, in order: an unselected facet counts exactly these.
  const passing = scratch.passing;
  let passed = 0;
  for (let i = 0; i < length; i++) if (status[i] === -1) passing[passed++] = i;
  if (countsWanted) {
    // A match set holding most of the catalog ("the", an empty query): the slots it lacks are fewer than
    // those it holds, so each unselected facet is counted as its column's totals minus those slots.
    let generation = -1;
    for (let c = 0; c < columns.length; c++) {
      if (c === fused) continue;
      const column = columns[c]!;
      if (selected.includes(c)) totals[c] = countColumn(column, c, counts[c]!, status, docs, length);
      else if (2 * passed > column.capacity) {
        if (generation < 0) generation = scratch.markPassing(docs, passing, passed, column.capacity);
        totals[c] = countComplement(column, counts[c]!, scratch.passingSlots, generation, passed);
      } else totals[c] = countPassing(column, counts[c]!, passing, passed, docs);
    }
  }
  if (!countsWanted) return { results: [], passing: passing.subarray(0, passed) };
  return { results: facetResults(columns, selections, counts, totals), passing: passing.subarray(0, passed) };
}

/** The facets as the response lists them, from each column's value counts and its total. */
export function facetResults(columns: readonly FacetColumn[], selections: ReadonlyMap<string, ReadonlySet<string>>, counts: readonly Int32Array[], totals: Int32Array): FacetResult[] {
  return columns.map((column, c) => {
    const facet = column.facet;
    const chosen = selections.get(facet.id);
    let values: { value: string; count: number; selected: boolean }[] = [];
    const counted = counts[c]!;
    for (let id = 0; id < column.labels.length; id++) {
      const count = counted[id]!;
      const isSelected = chosen !== undefined && chosen.has(column.folded[id]!);
      if (count > 0 || isSelected) values.push({ value: column.labels[id]!, count, selected: isSelected });
    }
    if (facet.type === 'value') {
      const order = (a: number, b: number): number => {
        const x = values[a]!;
        const y = values[b]!;
        return y.count - x.count || (x.value < y.value ? -1 : x.value > y.value ? 1 : 0);
      };
      const top = firstInOrder(values.length, facet.size, order);
      const shown = new Set(top);
      // A selected value stays listed even when it falls outside the top `size`, so it can be unticked.
      const extra = values.flatMap((v, i) => (v.selected && !shown.has(i) ? [i] : [])).sort(order);
      values = [...top, ...extra].map((i) => values[i]!);
    }
    // A selection naming a value no item has is still answered, so the shopper can untick it.
    for (const value of chosen ?? []) if (!column.folded.includes(value)) values.push({ value, count: 0, selected: true });
    return { id: facet.id, title: facet.title, attribute: facet.attribute, count: totals[c]!, values };
  });
}

/** One facet's value counts over the docs that pass every other facet's selection; returns how many do. */
function countColumn(column: FacetColumn, c: number, counted: Int32Array, status: Int8Array, docs: Int32Array, length: number): number {
  const { pairs, more } = column;
  const extra = more.size > 0;
  let total = 0;
  for (let i = 0; i < length; i++) {
    const state = status[i]!;
    if (state !== -1 && state !== c) continue;
    total++;
    countValues(pairs, more, extra, docs[i]!, counted);
  }
  return total;
}

/**
 * The only selected facet: marks the docs its selection excludes (status `at`) and counts its values
 * over every doc, since no other selection applies to its counts; returns how many docs there are.
 */
function selectAndCount(column: FacetColumn, at: number, mask: Uint8Array, counted: Int32Array, status: Int8Array, docs: Int32Array, length: number): number {
  const { pairs, more } = column;
  const extra = more.size > 0;
  for (let i = 0; i < length; i++) {
    const doc = docs[i]!;
    const one = pairs[2 * doc]!;
    if (one < 0) {
      status[i] = at;
      continue;
    }
    counted[one]!++;
    let kept = mask[one] === 1;
    const two = pairs[2 * doc + 1]!;
    if (two < 0) {
      if (!kept) status[i] = at;
      continue;
    }
    counted[two]!++;
    if (mask[two] === 1) kept = true;
    if (extra) {
      for (const id of more.get(doc) ?? []) {
        counted[id]!++;
        if (mask[id] === 1) kept = true;
      }
    }
    if (!kept) status[i] = at;
  }
  return length;
}

/** An unselected facet's value counts over the docs passing every selection (positions into `docs`); returns how many. */
function countPassing(column: FacetColumn, counted: Int32Array, passing: Int32Array, passed: number, docs: Int32Array): number {
  const { pairs, more } = column;
  const extra = more.size > 0;
  for (let j = 0; j < passed; j++) countValues(pairs, more, extra, docs[passing[j]!]!, counted);
  return passed;
}

/** An unselected facet's value counts as the column's totals minus the slots not marked passing; returns `passed`. */
export function countComplement(column: FacetColumn, counted: Int32Array, marks: Int32Array, generation: number, passed: number): number {
  const { pairs, more, totals } = column;
  counted.set(totals.subarray(0, counted.length));
  const extra = more.size > 0;
  const slots = column.capacity;
  for (let slot = 0; slot < slots; slot++) if (marks[slot] !== generation) uncountValues(pairs, more, extra, slot, counted);
  return passed;
}

/** Takes one slot's value ids off `counted` (countValues' opposite). */
export function uncountValues(pairs: Int16Array | Int32Array, more: ReadonlyMap<number, number[]>, extra: boolean, slot: number, counted: Int32Array): void {
  const one = pairs[2 * slot]!;
  if (one < 0) return;
  counted[one]!--;
  const two = pairs[2 * slot + 1]!;
  if (two < 0) return;
  counted[two]!--;
  if (extra) for (const id of more.get(slot) ?? []) counted[id]!--;
}

/** Adds one doc's value ids to `counted`: the first two side by side in `pairs`, the rare rest in `more`. */
export function countValues(pairs: Int16Array | Int32Array, more: ReadonlyMap<number, number[]>, extra: boolean, doc: number, counted: Int32Array): void {
  const one = pairs[2 * doc]!;
  if (one < 0) return;
  counted[one]!++;
  const two = pairs[2 * doc + 1]!;
  if (two < 0) return;
  counted[two]!++;
  if (extra) for (const id of more.get(doc) ?? []) counted[id]!++;
}
