/**
 * A filter requested again is answered from its pass bits (domains/search/filter/filter-bits.ts), which
 * catalog writes keep current. Each filter's answers are checked against the items as the test itself
 * filters them: at the first request (evaluated over the matches), at the next ones (the bits), and
 * after writes that move items in and out of the filter, remove an attribute, or add items. A real
 * server, requests over HTTP.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { createDiscoveryServer, type DiscoveryServer } from '../src/app/server.js';
import { validateConfig } from '../src/platform/config/load.js';
import { createLogger } from '../src/platform/logger.js';
import { FIXTURES, makeDataDir, testConfigWithSearch } from './support/test-server.js';
import { catalogRequests } from './support/catalog-requests.js';

const TOKEN = 'shop-search';
const T = 'tenant-a';
const E = 'prod';

const CONFIGURATION = {
  id: 'default',
  fields: [{ attribute: 'title', weight: 3 }],
  facets: [
    { id: 'color', title: 'Colour', attribute: 'color' },
    { id: 'band', title: 'Price', attribute: 'price', type: 'range', ranges: [{ label: 'low', to: 300 }, { label: 'mid', from: 300, to: 700 }, { label: 'high', from: 700 }] },
    // None, one, two or three values an item: the column's second value and its rare rest are counted too.
    { id: 'tag', title: 'Tag', attribute: 'tags' },
  ],
  defaultSort: [{ attribute: 'price', order: 'asc' }],
};

interface Product {
  id: string;
  title: string;
  color?: string;
  price?: number;
  in_stock?: number;
  tags?: string;
}

const COLOURS = ['red', 'blue', 'green'];
const TAGS = ['', 'gift', 'gift, sale', 'sale, new, gift'];
const products = new Map<string, Product>();
for (let n = 0; n < 300; n++) {
  products.set(`p${n}`, { id: `p${n}`, title: `${n % 2 === 0 ? 'garden' : 'kitchen'} lamp ${n}${n % 4 === 3 ? '' : ' bright'}`, color: COLOURS[n % 3], price: 100 + ((n * 53) % 900), in_stock: n % 5 === 0 ? 0 : 1, tags: TAGS[n % 4] });
}

/** Each filter as the API receives it, and as the test decides it for one product. */
const FILTERS: [string, (p: Product) => boolean][] = [
  ['in_stock = 1 AND price < 500', (p) => p.in_stock === 1 && p.price !== undefined && p.price < 500],
  ["color = 'red' OR price >= 900", (p) => p.color === 'red' || (p.price !== undefined && p.price >= 900)],
  ["NOT color = 'blue'", (p) => p.color !== 'blue'],
  ['price > 250 AND price <= 600', (p) => p.price !== undefined && p.price > 250 && p.price <= 600],
];

let dataDir: string;
let server: DiscoveryServer;
let url: string;
let version: number;

async function ids(query: string, filter: string): Promise<string[]> {
  const res = await fetch(`${url}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: TOKEN, query, options: { filter, limit: 1_000 } }) });
  const body = (await res.json()) as { items: { id: string }[]; metadata: { count: number } };
  assert.equal(res.status, 200, JSON.stringify(body));
  assert.equal(body.metadata.count, body.items.length);
  return body.items.map((item) => item.id).sort();
}

/** The product's values of each facet, as the configuration above buckets them. */
const FACET_VALUES: Record<string, (p: Product) => string[]> = {
  color: (p) => (p.color === undefined ? [] : [p.color]),
  band: (p) => (p.price === undefined ? [] : [p.price < 300 ? 'low' : p.price < 700 ? 'mid' : 'high']),
  tag: (p) => (p.tags ?? '').split(', ').filter((tag) => tag !== ''),
};

/** Ids, count and facets of a search with `selected` facet values, as the API answers them. */
async function faceted(query: string, filter: string | undefined, selected: Record<string, string[]>) {
  const facets = Object.entries(selected).map(([id, values]) => ({ id, values }));
  const res = await fetch(`${url}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: TOKEN, query, options: { filter, facets, limit: 1_000 } }) });
  const body = (await res.json()) as { items: { id: string }[]; metadata: { count: number; facets: { id: string; count: number; values: { value: string; count: number }[] }[] } };
  assert.equal(res.status, 200, JSON.stringify(body));
  const counts = Object.fromEntries(body.metadata.facets.map((f) => [f.id, { total: f.count, values: Object.fromEntries(f.values.filter((v) => v.count > 0).map((v) => [v.value, v.count])) }]));
  return { ids: body.items.map((item) => item.id).sort(), count: body.metadata.count, counts };
}

