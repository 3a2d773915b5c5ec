/**
 * Facet columns keep value ids in 16 bits while a facet has fewer than 32,767 values and widen to 32
 * bits past that (domains/search/facets.ts): a facet with more values than that (a per-product code,
 * say) still counts every value right, whether the values were there at the build or came with later
 * writes.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FacetColumn, FacetScratch, countFacets } from '../src/domains/search/facets.js';
import type { StoredItem } from '../src/domains/catalog/types.js';
import type { FacetConfig } from '../src/platform/config/schema.js';

const FACET = { id: 'code', title: 'Code', attribute: 'code', type: 'value', size: 5 } as FacetConfig;

function item(n: number, code: string): StoredItem {
  return { key: `p${n}`, id: `p${n}`, type: 'product', context: 'default', kind: 'product', updated: '2026-11-27T00:00:00.000Z', attributes: { code, colour: n % 2 === 0 ? 'red' : 'blue' } };
}

/** Counts of the facet over every slot, with `selected` values ticked. */
function counts(column: FacetColumn, slots: number, selected: string[]): { total: number; values: { value: string; count: number; selected: boolean }[] } {
  const docs = Int32Array.from({ length: slots }, (_, i) => i);
  const { results } = countFacets(new FacetScratch(), [column], new Map([['code', new Set(selected)]]), docs, slots, true);
  return { total: results[0]!.count, values: results[0]!.values };
}

describe('a facet with more than 32,767 values', () => {
  it('counts every value, built with them all', () => {
    const items = Array.from({ length: 40_000 }, (_, n) => item(n, `c${n % 36_000}`));
    const column = new FacetColumn(FACET, items.map((i) => ({ item: i })));
    assert.ok(column.pairs instanceof Int32Array);
    const { total, values } = counts(column, items.length, ['c35999', 'c100']);
    assert.equal(total, 40_000);
    // Codes below 4,000 are on two items, the rest on one; the top five are the smallest two-item codes.
    assert.deepEqual(values.slice(0, 5).map((v) => [v.value, v.count]), [['c0', 2], ['c1', 2], ['c10', 2], ['c100', 2], ['c1000', 2]]);
    assert.deepEqual(values.find((v) => v.value === 'c35999'), { value: 'c35999', count: 1, selected: true });
  });

  it('widens when writes bring the 32,767th value, keeping the values before it', () => {
    const items = Array.from({ length: 30_000 }, (_, n) => item(n, `c${n}`));
    const column = new FacetColumn(FACET, items.map((i) => ({ item: i })));
    assert.ok(column.pairs instanceof Int16Array);
    for (let n = 30_000; n < 36_000; n++) column.update(n, item(n, `c${n}`));
    // One old item takes a new code, one a code past the boundary.
    column.update(5, item(5, 'c35000'));
    assert.ok(column.pairs instanceof Int32Array);
    const { total, values } = counts(column, 36_000, ['c35000', 'c7', 'c5']);
    assert.equal(total, 36_000);
    assert.deepEqual(values[0], { value: 'c35000', count: 2, selected: true });
    assert.deepEqual(values.find((v) => v.value === 'c7'), { value: 'c7', count: 1, selected: true });
    // Item 5 left code c5: ticked, it is listed with no items.
    assert.deepEqual(values.find((v) => v.value === 'c5'), { value: 'c5', count: 0, selected: true });
  });
});
