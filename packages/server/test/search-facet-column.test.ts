/**
 * Facet columns keep value ids in 16 bits while a facet has fewer than 32,767 values and widen to 32
 * bits past that (domains/search/facets/facets.ts): a facet with more values than that (a per-product code,
 * say) still counts every value right, whether the values were there at the build or came with later
 * writes.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FacetColumn } from '../src/domains/search/facets/facet-column.js';
import { FacetScratch, countFacets } from '../src/domains/search/facets/facets.js';
import { filterAndCountFacets } from '../src/domains/search/facets/facet-pass.js';
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

/**
 * A facet whose items hold one value each (a colour, a brand, a price range) also keeps a byte per slot
 * (`FacetColumn.singles`), which the one-pass facet work reads instead of the value pairs; the answers
 * must be the pairs' own, and the byte column must go as soon as a slot stops fitting in it.
 */
describe('a facet of one value per item', () => {
  const COLOUR = { id: 'colour', title: 'Colour', attribute: 'colour', type: 'value', size: 10 } as FacetConfig;
  const colours = ['red', 'blue', 'green', 'black', 'white', 'pink'];
  const coloured = (n: number, colour: string | string[] | undefined): StoredItem => ({
    ...item(n, `c${n}`),
    attributes: colour === undefined ? { code: `c${n}` } : { code: `c${n}`, colour },
  });

  /** The one-pass answer for every doc in a scrambled order, a filter passing two slots in three, `selected` ticked. */
  function onePass(column: FacetColumn, slots: number, selected: string[]) {
    const order = Array.from({ length: slots }, (_, i) => (i * 7919) % slots);
    const docs = Int32Array.from(order);
    const scores = Float32Array.from(order, (slot) => slot / 10);
    const bits = new Uint32Array((slots >>> 5) + 1);
    for (let slot = 0; slot < slots; slot++) if (slot % 3 !== 0) bits[slot >>> 5]! |= 1 << (slot & 31);
    const selections = new Map(selected.length === 0 ? [] : [['colour', new Set(selected)]]);
    const answer = filterAndCountFacets(new FacetScratch(), [column], selections, bits, docs, scores, slots, true)!;
    return { results: answer.results, kept: [...docs.subarray(0, answer.length)], scores: [...scores.subarray(0, answer.length)] };
  }

  /** The same with the byte column set aside: the pairs' answer. */
  function byPairs(column: FacetColumn, slots: number, selected: string[]) {
    const singles = column.singles;
    column.singles = undefined;
    try {
      return onePass(column, slots, selected);
    } finally {
      column.singles = singles;
    }
  }

  it('answers as the value pairs do, with and without a selection, items without a value included', () => {
    const slots = 5_003;
    const items = Array.from({ length: slots }, (_, n) => coloured(n, n % 11 === 0 ? undefined : colours[n % colours.length]));
    const column = new FacetColumn(COLOUR, items.map((i) => ({ item: i })));
    assert.ok(column.singles instanceof Uint8Array);
    for (const selected of [[], ['red'], ['blue', 'pink'], ['purple']]) {
      const fast = onePass(column, slots, selected);
      assert.deepEqual(fast, byPairs(column, slots, selected), `selected ${selected.join(',')}`);
    }
    const red = onePass(column, slots, ['red']);
    // Slots holding red pass the filter (not a multiple of 3) and hold a colour (not a multiple of 11).
    const expected = Array.from({ length: slots }, (_, n) => n).filter((n) => n % 3 !== 0 && n % 11 !== 0 && n % colours.length === 0).length;
    assert.equal(red.kept.length, expected);
    assert.ok(red.kept.every((slot) => slot % colours.length === 0));
  });

  it('gives the byte column up when an item takes two values, and still counts right', () => {
    const slots = 600;
    const items = Array.from({ length: slots }, (_, n) => coloured(n, colours[n % colours.length]));
    const column = new FacetColumn(COLOUR, items.map((i) => ({ item: i })));
    const before = onePass(column, slots, ['green']);
    column.update(13, coloured(13, ['blue', 'green']));
    assert.equal(column.singles, undefined);
    const after = onePass(column, slots, ['green']);
    // Slot 13 (which the filter passes) was blue; now it is green as well: one more green, blue unchanged.
    const count = (answer: typeof before, value: string) => answer.results[0]!.values.find((v) => v.value === value)?.count;
    assert.equal(count(after, 'green'), count(before, 'green')! + 1);
    assert.equal(count(after, 'blue'), count(before, 'blue'));
    assert.ok(after.kept.includes(13));
    assert.deepEqual(after, byPairs(column, slots, ['green']));
  });

  it('gives it up at the 256th value, and follows removals and new slots until then', () => {
    const items = Array.from({ length: 300 }, (_, n) => coloured(n, `shade ${n}`));
    const column = new FacetColumn(COLOUR, items.slice(0, 250).map((i) => ({ item: i })));
    assert.ok(column.singles instanceof Uint8Array);
    // Removed: no value; new slots past the build's end (the byte column grows): their values.
    column.update(3, undefined);
    for (let n = 250; n < 255; n++) column.update(n, items[n]);
    assert.ok(column.singles instanceof Uint8Array);
    assert.deepEqual(onePass(column, 255, ['shade 3', 'shade 254']), byPairs(column, 255, ['shade 3', 'shade 254']));
    assert.equal(onePass(column, 255, ['shade 3']).kept.length, 0);
    assert.deepEqual(onePass(column, 255, ['shade 254']).kept, [254]);
    for (let n = 255; n < 300; n++) column.update(n, items[n]);
    assert.equal(column.singles, undefined);
    assert.deepEqual(onePass(column, 300, ['shade 299']).kept, [299]);
  });
});