/** The same worked out here: each facet counts the matches passing every other facet's selection. */
function facetedExpected(query: string, passes: (p: Product) => boolean, selected: Record<string, string[]>) {
  const word = query.split(' ')[0]!;
  const base = [...products.values()].filter((p) => p.title.split(' ').includes(word) && passes(p));
  const passesOthers = (p: Product, except: string) => Object.entries(selected).every(([id, values]) => id === except || FACET_VALUES[id]!(p).some((v) => values.includes(v)));
  const ids = base.filter((p) => passesOthers(p, '')).map((p) => p.id).sort();
  const counts = Object.fromEntries(
    Object.keys(FACET_VALUES).map((id) => {
      const counted = base.filter((p) => passesOthers(p, id));
      const values: Record<string, number> = {};
      for (const p of counted) for (const v of FACET_VALUES[id]!(p)) values[v] = (values[v] ?? 0) + 1;
      return [id, { total: counted.length, values }];
    }),
  );
  return { ids, count: ids.length, counts };
}

function expected(query: string, passes: (p: Product) => boolean): string[] {
  const word = query.split(' ')[0]!;
  return [...products.values()].filter((p) => p.title.split(' ').includes(word) && passes(p)).map((p) => p.id).sort();
}

async function write(items: Product[]): Promise<void> {
  const catalog = catalogRequests(server.deps.services.catalog);
  await catalog.items.patch(
    T,
    E,
    items.map(({ id, ...attributes }) => ({ id, catalogVersion: version, type: 'product', attributes })),
  );
  await server.deps.services.search.settled();
}

before(async () => {
  dataDir = await makeDataDir();
  server = await createDiscoveryServer({ config: validateConfig(testConfigWithSearch(TOKEN, CONFIGURATION), '(test)', FIXTURES), dataDir, logger: createLogger('silent') });
  ({ url } = await server.listen(0));
  const catalog = catalogRequests(server.deps.services.catalog);
  const schema = await catalog.schemas.create(T, E, {
    name: 'product',
    attributes: [
      { name: 'title', type: 'TEXT' },
      { name: 'color', type: 'TEXT' },
      { name: 'price', type: 'INTEGER' },
      { name: 'in_stock', type: 'INTEGER' },
      { name: 'tags', type: 'TEXT' },
      // No item has a note until the last test writes one.
      { name: 'note', type: 'TEXT' },
    ],
  });
  ({ version } = await catalog.catalogs.create(T, E, { catalogItemSchemas: [{ name: schema.name, version: schema.version }] }));
  await catalog.items.load(
    T,
    E,
    [...products.values()].map(({ id, ...attributes }) => ({ id, catalogVersion: version, type: 'product', attributes })),
  );
  await (await server.deps.services.catalog.catalogs.promote(T, E, version)).activation;
});

