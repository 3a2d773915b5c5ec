// Search relevance on the FlexSearch-based index, incremental index updates after writes to the
// active catalog, and text similarity for recommendations: a real server, real catalog writes.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, testConfig, type TestServer } from './support/test-server.js';
import { catalogRequests } from './support/catalog-requests.js';

const TOKEN = 'relevance-search';
const T = 'tenant-a';
const E = 'prod';

function config(): Record<string, unknown> {
  const base = testConfig() as { tenants: { environments: Record<string, unknown>[] }[] };
  base.tenants[0]!.environments[0]!.searchTokens = [
    {
      token: TOKEN,
      configurations: [
        {
          id: 'default',
          facets: [{ id: 'price', title: 'Price', attribute: 'price', type: 'range', ranges: [{ label: 'cheap', to: 1000 }, { label: 'dear', from: 1000 }] }],
          defaultSort: [{ attribute: 'popularity', order: 'desc' }],
        },
      ],
    },
  ];
  return base;
}

const PRODUCTS = [
  { id: 'r1', title: 'Red Running Shoes', brand: 'Nike', description: 'Light shoes for road running', price: 8000, popularity: 10 },
  { id: 'r2', title: 'Air Cap', brand: 'Nike', description: 'A red cap for running', price: 1500, popularity: 90 },
  { id: 'r3', title: 'Hanging Heart Holder', brand: 'Home', description: 'Holds a tea light', price: 300, popularity: 5 },
  { id: 'r4', title: 'Tea Towel', brand: 'Home', description: 'Printed with a hanging heart', price: 400, popularity: 95 },
  { id: 'r5', title: 'Lampshade', brand: 'Lumo', description: 'Linen shade', price: 1500, popularity: 99 },
  { id: 'r6', title: 'Desk Lamp', brand: 'Lumo', description: 'Bright reading light', price: 3000, popularity: 50 },
  { id: 'r7', title: 'Lamp', brand: 'Lumo', description: 'The plain one', price: 2000, popularity: 1 },
  { id: 'r8', title: 'Blue Shirt', brand: 'Acme', description: 'Crème cotton collar', price: 2500, popularity: 40 },
  { id: 'r9', title: 'Garden Hanging Basket', brand: 'Home', description: 'Woven willow', price: 900, popularity: 60 },
];
// Enough items sharing one word that the former 2,000-match scoring cap would have cut the count.
const WIDGETS = 2_500;

let server: TestServer;
let version: number;

