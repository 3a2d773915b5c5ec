/**
 * The parts of a sort order's ranks (sort-ranks.ts) for any order: one key's values ranked, then the
 * keys composed. Each is a generator that yields every few thousand steps, so a request naming an
 * order nobody ranked yet waits for it while the server goes on answering others. (A comparator sort
 * of the slots by title held the event loop 154 to 173 ms over 75,000 slots.)
 *
 * How values compare: a slot's first value is its key; numbers come before other values, in numeric
 * order; strings compare folded (analyzer.ts `fold`: case, accents), by UTF-16 code unit; other values
 * (booleans) by their text. A slot without a value (or with NaN) goes last in either direction.
 */
import type { FilterValue } from '../../../platform/filter-language/filter-tree.js';
import { fold } from '../index/analyzer.js';

/** Yield after every this many steps plus one (a mask). */
const STEP = 4095;
/** Folding text is slower: a yield after every this many slots plus one. */
const TEXT_STEP = 1023;
/** Texts sorted natively at a time before merging (sortingTexts). */
const RUN = 2048;

/** One key's ranks: each slot's value as a dense ascending rank (equal values share one), -1 for none. */
export interface KeyRanks {
  ranks: Int32Array;
  /** How many distinct values the slots hold: ranks run from 0 to distinct − 1. */
  distinct: number;
}

/** Ranks each slot's first value of `column` (see the file's comment for the order). */
export function* keyRanking(column: readonly (readonly FilterValue[])[], slots: number): Generator<unknown, KeyRanks> {
  // Per slot: -1 none, -2 a number (in `numbers`), else the id of its text in `texts`.
  const codes = new Int32Array(slots).fill(-1);
  const numbers = new Float64Array(slots);
  let numberCount = 0;
  const texts: string[] = [];
  const textIds = new Map<string, number>();
  for (let slot = 0; slot < slots; slot++) {
    if ((slot & TEXT_STEP) === TEXT_STEP) yield;
    const value = column[slot]?.[0];
    if (value === undefined) continue;
    if (typeof value === 'number') {
      if (Number.isNaN(value)) continue;
      codes[slot] = -2;
      numbers[slot] = value;
      numberCount++;
      continue;
    }
    const text = typeof value === 'string' ? foldText(value) : String(value);
    let id = textIds.get(text);
    if (id === undefined) {
      id = texts.length;
      texts.push(text);
      textIds.set(text, id);
    }
    codes[slot] = id;
  }
  const present = new Float64Array(numberCount);
  let n = 0;
  for (let slot = 0; slot < slots; slot++) if (codes[slot] === -2) present[n++] = numbers[slot]!;
  const distinctNumbers = yield* distinctAscending(present);
  const sorted = yield* sortingTexts(texts);
  // Each text's place among them (a lookup of its id: the map hashed these very strings already).
  const textRank = new Int32Array(texts.length);
  for (let k = 0; k < sorted.length; k++) {
    if ((k & TEXT_STEP) === TEXT_STEP) yield;
    textRank[textIds.get(sorted[k]!)!] = k;
  }
  const ranks = new Int32Array(slots);
  for (let slot = 0; slot < slots; slot++) {
    if ((slot & STEP) === STEP) yield;
    const code = codes[slot]!;
    ranks[slot] = code === -1 ? -1 : code === -2 ? lowerBound(distinctNumbers, numbers[slot]!) : distinctNumbers.length + textRank[code]!;
  }
  return { ranks, distinct: distinctNumbers.length + texts.length };
}

/** analyzer.ts `fold`, at a third of its cost for plain ASCII text (nothing to decompose or drop: only case). */
export function foldText(text: string): string {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return fold(text);
  return text.toLowerCase();
}

/**
 * Each slot's rank under `keys` in turn (the first decides, the next breaks its ties): how many slots
 * come strictly before it, so equal slots share a rank.
 */
export function* composing(keys: readonly { key: KeyRanks; desc: boolean }[], slots: number): Generator<unknown, Int32Array> {
  let composite: Float64Array = new Float64Array(slots);
  for (let k = 0; k < keys.length; k++) {
    const { key, desc } = keys[k]!;
    // A slot's place under this key, 0 to distinct; none is `distinct`: last whatever the direction.
    const base = key.distinct + 1;
    for (let slot = 0; slot < slots; slot++) {
      if ((slot & STEP) === STEP) yield;
      const rank = key.ranks[slot]!;
      const place = rank < 0 ? key.distinct : desc ? key.distinct - 1 - rank : rank;
      composite[slot] = composite[slot]! * base + place;
    }
    // Dense again before the next key multiplies it, so every composite stays an exact integer.
    if (k < keys.length - 1) composite = yield* densified(composite);
  }
  const sorted = composite.slice();
  yield;
  sorted.sort();
  yield;
  const ranks = new Int32Array(slots);
  for (let slot = 0; slot < slots; slot++) {
    if ((slot & STEP) === STEP) yield;
    ranks[slot] = lowerBound(sorted, composite[slot]!);
  }
  return ranks;
}

/** `values` replaced by their dense ranks among themselves. */
function* densified(values: Float64Array): Generator<unknown, Float64Array> {
  const distinct = yield* distinctAscending(values.slice());
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    if ((i & STEP) === STEP) yield;
    out[i] = lowerBound(distinct, values[i]!);
  }
  return out;
}

/** The distinct values of `values` (sorted in place), ascending. */
function* distinctAscending(values: Float64Array): Generator<unknown, Float64Array> {
  yield;
  values.sort();
  yield;
  let distinct = 0;
  for (let i = 0; i < values.length; i++) if (i === 0 || values[i] !== values[distinct - 1]) values[distinct++] = values[i]!;
  return values.subarray(0, distinct);
}

/**
 * `texts` sorted (by UTF-16 code unit, as `<` compares): runs of a few thousand sorted natively, a
 * millisecond or two each, then merged pairwise in steps. One native sort of 100,000 titles held the
 * loop 35 to 75 ms.
 */
function* sortingTexts(texts: readonly string[]): Generator<unknown, string[]> {
  const n = texts.length;
  let from: string[] = new Array<string>(n);
  for (let lo = 0; lo < n; lo += RUN) {
    const run = texts.slice(lo, lo + RUN).sort();
    for (let i = 0; i < run.length; i++) from[lo + i] = run[i]!;
    yield;
  }
  let to: string[] = new Array<string>(n);
  let steps = 0;
  for (let width = RUN; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let i = lo;
      let j = mid;
      for (let k = lo; k < hi; k++) {
        if (j >= hi || (i < mid && !(from[j]! < from[i]!))) to[k] = from[i++]!;
        else to[k] = from[j++]!;
        if ((++steps & STEP) === 0) yield;
      }
    }
    [from, to] = [to, from];
  }
  return from;
}

/** How many values of ascending `sorted` are below `value`. */
export function lowerBound(sorted: Float64Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
