/**
 * facet-pass.ts `filterAndCountFacets` is the fast path of the search pipeline's facet step: it must
 * give what the reference gives, the filter's bits applied (filter-bits.ts `keepBits`) and then
 * facets.ts `countFacets` with its passing matches moved down. Held to it here over a real index with
 * removed slots, facets of one value, of lists and of many values, items without a value, match sets
 * from a few items to every live one in scrambled order, no filter or a repeated one, no selection,
 * one ticked facet or two (which the fast path leaves to the reference, changing nothing).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SearchIndex } from '../src/domains/search/index/search-index.js';
import { FacetScratch, countFacets } from '../src/domains/search/facets/facets.js';
import { filterAndCountFacets, type FacetBase } from '../src/domains/search/facets/facet-pass.js';
import { keepBits } from '../src/domains/search/filter/filter-bits.js';
import type { StoredItem } from '../src/domains/catalog/types.js';
import type { FacetConfig } from '../src/platform/config/schema.js';
import { parseFilter } from '../src/platform/filter-language/parse-filter.js';

function rng(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1_103_515_245 + 12_345) % 2_147_483_648;
    return x / 2_147_483_648;
  };
}

const COLOURS = ['Red', 'Blue', 'Green', 'Black', 'White', 'Rosé'];
const TAGS = ['garden', 'kitchen', 'gift', 'sale', 'new', 'outdoor', 'light'];
const FACETS = [
  { id: 'colour', title: 'Colour', attribute: 'colour', type: 'value', size: 4 },
  { id: 'tags', title: 'Tags', attribute: 'tags', type: 'value', size: 5 },
  { id: 'maker', title: 'Maker', attribute: 'maker', type: 'value', size: 10 },
] as FacetConfig[];
const FILTERS = ['in_stock = 1', 'price < 60'];
const SLOTS = 3_000;

const r = rng(41);
const pick = <V>(list: readonly V[]): V => list[Math.floor(r() * list.length)]!;
const items: StoredItem[] = Array.from({ length: SLOTS }, (_, n) => {
  const attributes: Record<string, unknown> = { title: `item ${n}`, price: Math.floor(r() * 100), in_stock: n % 4 === 0 ? 0 : 1, maker: `maker ${Math.floor(r() * 400)}` };
  // One colour, two (a list), or none; tags a comma-joined list of up to four.
  if (n % 9 !== 0) attributes.colour = n % 13 === 0 ? [pick(COLOURS), pick(COLOURS)] : pick(COLOURS);
  if (n % 5 !== 0) attributes.tags = Array.from({ length: 1 + Math.floor(r() * 4) }, () => pick(TAGS)).join(', ');
  return { key: `p${n}`, id: `p${n}`, type: 'product', context: 'default', kind: 'product', updated: '2026-11-28T00:00:00.000Z', attributes };
});
const index = new SearchIndex(items, ['title']);
// Removed items leave empty slots, which no match set holds and the columns no longer count.
index.apply({ upserted: [], removedKeys: items.filter((_, n) => n % 17 === 3).map((item) => item.id) });
const live = Array.from({ length: index.docs.length }, (_, slot) => slot).filter((slot) => index.docs[slot] !== undefined);
const columns = FACETS.map((facet) => index.facetColumn(facet));

/** A match set: `share` of the live slots (all of them at 1), scrambled, with scores. */
function matchSet(share: number): { docs: Int32Array; scores: Float32Array } {
  const chosen = share === 1 ? [...live] : live.filter(() => r() < share);
  for (let i = chosen.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [chosen[i], chosen[j]] = [chosen[j]!, chosen[i]!];
  }
  return { docs: Int32Array.from(chosen), scores: Float32Array.from(chosen, () => r()) };
}

/** The filter's bits, as a repeated filter has them (its first request only notes it). */
function bitsOf(text: string): Uint32Array {
  const node = parseFilter(text);
  return index.filterBits.get(text, node) ?? index.filterBits.get(text, node)!;
}

/** The reference: bits applied, then countFacets, then its passing matches moved down. */
function reference(selections: Map<string, Set<string>>, bits: Uint32Array | undefined, docs: Int32Array, scores: Float32Array, countsWanted: boolean) {
  let length = docs.length;
  if (bits !== undefined) length = keepBits(bits, docs, scores, length);
  const counted = countFacets(new FacetScratch(), columns, selections, docs, length, countsWanted);
  if (selections.size > 0) {
    const { passing } = counted;
    for (let n = 0; n < passing.length; n++) {
      docs[n] = docs[passing[n]!]!;
      scores[n] = scores[passing[n]!]!;
    }
    length = passing.length;
  }
  return { results: counted.results, docs: [...docs.subarray(0, length)], scores: [...scores.subarray(0, length)] };
}

describe('the facet pass', () => {
  it('answers as bits then countFacets do: counts, kept matches in order, their scores', () => {
    let fused = 0;
    let cases = 0;
    for (const share of [0.02, 0.3, 0.6, 0.95, 1]) {
      for (const filter of [undefined, ...FILTERS]) {
        for (const ticked of [[], [['colour', ['red']]], [['tags', ['gift', 'sale']]], [['maker', ['maker 7', 'maker 300']]], [['colour', ['rose', 'black']], ['tags', ['new']]]] as [string, string[]][][]) {
          for (const countsWanted of [true, false]) {
            // The pipeline's base: the filter's pass counts, the columns' totals without a filter, or
            // none (a filter seen for the first time, evaluated over the matches before this step).
            for (const withBase of [true, false]) {
              const bits = filter === undefined ? undefined : bitsOf(filter);
              const base: FacetBase | undefined = !withBase
                ? undefined
                : bits === undefined
                  ? { live: index.size, passing: index.size, counts: (column) => column.totals }
                  : { live: index.size, passing: index.filterBits.passing(bits), counts: (column) => index.filterBits.passCounts(bits, column) };
              const selections = new Map(ticked.map(([id, values]) => [id, new Set(values)]));
              const { docs, scores } = matchSet(share);
              const fastDocs = docs.slice();
              const fastScores = scores.slice();
              const handed = docs.slice();
              const want = reference(selections, bits, docs, scores, countsWanted);
              const got = filterAndCountFacets(new FacetScratch(), columns, selections, bits, fastDocs, fastScores, fastDocs.length, countsWanted, base);
              const label = `share ${share}, filter ${filter ?? 'none'}, ticked ${JSON.stringify(ticked)}, counts ${countsWanted}, base ${withBase}`;
              cases++;
              if (selections.size > 1) {
                // Two ticked facets are the reference's case: nothing answered, nothing moved.
                assert.equal(got, undefined, label);
                assert.deepEqual(fastDocs, handed, label);
                continue;
              }
              assert.ok(got !== undefined, label);
              fused++;
              assert.deepEqual(got.results, want.results, `${label}: facets`);
              assert.deepEqual([...fastDocs.subarray(0, got.length)], want.docs, `${label}: kept matches`);
              assert.deepEqual([...fastScores.subarray(0, got.length)], want.scores, `${label}: their scores`);
            }
          }
        }
      }
    }
    assert.equal(cases, 5 * 3 * 5 * 2 * 2);
    assert.equal(fused, 5 * 3 * 4 * 2 * 2);
  });
});

