/**
 * Facets over a match set: each configured facet keeps, per index slot, the ids of its values in typed
 * arrays (updated with the index), so counting a request's matches is integer increments, not string
 * work. Counts are disjunctive: a facet's counts apply every other facet's selection but not its own.
 */
import type { SearchFacet } from '@discovery-kit/protocol';
import type { FacetColumn } from './facet-column.js';
import { firstInOrder } from '../order/ranking.js';

/** A facet as the search API answers it in `metadata.facets` (the protocol's wire type). */
export type FacetResult = SearchFacet;

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
    const { labels, folded } = column;
    const counted = counts[c]!;
    const isSelected = (id: number): boolean => chosen !== undefined && chosen.has(folded[id]!);
    // The values listed, by id: the ones some item has, and the selected ones.
    let ids: number[] = [];
    for (let id = 0; id < labels.length; id++) if (counted[id]! > 0 || isSelected(id)) ids.push(id);
    if (facet.type === 'value' && ids.length > 0) {
      // The top `size` by count, then by label; only those become objects (a brand facet has hundreds).
      const order = (a: number, b: number): number => counted[b]! - counted[a]! || (labels[a]! < labels[b]! ? -1 : labels[a]! > labels[b]! ? 1 : 0);
      const top = firstInOrder(ids.length, facet.size, order, Int32Array.from(ids));
      const shown = new Set(top);
      // A selected value stays listed even when it falls outside the top `size`, so it can be unticked.
      const extra = chosen === undefined ? [] : ids.filter((id) => !shown.has(id) && isSelected(id)).sort(order);
      ids = extra.length === 0 ? top : [...top, ...extra];
    }
    const values = ids.map((id) => ({ value: labels[id]!, count: counted[id]!, selected: isSelected(id) }));
    // A selection naming a value no item has is still answered, so the shopper can untick it.
    for (const value of chosen ?? []) if (!folded.includes(value)) values.push({ value, count: 0, selected: true });
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