async function search(query: string, options: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const res = await fetch(`${server.url}/search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json; charset=UTF-8' },
    body: JSON.stringify({ token: TOKEN, query, options }),
  });
  const body = (await res.json()) as Record<string, any>;
  assert.equal(res.status, 200, JSON.stringify(body));
  return body;
}

const ids = (body: Record<string, any>): string[] => body.items.map((i: { id: string }) => i.id);
const catalog = () => server.server.deps.services.catalog;
const searchService = () => server.server.deps.services.search;

before(async () => {
  server = await startTestServer({ config: config() });
  const schema = await catalogRequests(catalog()).schemas.create(T, E, {
    name: 'product',
    attributes: [
      ...['title', 'brand', 'description'].map((name) => ({ name, type: 'TEXT' })),
      ...['price', 'popularity'].map((name) => ({ name, type: 'INTEGER' })),
    ],
    nestedItemSchemas: [{ name: 'variant', attributes: [{ name: 'title', type: 'TEXT' }] }],
  });
  const record = await catalog().catalogs.create(T, E, { catalogItemSchemas: [{ name: schema.name, version: schema.version }] });
  version = record.version;
  const items = PRODUCTS.map(({ id, ...attributes }) => ({ id, catalogVersion: version, type: 'product', attributes }));
  for (let i = 0; i < WIDGETS; i++) {
    items.push({ id: `w${i}`, catalogVersion: version, type: 'product', attributes: { title: `Widget number ${i}`, brand: 'Bulk', description: 'A widget', price: 100 + i, popularity: 0 } });
  }
  await catalogRequests(catalog()).items.load(T, E, items);
  await (await catalog().catalogs.promote(T, E, version)).activation;
});

after(async () => server.cleanup());

describe('relevance', () => {
  it('ranks an exact title first, then a title holding the words, then a description-only match', async () => {
    assert.deepEqual(ids(await search('hanging heart')).slice(0, 2), ['r3', 'r4']);
    // Whole words beat completions: "Lamp" (the whole title), "Desk Lamp", then "Lampshade".
    assert.deepEqual(ids(await search('lamp')), ['r7', 'r6', 'r5']);
  });

  it('finds a query whose words fall in different fields, and only items holding every word', async () => {
    assert.deepEqual(ids(await search('nike red shoes')), ['r1']);
    assert.deepEqual(ids(await search('nike running')).sort(), ['r1', 'r2']);
  });

  it('corrects one typo in a long word and ranks the corrected title match first', async () => {
    assert.equal(ids(await search('hanging hart'))[0], 'r3');
    assert.equal(ids(await search('runing shoes'))[0], 'r1');
    const swapped = await search('lampshdae');
    assert.deepEqual(ids(swapped), ['r5'], 'two neighbouring letters swapped are one typo (Damerau)');
    assert.equal(swapped.metadata.correctedQuery, 'lampshade');
    assert.deepEqual(ids(await search('lmapshdae')), [], 'two typos are not one');
    assert.deepEqual(ids(await search('blue shurt')), ['r8']);
  });

  it('matches prefixes of every word, and folds case and accents', async () => {
    assert.equal(ids(await search('blu sh'))[0], 'r8');
    assert.deepEqual(ids(await search('han bas')), ['r9']);
    assert.deepEqual(ids(await search('CREME')), ['r8']);
  });

  it('counts every match exactly, however broad the query', async () => {
    const body = await search('widget', { limit: 5 });
    assert.equal(body.metadata.count, WIDGETS);
    assert.equal(body.metadata.exactCount, true);
    assert.equal(body.items.length, 5);
  });
});

describe('writes to the active catalog', () => {
  it('reach the next search without a rebuild: new items, changed titles, new variants, prices', async () => {
    await catalog().items.load(T, E, [{ id: 'n1', catalogVersion: version, type: 'product', attributes: { title: 'Velvet Ottoman', brand: 'Sofa Co', description: 'Soft', price: 500, popularity: 70 } }]);
    await searchService().settled();
    assert.deepEqual(ids(await search('ottoman')), ['n1']);

    await catalog().items.patch(T, E, [{ id: 'r8', catalogVersion: version, type: 'product', attributes: { title: 'Green Blouse' } }]);
    await searchService().settled();
    assert.deepEqual(ids(await search('blue shirt')), [], 'the old title is gone from the index');
    assert.deepEqual(ids(await search('green blouse')), ['r8']);

    await catalog().items.load(T, E, [{ id: 'r7-tall', catalogVersion: version, type: 'variant', parentId: 'r7', attributes: { title: 'Extra Tall Edition' } }]);
    await searchService().settled();
    assert.deepEqual(ids(await search('tall edition')), ['r7'], 'a new variant folds into its parent');

    const before = await search('ottoman', { filter: 'price > 1000' });
    assert.equal(before.metadata.count, 0);
    await catalog().items.patch(T, E, [{ id: 'n1', catalogVersion: version, type: 'product', attributes: { price: 5000, popularity: 1000 } }]);
    await searchService().settled();
    const afterPatch = await search('ottoman', { filter: 'price > 1000' });
    assert.deepEqual(ids(afterPatch), ['n1']);
    assert.deepEqual(afterPatch.metadata.facets[0].values, [{ value: 'dear', count: 1, selected: false }]);
    // The default order (popularity, descending) sees the new popularity at once.
    assert.equal(ids(await search('', { limit: 1 }))[0], 'n1');
  });
});

describe('a burst of writes', () => {
  it('reaches the index in slices, every item searchable once settled', async () => {
    const burst = Array.from({ length: 600 }, (_, i) => ({ id: `b${i}`, catalogVersion: version, type: 'product', attributes: { title: `Quokka plush ${i}`, brand: 'Zoo', description: 'Soft toy', price: 700, popularity: 0 } }));
    await catalog().items.load(T, E, burst);
    await searchService().settled();
    const body = await search('quokka', { limit: 0 });
    assert.equal(body.metadata.count, 600);
  });
});

describe('similarText', () => {
  it('answers the items sharing the most distinctive title words, without the item itself', () => {
    const similar = searchService().similarText(T, E, 'r3', 3);
    assert.equal(similar[0]?.id, 'r4', JSON.stringify(similar));
    assert.ok(similar.length <= 3);
    assert.ok(!similar.some((s) => s.id === 'r3'));
    assert.ok(similar.every((s, i) => i === 0 || similar[i - 1]!.score >= s.score));
    assert.deepEqual(searchService().similarText(T, E, 'no-such-item', 3), []);
    assert.deepEqual(searchService().similarText(T, 'staging', 'r3', 3), []);
  });
});