/**
 * The listed values of a facet (`facetResults`): the top `size` by count, ties by label, then any
 * selected value outside them, then any selected value no item has. Checked against the plain
 * definition over many random counts, sizes and selections.
 */
describe('the values a facet lists', () => {
  it('are the top values by count then label, plus the selected ones, whatever the counts and selections', async () => {
    const { facetResults } = await import('../src/domains/search/facets/facets.js');
    let seed = 7;
    const random = (): number => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const names = Array.from({ length: 60 }, (_, n) => `v${String.fromCharCode(97 + (n % 26))}${n}`);
    const items = names.map((name, n) => item(n, name));
    for (let round = 0; round < 200; round++) {
      const size = 1 + Math.floor(random() * 12);
      const type = round % 5 === 0 ? 'range' : 'value';
      const column = new FacetColumn({ ...FACET, size, type } as FacetConfig, items.map((i) => ({ item: i })));
      const counted = Int32Array.from(column.labels, () => (random() < 0.3 ? 0 : Math.floor(random() * 6)));
      const chosen = new Set(names.filter(() => random() < 0.08).map((name) => name.toLowerCase()));
      if (round % 3 === 0) chosen.add('missing value');
      const [result] = facetResults([column], new Map([['code', chosen]]), [counted], Int32Array.of(99));
      // The plain definition: every listed value as an object, sorted whole.
      let expected = column.labels.map((value, id) => ({ value, count: counted[id]!, selected: chosen.has(column.folded[id]!) })).filter((v) => v.count > 0 || v.selected);
      if (type === 'value') {
        const order = (x: { value: string; count: number }, y: { value: string; count: number }) => y.count - x.count || (x.value < y.value ? -1 : x.value > y.value ? 1 : 0);
        const top = [...expected].sort(order).slice(0, size);
        expected = [...top, ...expected.filter((v) => v.selected && !top.includes(v)).sort(order)];
      }
      for (const value of chosen) if (!column.folded.includes(value)) expected.push({ value, count: 0, selected: true });
      assert.deepEqual(result!.values, expected, `round ${round}`);
      assert.equal(result!.count, 99);
    }
  });
});
