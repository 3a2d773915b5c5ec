/**
 * Sort orders of any kind (text, several keys, mixed values) are ranked in steps that yield
 * (domains/search/order/key-ranks.ts, sort-ranks.ts), and the attribute and group columns a request's
 * filter and groupBy read first are built in steps too, so a request naming one nobody asked for yet
 * waits for it while the server answers others. Ranks are checked against a comparator sort written
 * here, columns against ones built at once; the index is a real SearchIndex; the HTTP cases go to a
 * real server.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { composing, keyRanking } from '../src/domains/search/order/key-ranks.js';
import { fold } from '../src/domains/search/index/analyzer.js';
import { runAtOnce } from '../src/platform/sliced-work.js';
import { SearchIndex, type SortKey } from '../src/domains/search/index/search-index.js';
import { FacetColumn } from '../src/domains/search/facets/facet-column.js';
import { attributeValues } from '../src/domains/search/index/attribute-values.js';
import type { StoredItem } from '../src/domains/catalog/types.js';
import { DomainError } from '../src/platform/domain-error.js';

type Value = string | number | boolean;

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** The order the ranks must give: numbers first (numerically), then text folded; none (or NaN) last either way. */
function compareValues(x: Value | undefined, y: Value | undefined): number {
  const none = (v: Value | undefined) => v === undefined || (typeof v === 'number' && Number.isNaN(v));
  if (none(x) || none(y)) return none(x) === none(y) ? 0 : none(x) ? 1 : -1;
  if (typeof x === 'number' && typeof y === 'number') return x - y;
  if (typeof x === 'number') return -1;
  if (typeof y === 'number') return 1;
  const a = typeof x === 'string' ? fold(x) : String(x);
  const b = typeof y === 'string' ? fold(y) : String(y);
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Each slot's rank as a full comparator sort gives it: how many slots come strictly before. */
function expectedRanks(columns: (Value[] | undefined)[][], desc: boolean[], slots: number): number[] {
  const compare = (a: number, b: number): number => {
    for (let k = 0; k < columns.length; k++) {
      const x = columns[k]![a]?.[0];
      const y = columns[k]![b]?.[0];
      const none = (v: Value | undefined) => v === undefined || (typeof v === 'number' && Number.isNaN(v));
      // None goes last in either direction; otherwise the direction flips the comparison.
      const c = none(x) || none(y) ? compareValues(x, y) : (desc[k] ? -1 : 1) * compareValues(x, y);
      if (c !== 0) return c;
    }
    return 0;
  };
  const order = Array.from({ length: slots }, (_, i) => i).sort(compare);
  const ranks: number[] = new Array(slots);
  for (let i = 0; i < slots; i++) ranks[order[i]!] = i > 0 && compare(order[i - 1]!, order[i]!) === 0 ? ranks[order[i - 1]!]! : i;
  return ranks;
}

const WORDS = ['Lamp', 'lamp', 'LÂMP', 'Crème', 'creme', 'vase', 'Vase ', 'zebra', 'apple', 'Äpple', '10', '9', 'ﬁne', 'fine', ''];

function randomColumn(r: () => number, slots: number, kind: 'text' | 'numbers' | 'mixed'): (Value[] | undefined)[] {
  return Array.from({ length: slots }, () => {
    const roll = r();
    if (roll < 0.1) return undefined;
    if (roll < 0.15) return [];
    const pick = kind === 'text' ? 0 : kind === 'numbers' ? 1 : Math.floor(r() * 3);
    const value: Value = pick === 0 ? WORDS[Math.floor(r() * WORDS.length)]! + (r() < 0.5 ? '' : ` ${Math.floor(r() * 5)}`) : pick === 1 ? (r() < 0.05 ? NaN : Math.floor(r() * 20) - 5 + (r() < 0.3 ? 0.5 : 0)) : r() < 0.5;
    // A second value never counts: the first is the key.
    return r() < 0.2 ? [value, 'aaa'] : [value];
  });
}

describe('ranking any sort order in steps', () => {
  it('gives the ranks of a full comparator sort, for text, numbers, mixed values, several keys and both directions', () => {
    const r = random(7);
    for (let round = 0; round < 60; round++) {
      const slots = 1 + Math.floor(r() * 600);
      const keyCount = 1 + Math.floor(r() * 3);
      const kinds = Array.from({ length: keyCount }, () => (['text', 'numbers', 'mixed'] as const)[Math.floor(r() * 3)]!);
      const columns = kinds.map((kind) => randomColumn(r, slots, kind));
      const desc = kinds.map(() => r() < 0.5);
      const keys = columns.map((column, k) => ({ key: runAtOnce(keyRanking(column as Value[][], slots)), desc: desc[k]! }));
      const ranks = runAtOnce(composing(keys, slots));
      assert.deepEqual([...ranks], expectedRanks(columns, desc, slots), `round ${round}: ${kinds.join(', ')} ${desc.map((d) => (d ? 'desc' : 'asc')).join(', ')}`);
    }
  });

  it('ranks a text order of 30,000 slots in steps of a few thousand slots each', () => {
    const slots = 30_000;
    const r = random(11);
    const column = Array.from({ length: slots }, (_, n) => [`${WORDS[n % WORDS.length]} ${Math.floor(r() * 1e6)}`]);
    const key = keyRanking(column, slots);
    let steps = 0;
    let step = key.next();
    for (; step.done !== true; step = key.next()) steps++;
    // Read, folded and merged: every pass over the slots yields once per 4,096 of them at least.
    assert.ok(steps >= (slots / 4096) * 10, `${steps} steps`);
    const keys = [{ key: step.value, desc: false }];
    let composed = 0;
    const work = composing(keys, slots);
    let c = work.next();
    for (; c.done !== true; c = work.next()) composed++;
    assert.ok(composed >= slots / 4096, `${composed} steps`);
    assert.deepEqual([...c.value], expectedRanks([column], [false], slots));
  });
});

function item(n: number, attributes: Record<string, unknown>): StoredItem {
  return { key: `p${n}`, id: `p${n}`, type: 'product', context: 'catalog', kind: 'item', attributes, updated: '2026-01-01T00:00:00Z' };
}

describe("a SearchIndex's sort orders prepared for a request", () => {
  const brands = ['Lumo', 'lumo', 'Äther', 'Bolt', 'bolt', 'Zed'];
  const build = (count: number) =>
    runAtOnce(
      SearchIndex.building(
        Array.from({ length: count }, (_, n) => item(n, { title: `Lamp ${(n * 7919) % count}`, brand: brands[n % brands.length], price: n % 50 })),
        ['title'],
        { languages: [], facets: [], attributes: [], sorts: [] },
      ),
    );
  const columnsOf = (index: SearchIndex, sortBy: SortKey[]) => sortBy.map((key) => index.values(key.attribute) as Value[][]);

  it('ranks in slices, gives what ranking at once gives, and is ready after', async () => {
    const index = build(12_000);
    const sortBy: SortKey[] = [{ attribute: 'brand', order: 'desc' }, { attribute: 'title', order: 'asc' }];
    const waiting = index.preparing(sortBy);
    assert.ok(waiting !== undefined, 'a new order is not ready');
    assert.equal(index.preparing(sortBy), waiting, 'requests for one order share its ranking');
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    await waiting;
    clearInterval(ticking);
    assert.equal(index.preparing(sortBy), undefined, 'ready once ranked');
    assert.ok(turns > 0, 'the event loop turned while the order was ranked');
    const ranks = index.rank(sortBy);
    assert.deepEqual([...ranks], expectedRanks(columnsOf(index, sortBy), [true, false], index.docs.length));
  });

  it('includes writes applied while it ranks', async () => {
    const index = build(12_000);
    const sortBy: SortKey[] = [{ attribute: 'title', order: 'asc' }];
    const waiting = index.preparing(sortBy)!;
    // Writes land between its slices: a changed title, a removed item, a new item.
    for (let n = 0; n < 5; n++) {
      await new Promise((resolve) => setImmediate(resolve));
      index.apply({ upserted: [item(n * 1000, { title: `Aardvark ${n}` }), item(20_000 + n, { title: `Zzz ${n}` })], removedKeys: [`p${n * 1000 + 1}`] });
    }
    await waiting;
    const ranks = index.rank(sortBy);
    assert.deepEqual([...ranks], expectedRanks(columnsOf(index, sortBy), [false], index.docs.length));
    const first = [...ranks.keys()].sort((a, b) => ranks[a]! - ranks[b]!).slice(0, 5).map((slot) => index.docs[slot]!.item.id);
    assert.deepEqual(first, ['p0', 'p1000', 'p2000', 'p3000', 'p4000']);
  });

  it('keeps an order through writes to other attributes, and re-ranks it after writes to its own or new items', async () => {
    const index = build(5_000);
    const byTitle: SortKey[] = [{ attribute: 'title', order: 'asc' }];
    const byPrice: SortKey[] = [{ attribute: 'price', order: 'desc' }];
    index.rank(byTitle);
    index.rank(byPrice);
    const check = (sortBy: SortKey[], desc: boolean) => assert.deepEqual([...index.rank(sortBy)], expectedRanks(columnsOf(index, sortBy), [desc], index.docs.length), JSON.stringify(sortBy));
    // A price patch (and a removal): the title order stays as ranked, the price order is re-ranked.
    index.apply({ upserted: [item(10, { title: index.docs[10]!.item.attributes.title, brand: 'Zed', price: 999 })], removedKeys: ['p11'] });
    assert.equal(index.preparing(byTitle), undefined, 'the title order is still ready');
    assert.notEqual(index.preparing(byPrice), undefined, 'the price order is not');
    check(byPrice, true);
    check(byTitle, false);
    // A title patch: the title order is re-ranked.
    index.apply({ upserted: [item(12, { title: 'Aaa first', brand: 'Zed', price: 12 })], removedKeys: [] });
    assert.notEqual(index.preparing(byTitle), undefined);
    assert.equal(index.preparing(byPrice), undefined, 'a price that stayed the same leaves its order ready');
    check(byTitle, false);
    // A new item: every order has a slot to rank.
    index.apply({ upserted: [item(9_000, { title: 'Aa new', price: 5_000 })], removedKeys: [] });
    assert.notEqual(index.preparing(byTitle), undefined);
    assert.notEqual(index.preparing(byPrice), undefined);
    check(byTitle, false);
    check(byPrice, true);
    assert.equal(index.docs[index.rank(byTitle).indexOf(0)]!.item.id, 'p9000');
  });

  it('refuses a request when too many orders are waiting at once, naming the field', async () => {
    const index = build(3_000);
    const keys = ['title', 'brand', 'price'];
    const orders: SortKey[][] = [];
    for (const a of keys) for (const b of keys) for (const order of ['asc', 'desc'] as const) if (a !== b) orders.push([{ attribute: a, order }, { attribute: b, order }]);
    for (const attribute of ['title', 'price']) for (const order of ['asc', 'desc'] as const) orders.push([{ attribute, order }]);
    assert.equal(orders.length, 16);
    const waiting = orders.map((sortBy) => index.preparing(sortBy)!);
    const next: SortKey[] = [{ attribute: 'brand', order: 'desc' }];
    assert.throws(
      () => index.preparing(next),
      (error: unknown) => error instanceof DomainError && error.kind === 'rate_limited' && error.field === 'options.sortBy',
    );
    await Promise.all(waiting);
    const accepted = index.preparing(next);
    assert.ok(accepted !== undefined, 'accepted once the others are ranked');
    await accepted;
    assert.equal(index.preparing(next), undefined);
  });
});

describe('columns a request reads first', () => {
  const build = (count: number) =>
    runAtOnce(
      SearchIndex.building(
        Array.from({ length: count }, (_, n) => item(n, { title: `Lamp ${n}`, categories: [`Cat ${n % 7}`, `Room ${n % 3}`, 'All'], color: ['red', 'blue', 'green'][n % 3] })),
        ['title'],
        { languages: [], facets: [], attributes: [], sorts: [] },
      ),
    );
  const labelsOf = (column: FacetColumn, slots: number) => Array.from({ length: slots }, (_, slot) => column.idsOf(slot).map((id) => column.labels[id]).sort());

  it('builds a filter attribute and a group column in slices, with writes applied meanwhile, then keeps them', async () => {
    const index = build(20_000);
    const waiting = index.columnsPreparing(['categories', 'nobody-has-this'], 'color');
    assert.ok(waiting !== undefined);
    assert.ok(index.columnsPreparing(['categories', 'nobody-has-this'], 'color') !== undefined, 'not kept while it is being built');
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    // Writes land between its slices: changed values, a removed item, a new item.
    for (let n = 0; n < 4; n++) {
      await new Promise((resolve) => setImmediate(resolve));
      index.apply({ upserted: [item(n * 4000 + 5, { title: 'Changed', categories: ['Moved'], color: 'violet' }), item(30_000 + n, { title: 'New', categories: ['Fresh'], color: 'teal' })], removedKeys: [`p${n * 4000 + 6}`] });
    }
    await waiting;
    clearInterval(ticking);
    assert.ok(turns > 0, 'the event loop turned while the columns were built');
    assert.equal(index.columnsPreparing(['categories', 'nobody-has-this'], 'color'), undefined, 'kept: nothing left to build');
    // Live slots only: a removed item's slot is never read again, and keeps what it held.
    const live = [...index.docs.keys()].filter((slot) => index.docs[slot] !== undefined);
    assert.equal(live.length, 20_000 - 4 + 4);
    const values = index.values('categories');
    assert.deepEqual(live.map((slot) => values[slot]), live.map((slot) => attributeValues(index.docs[slot]!.item, 'categories')));
    const atOnce = runAtOnce(FacetColumn.building({ id: 'color', title: 'color', attribute: 'color', type: 'value', size: 1 } as never, index.docs));
    const slots = index.docs.length;
    const prepared = labelsOf(index.groupColumn('color')!, slots);
    const expected = labelsOf(atOnce, slots);
    assert.deepEqual(live.map((slot) => prepared[slot]), live.map((slot) => expected[slot]));
    assert.deepEqual(labelsOf(index.groupColumn('color')!, slots)[4005], ['violet']);
  });
});

describe('a search sorted by text over HTTP', () => {
  it('answers in folded title order, and another request is answered while the order is ranked', async () => {
    const { startSearchCatalog, SEARCH_TOKEN } = await import('./support/search-catalog.js');
    const ITEMS = 20_000;
    const titles = ['Écran', 'ecran', 'Bowl', 'apple', 'Zinc', 'Étoile'];
    const shop = await startSearchCatalog({
      configuration: { id: 'default', fields: [{ attribute: 'title', weight: 1 }], facets: [], defaultSort: [{ attribute: 'popularity', order: 'desc' }] },
      attributes: ['title'],
      numbers: ['popularity'],
      items: (version) => Array.from({ length: ITEMS }, (_, n) => ({ id: `p${n}`, catalogVersion: version, type: 'product', attributes: { title: `${titles[n % titles.length]} ${n}`, popularity: n } })),
    });
    try {
      const { url: base } = await shop.server.listen(0);
      const post = (options: Record<string, unknown>) =>
        fetch(`${base}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: SEARCH_TOKEN, query: '', options }) });
      const answered: string[] = [];
      const sorted = post({ limit: 4, sortBy: [{ attribute: 'title', order: 'asc' }] }).then(async (res) => {
        answered.push('sorted');
        return { status: res.status, body: await res.json() };
      });
      const plain = post({ limit: 1 }).then(async (res) => {
        answered.push('plain');
        return res.status;
      });
      const [{ status, body }, plainStatus] = await Promise.all([sorted, plain]);
      assert.equal(status, 200);
      assert.equal(plainStatus, 200);
      // "apple 111" < "apple 117" < ... folded: "apple 1..." first, by code unit.
      const expected = Array.from({ length: ITEMS }, (_, n) => ({ id: `p${n}`, key: fold(`${titles[n % titles.length]} ${n}`) }))
        .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
        .slice(0, 4)
        .map((e) => e.id);
      assert.deepEqual(
        body.items.map((i: { id: string }) => i.id),
        expected,
      );
      assert.deepEqual(answered, ['plain', 'sorted'], 'the unsorted request did not wait for the title order');
    } finally {
      await shop.close();
    }
  });
});
