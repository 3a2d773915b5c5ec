/**
 * The usual storefront request's facet work in one pass over the matches (facets.ts holds the columns
 * and the general count): a repeated filter's bits, at most one ticked facet.
 */
import { keepBits } from './filter-bits.js';
import { countComplement, countValues, facetResults, type FacetColumn, type FacetResult, type FacetScratch } from './facets.js';

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
  else {
    const column = columns[at]!;
    const mask = column.selection(selections.get(column.facet.id)!);
    const result = filterAndSelect(column, mask, countsWanted ? counts[at]! : undefined, bits, docs, scores, length);
    kept = result.kept;
    totals[at] = result.filtered;
  }
  if (!countsWanted) return { results: [], length: kept };
  let generation = -1;
  for (let c = 0; c < columns.length; c++) {
    if (c === at) continue;
    const column = columns[c]!;
    if (2 * kept > column.capacity) {
      // Most of the catalog kept: the column's totals minus the slots not kept (countComplement).
      if (generation < 0) generation = scratch.markSlots(docs, kept, column.capacity);
      totals[c] = countComplement(column, counts[c]!, scratch.passingSlots, generation, kept);
    } else {
      const { pairs, more } = column;
      const extra = more.size > 0;
      for (let i = 0; i < kept; i++) countValues(pairs, more, extra, docs[i]!, counts[c]!);
      totals[c] = kept;
    }
  }
  return { results: facetResults(columns, selections, counts, totals), length: kept };
}

/**
 * filterAndCountFacets' pass for its selected facet: counts (into `counted`, when given) the values of
 * every match passing the filter, and keeps those holding a selected value. Returns how many passed the
 * filter (the facet's total) and how many were kept.
 */
function filterAndSelect(column: FacetColumn, mask: Uint8Array, counted: Int32Array | undefined, bits: Uint32Array | undefined, docs: Int32Array, scores: Float32Array, length: number): { filtered: number; kept: number } {
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
