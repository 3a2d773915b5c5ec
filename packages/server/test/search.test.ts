import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../src/platform/clock.js';
import { parseFilter } from '../src/platform/filter-language/parse-filter.js';
import { applyMask, parseMask } from '../src/platform/response-mask.js';
import { FilterSyntaxError } from '../src/platform/filter-language/filter-syntax-error.js';
import { startTestServer, testConfig, type TestServer } from './support/test-server.js';
import { catalogRequests } from './support/catalog-requests.js';

const TOKEN = 'shop-search';
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
          facets: [
            { id: 'brand', title: 'Brand', attribute: 'brand' },
            { id: 'color', title: 'Colour', attribute: 'color' },
            { id: 'price', title: 'Price', attribute: 'price', type: 'range', ranges: [{ label: 'cheap', to: 500 }, { label: 'dear', from: 500 }] },
          ],
          redirects: [{ id: 'help', name: 'Delivery', url: 'https://shop.example/delivery', queries: ['delivery'] }],
          synonyms: [['mug', 'cup']],
          rules: [{ query: 'lamp', pin: ['p9'], boost: [], bury: ['p7'] }],
          defaultSort: [{ attribute: 'popularity', order: 'desc' }],
        },
      ],
    },
  ];
  return base;
}

const PRODUCTS = [
  { id: 'p1', title: 'Red Running Shoes', brand: 'Nike', color: 'Red', description: 'Light shoes for road running', price: 8000, popularity: 50, in_stock: 1 },
  { id: 'p2', title: 'Blue Shirt', brand: 'Acme', color: 'Blue', description: 'A cotton shirt', price: 2500, popularity: 90, in_stock: 1 },
  { id: 'p3', title: 'Hanging Heart Holder', brand: 'Home', color: 'White', description: 'Crème holder for a tea light', price: 300, popularity: 70, in_stock: 0 },
  { id: 'p4', title: 'Tea Towel', brand: 'Home', color: 'Red', description: 'Printed with a hanging heart', price: 400, popularity: 95, in_stock: 1 },
  { id: 'p5', title: 'Coffee Cup', brand: 'Acme', color: 'White', description: 'Stoneware', price: 600, popularity: 10, in_stock: 1 },
  { id: 'p6', title: 'Café Table', brand: 'Acme', color: 'Brown', description: 'Bistro table', price: 9000, popularity: 20, in_stock: 1 },
  { id: 'p7', title: 'Desk Lamp', brand: 'Lumo', color: 'Black', description: 'Bright lamp', price: 3000, popularity: 30, in_stock: 1 },
  { id: 'p8', title: 'Floor Lamp', brand: 'Lumo', color: 'Black', description: 'Tall lamp', price: 5000, popularity: 40, in_stock: 1 },
  { id: 'p9', title: 'Lampshade', brand: 'Lumo', color: 'White', description: 'Linen shade', price: 1500, popularity: 60, in_stock: 1 },
];

let server: TestServer;
const clock = new ManualClock();

