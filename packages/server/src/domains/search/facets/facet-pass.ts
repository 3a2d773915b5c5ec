/**
 * Fast path of facets.ts `countFacets` after filter-bits.ts `keepBits`: must equal them (search-facet-pass.test.ts).
 *
 * The usual storefront request's facet work in one pass over the matches (facets.ts holds the columns
 * and the general count): a repeated filter's bits, at most one ticked facet.
 */
import { keepBits } from '../filter/filter-bits.js';
import { NO_SINGLE, type FacetColumn } from './facet-column.js';
import { countComplement, countValues, facetResults, uncountValues, type FacetResult, type FacetScratch } from './facets.js';
import { deleteOldest } from '../../../platform/collections/oldest-first.js';

/**
 * The usual storefront request in one pass over the matches: a repeated filter's bits (filter-bits.ts,
 * or no filter) and at most one facet with a selection (a ticked colour). Each match is tested against
 * the filter, counted in the selected facet (whose own selection does not apply to its counts), and
 * kept, moved down in `docs` and `scores`, when it passes the selection; the other facets then count
 * the kept ones. countFacets does the same in separate passes (a status per match, a list of passing
 * positions, a compaction): for a word in most items those passes cost more than the counting.
 * Returns undefined, having changed nothing, for two or more selected facets (countFacets' case).
 */
export function filterAndCountFacets(
  scratch: FacetScratch,
  columns: readonly FacetColumn[],
  selections: ReadonlyMap<string, ReadonlySet<string>>,
  bits: Uint32Array | undefined,
  docs: Int32Array,
  scores: Float32Array,
  length: number,
  countsWanted: boolean,
  base?: FacetBase,
): { results: FacetResult[]; length: number } | undefined {
  let at = -1;
  for (let c = 0; c < columns.length; c++) {
    if ((selections.get(columns[c]!.facet.id)?.size ?? 0) === 0) continue;
    if (at >= 0) return undefined;
    at = c;
  }
  const counts = columns.map((column) => new Int32Array(column.labels.length + 1));
  const totals = new Int32Array(columns.length);
  let kept: number;
  if (at < 0) kept = bits === undefined ? length : keepBits(bits, docs, scores, length);
  else if (base !== undefined && length === base.live) {
    // Every live item matched (an empty query, a word in every item): the ticked facet's counts are the
    // filter's own, and one pass keeps what passes both the filter and the selection.
    const column = columns[at]!;
    if (countsWanted) counts[at]!.set(base.counts(column).subarray(0, counts[at]!.length));
    totals[at] = base.passing;
    // The selection's own bits and the filter's, joined a word at a time: then one bit test per match.
    const selected = selectedBits(column, column.selection(selections.get(column.facet.id)!));
    if (scratch.bothBits.length < selected.length) scratch.bothBits = new Uint32Array(selected.length);
    const both = scratch.bothBits;
    for (let w = 0; w < selected.length; w++) both[w] = selected[w]! & (bits === undefined ? -1 : (bits[w] ?? 0));
    kept = keepBits(both, docs, scores, length);
  } else if (base !== undefined && 2 * length > base.passing) {
    // A broad match ("the", an empty query): filter first, count the ticked facet from the filter's
    // counts as the unticked ones are below, then keep the selection, each step a simple pass.
    const column = columns[at]!;
    const filtered = bits === undefined ? length : keepBits(bits, docs, scores, length);
    if (countsWanted) {
      if (2 * filtered > base.passing) {
        const missing = filtered === base.passing ? 0 : notKept(scratch, bits, docs, filtered, column.capacity);
        countFromBase(column, counts[at]!, base.counts(column), scratch.missing, missing, filtered);
      } else countAll(column, docs, filtered, counts[at]!);
    }
    totals[at] = filtered;
    kept = keepSelected(column, column.selection(selections.get(column.facet.id)!), docs, scores, filtered);
  } else {
    const column = columns[at]!;
    const mask = column.selection(selections.get(column.facet.id)!);
    const result = filterAndSelect(column, mask, countsWanted ? counts[at]! : undefined, bits, docs, scores, length);
    kept = result.kept;
    totals[at] = result.filtered;
  }
  if (!countsWanted) return { results: [], length: kept };
  let generation = -1;
  let missing: number | undefined;
  for (let c = 0; c < columns.length; c++) {
    if (c === at) continue;
    const column = columns[c]!;
    if (at < 0 && base !== undefined && 2 * kept > base.passing) {
      // Most of what the filter lets through matched: its counts, minus the few slots that did not.
      // Everything it lets through matched (a word in every item, an empty query): nothing to take off.
      missing ??= kept === base.passing ? 0 : notKept(scratch, bits, docs, kept, column.capacity);
      totals[c] = countFromBase(column, counts[c]!, base.counts(column), scratch.missing, missing, kept);
    } else if (2 * kept > column.capacity) {
      // Most of the catalog kept: the column's totals minus the slots not kept (countComplement).
      if (generation < 0) generation = scratch.markSlots(docs, kept, column.capacity);
      totals[c] = countComplement(column, counts[c]!, scratch.passingSlots, generation, kept);
    } else {
      countAll(column, docs, kept, counts[c]!);
      totals[c] = kept;
    }
  }
  return { results: facetResults(columns, selections, counts, totals), length: kept };
}

