/**
 * A filter over a whole match set at once (the search pipeline's filter step): keeps the matches that
 * pass, in order, with their scores. Number comparisons of a conjunction become ranges on
 * one-number-per-document typed columns, checked together in one pass; anything else runs the
 * compiled closure of filter-evaluation.ts per match.
 */
import type { Comparison, FilterNode, FilterValue } from '../../../platform/filter-language/filter-tree.js';
import { compileFilter, type AttributeColumn } from './filter-evaluation.js';

/**
 * The filter applied to a whole match set at once: keeps the entries of `docs` (and the same positions
 * of `scores`) that pass, in order, and returns how many. A conjunction runs its sides one after the
 * other over the survivors, and a one-number-per-document comparison is a tight loop over a typed
 * column; anything else (OR, NOT, string values) falls back to the compiled closure per entry.
 */
export function compileBatchFilter(
  node: FilterNode,
  column: (attribute: string) => AttributeColumn,
  numbers: (attribute: string) => Float64Array | undefined = () => undefined,
): (docs: Int32Array, scores: Float32Array, length: number) => number {
  if (node.kind === 'and') {
    // Number comparisons of a conjunction become ranges checked together in one pass; the other
    // conjuncts then run over its survivors (which passes first changes nothing but the cost).
    const conjuncts: FilterNode[] = [];
    const flatten = (n: FilterNode): void => {
      if (n.kind === 'and') {
        flatten(n.left);
        flatten(n.right);
      } else conjuncts.push(n);
    };
    flatten(node);
    const ranges: NumericRange[] = [];
    const others: FilterNode[] = [];
    for (const conjunct of conjuncts) {
      const range = conjunct.kind === 'compare' ? rangeOf(conjunct, numbers) : undefined;
      if (range === undefined) others.push(conjunct);
      else ranges.push(range);
    }
    const rest = others.map((other) => compileBatchFilter(other, column, numbers));
    return (docs, scores, length) => {
      let n = ranges.length === 0 ? length : keepInRanges(ranges, docs, scores, length);
      for (const keep of rest) n = keep(docs, scores, n);
      return n;
    };
  }
  if (node.kind === 'compare' && typeof node.value === 'number') {
    const numeric = numbers(node.attribute);
    if (numeric !== undefined) {
      const { op, value } = node;
      return (docs, scores, length) => keepNumeric(numeric, op, value, docs, scores, length);
    }
  }
  const keep = compileFilter(node, column, numbers);
  return (docs, scores, length) => {
    let n = 0;
    for (let i = 0; i < length; i++) {
      const doc = docs[i]!;
      if (!keep(doc)) continue;
      docs[n] = doc;
      scores[n++] = scores[i]!;
    }
    return n;
  };
}

/** `numericComparison` over a match set: one loop per operator, so the comparison is not a call per entry. */
function keepNumeric(column: Float64Array, op: Comparison, value: number, docs: Int32Array, scores: Float32Array, length: number): number {
  let n = 0;
  switch (op) {
    case '=':
      for (let i = 0; i < length; i++) {
        const doc = docs[i]!;
        if (!(column[doc] === value)) continue;
        docs[n] = doc;
        scores[n++] = scores[i]!;
      }
      return n;
    case '!=':
      for (let i = 0; i < length; i++) {
        const doc = docs[i]!;
        if (!(column[doc] !== value)) continue;
        docs[n] = doc;
        scores[n++] = scores[i]!;
      }
      return n;
    case '<':
      for (let i = 0; i < length; i++) {
        const doc = docs[i]!;
        if (!(column[doc]! < value)) continue;
        docs[n] = doc;
        scores[n++] = scores[i]!;
      }
      return n;
    case '<=':
      for (let i = 0; i < length; i++) {
        const doc = docs[i]!;
        if (!(column[doc]! <= value)) continue;
        docs[n] = doc;
        scores[n++] = scores[i]!;
      }
      return n;
    case '>':
      for (let i = 0; i < length; i++) {
        const doc = docs[i]!;
        if (!(column[doc]! > value)) continue;
        docs[n] = doc;
        scores[n++] = scores[i]!;
      }
      return n;
    case '>=':
      for (let i = 0; i < length; i++) {
        const doc = docs[i]!;
        if (!(column[doc]! >= value)) continue;
        docs[n] = doc;
        scores[n++] = scores[i]!;
      }
      return n;
  }
}

/** A number comparison as `low <= value <= high` over a one-number-per-document column (NaN, no value, fails). */
interface NumericRange {
  column: Float64Array;
  low: number;
  high: number;
}

function rangeOf(node: { attribute: string; op: Comparison; value: FilterValue }, numbers: (attribute: string) => Float64Array | undefined): NumericRange | undefined {
  const { op, value } = node;
  // `!=` holds for a missing value (NaN), which no range does; an infinite bound has no neighbour.
  if (typeof value !== 'number' || !Number.isFinite(value) || op === '!=') return undefined;
  const column = numbers(node.attribute);
  if (column === undefined) return undefined;
  switch (op) {
    case '=':
      return { column, low: value, high: value };
    case '<':
      return { column, low: -Infinity, high: -nextUp(-value) };
    case '<=':
      return { column, low: -Infinity, high: value };
    case '>':
      return { column, low: nextUp(value), high: Infinity };
    case '>=':
      return { column, low: value, high: Infinity };
  }
}

/** The smallest double above a finite `value`: `x > value` is `x >= nextUp(value)`. */
function nextUp(value: number): number {
  if (value === 0) return Number.MIN_VALUE;
  // Once per compiled comparison, not per document: a fresh view of the bits costs nothing that matters.
  const bits = new Float64Array(1);
  const bitsAsInt = new BigInt64Array(bits.buffer);
  bits[0] = value;
  bitsAsInt[0] = value > 0 ? bitsAsInt[0]! + 1n : bitsAsInt[0]! - 1n;
  return bits[0]!;
}

/** Keeps the entries whose document is within every range, in one pass. */
function keepInRanges(ranges: readonly NumericRange[], docs: Int32Array, scores: Float32Array, length: number): number {
  let n = 0;
  if (ranges.length === 1) {
    const { column, low, high } = ranges[0]!;
    for (let i = 0; i < length; i++) {
      const doc = docs[i]!;
      const x = column[doc]!;
      if (!(x >= low && x <= high)) continue;
      docs[n] = doc;
      scores[n++] = scores[i]!;
    }
    return n;
  }
  if (ranges.length === 2) {
    const { column: a, low: aLow, high: aHigh } = ranges[0]!;
    const { column: b, low: bLow, high: bHigh } = ranges[1]!;
    for (let i = 0; i < length; i++) {
      const doc = docs[i]!;
      const x = a[doc]!;
      if (!(x >= aLow && x <= aHigh)) continue;
      const y = b[doc]!;
      if (!(y >= bLow && y <= bHigh)) continue;
      docs[n] = doc;
      scores[n++] = scores[i]!;
    }
    return n;
  }
  outer: for (let i = 0; i < length; i++) {
    const doc = docs[i]!;
    for (const { column, low, high } of ranges) {
      const x = column[doc]!;
      if (!(x >= low && x <= high)) continue outer;
    }
    docs[n] = doc;
    scores[n++] = scores[i]!;
  }
  return n;
}