async function post(path: string, body: unknown): Promise<{ status: number; body: Record<string, any> }> {
  const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json; charset=UTF-8' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

async function search(query: string, options: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const res = await post('/search', { token: TOKEN, query, options });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

const ids = (body: Record<string, any>): string[] => body.items.map((i: { id: string }) => i.id);

before(async () => {
  server = await startTestServer({ config: config(), clock });
  const catalog = server.server.deps.services.catalog;
  const schema = await catalogRequests(catalog).schemas.create(T, E, {
    name: 'product',
    attributes: [
      ...['title', 'brand', 'color', 'description'].map((name) => ({ name, type: 'TEXT' })),
      ...['price', 'popularity', 'in_stock'].map((name) => ({ name, type: 'INTEGER' })),
    ],
    nestedItemSchemas: [{ name: 'variant', attributes: [{ name: 'title', type: 'TEXT' }] }],
  });
  const record = await catalog.catalogs.create(T, E, { catalogItemSchemas: [{ name: schema.name, version: schema.version }] });
  const items = PRODUCTS.map(({ id, ...attributes }) => ({ id, catalogVersion: record.version, type: 'product', attributes }));
  items.push({ id: 'p2-xl', catalogVersion: record.version, type: 'variant', parentId: 'p2', attributes: { title: 'Oversized Tunic' } } as never);
  await catalogRequests(catalog).items.load(T, E, items);
  await (await catalog.catalogs.promote(T, E, record.version)).activation;
});

after(async () => server.cleanup());

describe('search relevance', () => {
  it('puts exact title matches before description-only ones', async () => {
    assert.deepEqual(ids(await search('hanging heart')).slice(0, 2), ['p3', 'p4']);
  });
  it('tolerates one typo and matches a prefix of the last word', async () => {
    assert.equal(ids(await search('hanging hart'))[0], 'p3');
    assert.equal(ids(await search('runing shoes'))[0], 'p1');
    assert.equal(ids(await search('blu sh'))[0], 'p2');
  });
  it('finds words spread over fields, folds accents and case, and folds variants into the parent', async () => {
    assert.deepEqual(ids(await search('nike red shoes')), ['p1']);
    assert.deepEqual(ids(await search('CAFE')), ['p6']);
    assert.deepEqual(ids(await search('creme')), ['p3']);
    assert.deepEqual(ids(await search('tunic')), ['p2']);
  });
  it('applies synonyms, pins and buries, and answers redirects', async () => {
    assert.deepEqual(ids(await search('mug')), ['p5']);
    const lamps = ids(await search('lamp'));
    assert.equal(lamps[0], 'p9');
    assert.equal(lamps[lamps.length - 1], 'p7');
    const help = await search('Delivery');
    assert.deepEqual(help.items[0].redirect, { id: 'help', name: 'Delivery', url: 'https://shop.example/delivery' });
  });
  it('returns the catalog in the default order for an empty query', async () => {
    assert.deepEqual(ids(await search('', { limit: 3 })), ['p4', 'p2', 'p3']);
  });
});

describe('search requests', () => {
  it('answers 404 for an unknown token', async () => {
    const res = await post('/search', { token: 'nope', query: 'x' });
    assert.equal(res.status, 404);
    assert.equal(res.body.error.code, 'unknown_search_token');
    assert.equal(res.body.error.field, 'token');
  });
  it('pages with offset and limit, clamps large limits and refuses large offsets', async () => {
    const all = ids(await search('', { limit: 100 }));
    assert.equal(all.length, 9);
    assert.deepEqual(ids(await search('', { offset: 3, limit: 3 })), all.slice(3, 6));
    assert.deepEqual(ids(await search('', { offset: 4, limit: 3 })), all.slice(4, 7));
    assert.deepEqual(ids(await search('', { offset: 8, limit: 3 })), all.slice(8));
    assert.deepEqual(ids(await search('', { offset: 9, limit: 3 })), []);
    assert.deepEqual(ids(await search('', { limit: 0 })), []);
    assert.equal((await search('', { limit: 5000 })).metadata.limit, 1000);
    assert.equal((await post('/search', { token: TOKEN, query: '', options: { offset: 10_001 } })).status, 400);
  });
  it('gives the same answer over GET as over POST', async () => {
    const posted = await search('lamp', { limit: 2, filter: 'price > 1000' });
    const got = (await (await fetch(posted.metadata.url.replace(/^https?:\/\/[^/]+/, server.url))).json()) as Record<string, any>;
    assert.deepEqual(got.items, posted.items);
    assert.equal(got.metadata.count, posted.metadata.count);
    assert.notEqual(got.metadata.id, posted.metadata.id);
  });
  it('sorts by several keys, stably', async () => {
    const sorted = await search('', { limit: 20, sortBy: [{ attribute: 'brand', order: 'asc' }, { attribute: 'price', order: 'desc' }] });
    assert.deepEqual(ids(sorted), ['p6', 'p2', 'p5', 'p4', 'p3', 'p8', 'p7', 'p9', 'p1']);
  });
  it('masks items', async () => {
    const body = await search('nike', { customResponseMask: 'id, product(title, price)' });
    assert.deepEqual(body.items, [{ id: 'p1', product: { title: 'Red Running Shoes', price: 8000 } }]);
  });
});

describe('facets', () => {
  it('counts over the whole result set', async () => {
    const body = await search('', { limit: 1 });
    const brand = body.metadata.facets.find((f: { id: string }) => f.id === 'brand');
    assert.equal(brand.attribute, 'brand');
    assert.deepEqual(brand.values[0], { value: 'Acme', count: 3, selected: false });
    const price = body.metadata.facets.find((f: { id: string }) => f.id === 'price');
    assert.deepEqual(price.values, [{ value: 'cheap', count: 2, selected: false }, { value: 'dear', count: 7, selected: false }]);
  });
  it('keeps the other values of a selected facet (disjunctive) and narrows the others', async () => {
    const body = await search('', { limit: 20, facets: [{ id: 'brand', values: ['Lumo'] }] });
    assert.deepEqual(ids(body).sort(), ['p7', 'p8', 'p9']);
    const brand = body.metadata.facets.find((f: { id: string }) => f.id === 'brand');
    assert.ok(brand.values.some((v: { value: string; selected: boolean }) => v.value === 'Acme' && !v.selected));
    assert.ok(brand.values.some((v: { value: string; selected: boolean }) => v.value === 'Lumo' && v.selected));
    const color = body.metadata.facets.find((f: { id: string }) => f.id === 'color');
    assert.deepEqual(color.values.map((v: { value: string }) => v.value).sort(), ['Black', 'White']);
  });
  it('can be disabled', async () => {
    assert.deepEqual((await post('/search', { token: TOKEN, query: '', disable: [{ name: 'facet' }] })).body.metadata.facets, []);
  });
  it('counts a broad result set right after a write changes a value (catalog-wide totals minus the rest)', async () => {
    const brandCounts = async (query: string) => {
      const brand = (await search(query, { limit: 1 })).metadata.facets.find((f: { id: string }) => f.id === 'brand');
      return Object.fromEntries(brand.values.map((v: { value: string; count: number }) => [v.value, v.count]));
    };
    const catalog = server.server.deps.services.catalog;
    const version = (await catalog.catalogs.active(T, E))!.version;
    const { id, ...p2 } = PRODUCTS.find((p) => p.id === 'p2')!;
    const before = await brandCounts('');
    await catalogRequests(catalog).items.patch(T, E, [{ id, catalogVersion: version, type: 'product', attributes: { ...p2, brand: 'Lumo' } }]);
    await server.server.deps.services.search.settled();
    assert.deepEqual(await brandCounts(''), { ...before, Acme: before.Acme - 1, Lumo: before.Lumo + 1 });
    await catalogRequests(catalog).items.patch(T, E, [{ id, catalogVersion: version, type: 'product', attributes: p2 }]);
    await server.server.deps.services.search.settled();
    assert.deepEqual(await brandCounts(''), before);
  });
});

describe('filters', () => {
  const cases: [string, string[]][] = [
    ["brand = 'Acme'", ['p2', 'p5', 'p6']],
    ["brand != 'Acme' AND brand != 'Lumo'", ['p1', 'p3', 'p4']],
    ['price < 400', ['p3']],
    ['price <= 400', ['p3', 'p4']],
    ['price > 8000', ['p6']],
    ['price >= 8000', ['p1', 'p6']],
    ["color IN ('Red', \"Brown\")", ['p1', 'p4', 'p6']],
    ["color NOT IN ('Red', 'Black', 'White')", ['p2', 'p6']],
    ['in_stock = false', ['p3']],
    ["NOT (brand = 'Lumo' OR brand = 'Acme') AND price > 1000", ['p1']],
    ["brand = 'Home' OR brand = 'Nike' AND price < 1000", ['p3', 'p4']],
  ];
  for (const [filter, expected] of cases) {
    it(filter, async () => assert.deepEqual(ids(await search('', { filter, limit: 20 })).sort(), expected));
  }
  const errors: [string, number, RegExp][] = [
    ["brand = 'Acme", 8, /closing '/],
    ['brand', 5, /comparison operator/],
    ['brand =', 7, /a value/],
    ["(brand = 'x'", 12, /'\)'/],
    ["brand = 'x' price", 12, /AND, OR/],
    ['= 3', 0, /attribute name/],
    ['price # 3', 6, /an operator/],
    ["color IN 'x'", 9, /'\(' after IN/],
    ["color NOT = 'x'", 10, /IN after NOT/],
    ["color IN ('x' 'y')", 14, /',' or '\)'/],
  ];
  for (const [filter, position, expected] of errors) {
    it(`refuses ${filter}`, async () => {
      assert.throws(() => parseFilter(filter), (error: unknown) => error instanceof FilterSyntaxError && error.message.includes(`position ${position}`) && expected.test(error.message));
      const res = await post('/search', { token: TOKEN, query: '', options: { filter } });
      assert.equal(res.status, 400);
    });
  }
});

describe('filter errors', () => {
  it('answer the documented body, naming options.filter, over POST and GET', async () => {
    const expected = { status: 400, code: 'invalid_parameter', message: 'Filter syntax error at position 7: expected a value (a quoted string, a number, true or false), found the end of the filter.', field: 'options.filter' };
    const res = await post('/search', { token: TOKEN, query: '', options: { filter: 'brand =' } });
    assert.equal(res.status, 400);
    const { requestId, ...error } = res.body.error;
    assert.equal(typeof requestId, 'string');
    assert.deepEqual(error, expected);
    const viaGet = await fetch(`${server.url}/search/${TOKEN}?encoded=${encodeURIComponent(JSON.stringify({ query: '', options: { filter: 'brand =' } }))}`);
    const { requestId: _, ...getError } = ((await viaGet.json()) as { error: Record<string, unknown> }).error;
    assert.deepEqual([viaGet.status, getError], [400, expected]);
  });

  it('refuse $variables, which only widget filters have', async () => {
    const res = await post('/search', { token: TOKEN, query: '', options: { filter: 'price < $max' } });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.message, "Filter syntax error at position 8: expected an attribute, a value, an operator or a parenthesis, found '$'.");
  });
});

describe('response mask', () => {
  const value = { id: 'a', score: 1, product: { title: 't', price: 2, _id: { kind: 'k', tenant: 'x' } }, list: [{ a: 1, b: 2 }, { a: 3, b: 4 }] };
  it('selects fields, paths, sub-selections and wildcards', () => {
    assert.deepEqual(applyMask(value, parseMask('id,score')), { id: 'a', score: 1 });
    assert.deepEqual(applyMask(value, parseMask('product/title')), { product: { title: 't' } });
    assert.deepEqual(applyMask(value, parseMask('product._id.kind')), { product: { _id: { kind: 'k' } } });
    assert.deepEqual(applyMask(value, parseMask('id, product(title, price)')), { id: 'a', product: { title: 't', price: 2 } });
    assert.deepEqual(applyMask(value, parseMask('product.*.kind')), { product: { _id: { kind: 'k' } } });
    assert.deepEqual(applyMask(value, parseMask('list(b)')), { list: [{ b: 2 }, { b: 4 }] });
    assert.deepEqual(applyMask(value, parseMask('')), value);
  });
  it('refuses a broken mask', () => {
    assert.throws(() => parseMask('product(title'), /position 13/);
    assert.throws(() => parseMask('a,,b'), /position 2/);
  });
});

describe('autocomplete', () => {
  it('suggests earlier queries with results within the window, viewed by two shoppers or more', async () => {
    const view = async (query: string, shopper: string): Promise<void> => {
      const res = await post('/collect/tenant-a-tracker', { action: 'view', target: { page: '/search' }, sourceId: 's', user: { sessionId: shopper }, metadata: { query } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    };
    for (const q of ['lamp', 'Lamp ', 'lamp', 'lampshade', 'lamb chops']) await search(q);
    for (const q of ['lamp', 'lamb chops']) for (const shopper of ['s1', 's2']) await view(q, shopper);
    clock.advance(8 * 24 * 3600 * 1000);
    await search('lampshade');
    await view('lampshade', 's1');
    await view('lampshade', 's2');
    let res = await post('/search/autocomplete', { token: TOKEN, query: 'LAM' });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.suggestions, [{ suggestion: 'lampshade', highlights: [[0, 3]], count: 1 }]);
    clock.advance(-8 * 24 * 3600 * 1000);
    res = await post('/search/autocomplete', { token: TOKEN, query: 'lam', options: { numberOfSuggestions: 1 } });
    assert.equal(res.status, 200);
    assert.equal((await post('/search/autocomplete', { token: TOKEN, query: 'l', options: { numberOfSuggestions: 21 } })).status, 400);
  });
});

describe('suggest', () => {
  it('groups matches by an attribute, counting all and returning the first items', async () => {
    const res = await post('/search/suggest', {
      token: TOKEN,
      query: '',
      options: { groupBy: { attribute: 'brand', size: 1 }, sortBy: [{ attribute: 'price', order: 'asc' }], customResponseMask: 'id' },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.groups.slice(0, 2), [
      { value: 'Acme', count: 3, items: [{ id: 'p5' }] },
      { value: 'Lumo', count: 3, items: [{ id: 'p9' }] },
    ]);
    const chosen = await post('/search/suggest', { token: TOKEN, query: 'lamp', options: { groupBy: { attribute: 'color', size: 5, values: ['White', 'Pink'] }, filter: 'price > 0' } });
    assert.deepEqual(chosen.body.groups.map((g: { value: string; count: number }) => [g.value, g.count]), [['White', 1], ['Pink', 0]]);
    assert.equal(chosen.body.metadata.configurationId, 'default');
  });
});