/** Adds the values of the first `length` slots of `docs` to `counted`: a byte a slot where the column has one (`singles`). */
function countAll(column: FacetColumn, docs: Int32Array, length: number, counted: Int32Array): void {
  const singles = column.singles;
  if (singles !== undefined) {
    for (let i = 0; i < length; i++) {
      const id = singles[docs[i]!]!;
      if (id !== NO_SINGLE) counted[id]!++;
    }
    return;
  }
  const { pairs, more } = column;
  const extra = more.size > 0;
  for (let i = 0; i < length; i++) countValues(pairs, more, extra, docs[i]!, counted);
}

/**
 * What a broad match is counted against: every slot the request's filter lets through (filter-bits.ts
 * `passCounts`), or every live slot without a filter (the columns' totals).
 */
export interface FacetBase {
  /** Live slots: a match set this large is every one of them. */
  live: number;
  passing: number;
  counts(column: FacetColumn): Int32Array;
}

/**
 * The slots `bits` lets through (every slot below `capacity` without bits) that are not among the first
 * `kept` of `docs`, into `scratch.missing`; returns how many. Through a bit per kept slot, so the walk
 * is over words, not slots.
 */
function notKept(scratch: FacetScratch, bits: Uint32Array | undefined, docs: Int32Array, kept: number, capacity: number): number {
  const words = (capacity >>> 5) + 1;
  if (scratch.keptBits.length < words) scratch.keptBits = new Uint32Array(words);
  const keptBits = scratch.keptBits;
  keptBits.fill(0, 0, words);
  for (let i = 0; i < kept; i++) keptBits[docs[i]! >>> 5]! |= 1 << (docs[i]! & 31);
  let n = 0;
  for (let w = 0; w < words; w++) {
    let left = (bits === undefined ? -1 : (bits[w] ?? 0)) & ~keptBits[w]!;
    while (left !== 0) {
      const low = left & -left;
      const slot = w * 32 + 31 - Math.clz32(low);
      left ^= low;
      if (slot >= capacity) break;
      if (n === scratch.missing.length) {
        const grown = new Int32Array(2 * n);
        grown.set(scratch.missing);
        scratch.missing = grown;
      }
      scratch.missing[n++] = slot;
    }
  }
  return n;
}

/** `counted` as `base` minus the values of the `count` slots of `missing`; returns `kept` (the facet's total). */
function countFromBase(column: FacetColumn, counted: Int32Array, base: Int32Array, missing: Int32Array, count: number, kept: number): number {
  counted.set(base.subarray(0, Math.min(base.length, counted.length)));
  const { pairs, more } = column;
  const extra = more.size > 0;
  for (let i = 0; i < count; i++) uncountValues(pairs, more, extra, missing[i]!, counted);
  return kept;
}

/** Selections whose bits a column keeps (a shop's ticked colours are few and asked again and again). */
const SELECTIONS_KEPT = 16;
const selectionBits = new WeakMap<FacetColumn, Map<string, { changes: number; bits: Uint32Array }>>();

/**
 * A bit per slot of `column` holding a value `mask` selects, for a match set holding every live item:
 * worked out in one pass over the column (no more than that match set costs anyway) and kept, for the
 * last SELECTIONS_KEPT selections, until the column changes. Goes with the column (a WeakMap).
 */