after(async () => {
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('repeated filters', () => {
  it('answer the same at the first request, from the bits after, and for every query', async () => {
    for (const [filter, passes] of FILTERS) {
      for (let round = 0; round < 3; round++) {
        for (const query of ['garden', 'kitchen lamp', 'lamp']) assert.deepEqual(await ids(query, filter), expected(query, passes), `${filter}, ${query}, request ${round + 1}`);
      }
    }
  });

  it('give the same facet counts and items with no, one or two ticked facets, at the first request and after', async () => {
    const SELECTIONS: Record<string, string[]>[] = [{}, { color: ['red', 'Blue'] }, { band: ['mid'] }, { tag: ['new'] }, { color: ['green'], band: ['low', 'high'] }];
    for (const [filter, passes] of [...FILTERS, [undefined, () => true] as const]) {
      for (const selected of SELECTIONS) {
        // Selections are matched without case, so 'Blue' ticks blue.
        const folded = Object.fromEntries(Object.entries(selected).map(([id, values]) => [id, values.map((v) => v.toLowerCase())]));
        for (let round = 0; round < 2; round++) {
          for (const query of ['garden', 'lamp', 'bright']) assert.deepEqual(await faceted(query, filter, selected), facetedExpected(query, passes, folded), `${filter}, ${JSON.stringify(selected)}, ${query}, request ${round + 1}`);
        }
      }
    }
  });

  it('follow catalog writes: items move in and out, lose the attribute, and change text', async () => {
    // Every filter has its bits now (the test before requested each three times).
    const changed: Product[] = [
      { ...products.get('p2')!, price: 950 },
      { ...products.get('p4')!, in_stock: 0, color: 'red', tags: 'new, sale, gift' },
      { ...products.get('p5')!, in_stock: 1, price: 120, color: 'blue' },
      { ...products.get('p7')!, title: 'garden lamp renamed' },
    ];
    for (const p of changed) products.set(p.id, p);
    await write(changed);
    // `null` removes an attribute: a product without a price passes no price comparison.
    const { price: _dropped, ...unpriced } = products.get('p10')!;
    products.set('p10', unpriced);
    const catalog = catalogRequests(server.deps.services.catalog);
    await catalog.items.patch(T, E, [{ id: 'p10', catalogVersion: version, type: 'product', attributes: { price: null } }]);
    await server.deps.services.search.settled();
    for (const [filter, passes] of FILTERS) {
      for (const query of ['garden', 'kitchen', 'lamp']) assert.deepEqual(await ids(query, filter), expected(query, passes), `${filter}, ${query}, after the writes`);
      // A match set holding most of what the filter passes is counted from the filter's own counts,
      // which the writes must have renewed.
      for (const query of ['lamp', 'bright']) {
        for (const selected of [{}, { color: ['red'] }, { tag: ['new'] }] as Record<string, string[]>[]) assert.deepEqual(await faceted(query, filter, selected), facetedExpected(query, passes, selected), `${filter}, ${JSON.stringify(selected)}, ${query} after the writes`);
      }
    }
    for (const query of ['lamp', 'bright']) assert.deepEqual(await faceted(query, undefined, {}), facetedExpected(query, () => true, {}), `facets of ${query}, no filter, after the writes`);
  });
});

describe('attributes no item has', () => {
  it('match nothing in filters, sort last, group nothing, and keep no column however many a request names', async () => {
    const before = server.deps.services.search.indexStats(T, E)!;
    for (let n = 0; n < 200; n++) {
      const filtered = await post({ query: 'lamp', options: { filter: `made_up_${n} = 1 OR price < 150`, limit: 1_000 } });
      assert.deepEqual(filtered.items.map((item: { id: string }) => item.id).sort(), expected('lamp', (p) => p.price !== undefined && p.price < 150));
      const sorted = await post({ query: 'garden', options: { sortBy: [{ attribute: `made_up_${n}`, order: 'desc' }], limit: 3 } });
      assert.equal(sorted.items.length, 3);
      const res = await fetch(`${url}/search/suggest`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: TOKEN, query: 'lamp', options: { groupBy: { attribute: `made_up_${n}`, size: 2 } } }) });
      assert.deepEqual(((await res.json()) as { groups: unknown[] }).groups, []);
    }
    assert.ok(server.deps.services.search.indexStats(T, E)!.keptColumns <= before.keptColumns + 2, JSON.stringify([before, server.deps.services.search.indexStats(T, E)]));
    // An attribute of the schema that no item has yet reads the same; once an item has it, a filter
    // on it (repeated, so it has its bits) finds that item.
    for (let round = 0; round < 2; round++) assert.deepEqual((await post({ query: 'garden', options: { filter: "note = 'gift'" } })).items, []);
    await write([{ ...products.get('p8')!, note: 'gift' } as Product]);
    const found = await post({ query: 'garden', options: { filter: "note = 'gift'" } });
    assert.deepEqual(found.items.map((item: { id: string }) => item.id), ['p8']);
  });
});

async function post(body: Record<string, unknown>): Promise<any> {
  const res = await fetch(`${url}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: TOKEN, ...body }) });
  const json = await res.json();
  assert.equal(res.status, 200, JSON.stringify(json));
  return json;
}