function selectedBits(column: FacetColumn, mask: Uint8Array): Uint32Array {
  let kept = selectionBits.get(column);
  if (kept === undefined) selectionBits.set(column, (kept = new Map()));
  let key = '';
  for (let id = 0; id < mask.length; id++) if (mask[id] === 1) key += `${id},`;
  let entry = kept.get(key);
  if (entry === undefined || entry.changes !== column.changes) {
    const slots = column.capacity;
    const bits = new Uint32Array((slots >>> 5) + 1);
    for (let slot = 0; slot < slots; slot++) if (column.has(slot, mask)) bits[slot >>> 5]! |= 1 << (slot & 31);
    kept.delete(key);
    if (kept.size >= SELECTIONS_KEPT) deleteOldest(kept);
    kept.set(key, (entry = { changes: column.changes, bits }));
  }
  return entry.bits;
}

/**
 * Keeps the first `length` matches holding a value `mask` selects, in order; returns how many. Without a branch on the data: a slot without a value reads the entry past the
 * last value id, which `mask` has and never sets (FacetColumn.selection).
 */
function keepSelected(column: FacetColumn, mask: Uint8Array, docs: Int32Array, scores: Float32Array, length: number): number {
  const singles = column.singles;
  if (singles !== undefined) {
    // A byte a slot; no value reads mask[NO_SINGLE], never set.
    let n = 0;
    for (let i = 0; i < length; i++) {
      const doc = docs[i]!;
      docs[n] = doc;
      scores[n] = scores[i]!;
      n += mask[singles[doc]!]!;
    }
    return n;
  }
  const { pairs, more } = column;
  const extra = more.size > 0;
  // Added to -1 (no value), it gives the id past the last; the sign bit picks it without a branch.
  const shift = column.labels.length + 1;
  let n = 0;
  for (let i = 0; i < length; i++) {
    const doc = docs[i]!;
    const one = pairs[2 * doc]!;
    const two = pairs[2 * doc + 1]!;
    let selected = mask[one + ((one >> 31) & shift)]! | mask[two + ((two >> 31) & shift)]!;
    if (extra && two >= 0) for (const id of more.get(doc) ?? []) selected |= mask[id]!;
    // Moved down whether kept or not (n <= i): a branch on a selection as good as random costs more.
    docs[n] = doc;
    scores[n] = scores[i]!;
    n += selected;
  }
  return n;
}

/**
 * filterAndCountFacets' pass for its selected facet: counts (into `counted`, when given) the values of
 * every match passing the filter, and keeps those holding a selected value. Returns how many passed the
 * filter (the facet's total) and how many were kept.
 */
function filterAndSelect(column: FacetColumn, mask: Uint8Array, counted: Int32Array | undefined, bits: Uint32Array | undefined, docs: Int32Array, scores: Float32Array, length: number): { filtered: number; kept: number } {
  const singles = column.singles;
  if (singles !== undefined) {
    // The same pass reading a byte a slot (FacetColumn.singles).
    let filtered = 0;
    let n = 0;
    for (let i = 0; i < length; i++) {
      const doc = docs[i]!;
      if (bits !== undefined && ((bits[doc >>> 5]! >>> (doc & 31)) & 1) === 0) continue;
      filtered++;
      const id = singles[doc]!;
      if (id === NO_SINGLE) continue;
      if (counted !== undefined) counted[id]!++;
      docs[n] = doc;
      scores[n] = scores[i]!;
      n += mask[id]!;
    }
    return { filtered, kept: n };
  }
  const { pairs, more } = column;
  const extra = more.size > 0;
  let filtered = 0;
  let n = 0;
  for (let i = 0; i < length; i++) {
    const doc = docs[i]!;
    if (bits !== undefined && ((bits[doc >>> 5]! >>> (doc & 31)) & 1) === 0) continue;
    filtered++;
    const one = pairs[2 * doc]!;
    if (one < 0) continue;
    let selected = mask[one]!;
    const two = pairs[2 * doc + 1]!;
    if (counted !== undefined) {
      counted[one]!++;
      if (two >= 0) counted[two]!++;
    }
    if (two >= 0) {
      selected |= mask[two]!;
      if (extra) {
        for (const id of more.get(doc) ?? []) {
          if (counted !== undefined) counted[id]!++;
          selected |= mask[id]!;
        }
      }
    }
    docs[n] = doc;
    scores[n] = scores[i]!;
    n += selected;
  }
  return { filtered, kept: n };
}
