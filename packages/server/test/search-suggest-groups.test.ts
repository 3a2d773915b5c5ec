/**
 * Suggest groups the matches without sorting them all (domains/search/response/search-response.ts
 * `groupInOrder`). Its groups must be what walking the whole ordered result gives: this test asks
 * POST /search for every match in order (the search API's own ordering) and groups that list itself,
 * then compares with POST /search/suggest for the same query: counts, group order, the first items of
 * each group in order, group names spelt as their first member spells them, with and without a sort,
 * named values, a filter and a merchandising rule (pinned, boosted and buried items). A real server.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { catalogRequests } from './support/catalog-requests.js';
import { SEARCH_ENV as E, SEARCH_TENANT as T, SEARCH_TOKEN as TOKEN, startSearchCatalog, type SearchCatalog } from './support/search-catalog.js';

const CONFIGURATION = {
  id: 'default',
  fields: [
    { attribute: 'title', weight: 3 },
    { attribute: 'description', weight: 1 },
  ],
  facets: [],
  defaultSort: [{ attribute: 'popularity', order: 'desc' }],
  rules: [{ query: 'lamp', pin: ['p7', 'p300'], boost: ['p20', 'p21'], bury: ['p1'] }],
};
/** Brands spelt differently on different items ("ACME", "Acme"): a group is named as its first member spells it. */
const BRANDS = ['Acme', 'ACME', 'Lumo', 'Nord', 'nord', 'Zed', 'Über', 'uber'];
const NOUNS = ['lamp', 'lantern', 'table', 'cup'];

let shop: SearchCatalog;
let url: string;

async function post(path: string, body: unknown): Promise<any> {
  const res = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: TOKEN, ...(body as object) }) });
  const json = await res.json();
  assert.equal(res.status, 200, JSON.stringify(json));
  return json;
}

const fold = (value: string) => value.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

/** The groups worked out here from every match in order, as suggest documents them. */
async function expected(query: string, options: Record<string, unknown>, groupBy: { attribute: string; size: number; values?: string[] }) {
  const all = await post('/search', { query, options: { ...options, limit: 1_000 } });
  assert.ok(all.metadata.count <= 1_000);
  const wanted = (groupBy.values ?? []).map(fold);
  const groups = new Map<string, { value: string; count: number; items: string[] }>();
  for (const value of groupBy.values ?? []) groups.set(fold(value), { value, count: 0, items: [] });
  for (const item of all.items as { id: string; product: Record<string, unknown> }[]) {
    const brand = item.product[groupBy.attribute];
    if (typeof brand !== 'string') continue;
    const key = fold(brand);
    if (wanted.length > 0 && !wanted.includes(key)) continue;
    let group = groups.get(key);
    if (group === undefined) groups.set(key, (group = { value: brand, count: 0, items: [] }));
    group.count++;
    if (group.items.length < groupBy.size) group.items.push(item.id);
  }
  const out = [...groups.values()];
  return wanted.length > 0 ? out : out.sort((a, b) => b.count - a.count || a.value.localeCompare(b.value));
}

async function suggested(query: string, options: Record<string, unknown>, groupBy: { attribute: string; size: number; values?: string[] }) {
  const body = await post('/search/suggest', { query, options: { ...options, groupBy } });
  return (body.groups as { value: string; count: number; items: { id: string }[] }[]).map((g) => ({ value: g.value, count: g.count, items: g.items.map((item) => item.id) }));
}

before(async () => {
  shop = await startSearchCatalog({
    configuration: CONFIGURATION,
    attributes: ['title', 'description', 'brand'],
    numbers: ['popularity', 'price'],
    items: (version) =>
      Array.from({ length: 400 }, (_, n) => ({
        id: `p${n}`,
        catalogVersion: version,
        type: 'product',
        attributes: {
          title: `${NOUNS[n % 4]} ${n % 3 === 0 ? 'classic' : 'modern'} ${NOUNS[(n * 7) % 4]}`,
          description: `number ${n}`,
          // p300 has no brand: pinned, it counts in no group.
          ...(n === 300 ? {} : { brand: BRANDS[(n * 5) % BRANDS.length] }),
          popularity: (n * 37) % 101,
          price: 100 + ((n * 53) % 900),
        },
      })),
  });
  ({ url } = await shop.server.listen(0));
  shop.server.deps.services.search.resultCacheSize = 0;
});

after(() => shop.close());

describe('suggest groups', () => {
  const CASES: [string, Record<string, unknown>, { attribute: string; size: number; values?: string[] }][] = [
    ['lamp', {}, { attribute: 'brand', size: 3 }],
    ['lamp', { sortBy: [{ attribute: 'price', order: 'asc' }] }, { attribute: 'brand', size: 5 }],
    ['lamp', { filter: 'price < 600' }, { attribute: 'brand', size: 2, values: ['uber', 'Nord', 'Missing'] }],
    ['lantern classic', {}, { attribute: 'brand', size: 4 }],
    ['', {}, { attribute: 'brand', size: 6 }],
    ['cup', {}, { attribute: 'brand', size: 0 }],
    ['tabel', {}, { attribute: 'brand', size: 100 }],
  ];
  for (const [query, options, groupBy] of CASES) {
    it(`"${query}" ${JSON.stringify(options)} by ${JSON.stringify(groupBy)}: the groups of the whole ordered result`, async () => {
      const want = await expected(query, options, groupBy);
      assert.ok(want.some((g) => g.count > 0), 'the case has matches');
      assert.deepEqual(await suggested(query, options, groupBy), want);
    });
  }

  it('follow catalog writes: an item changing group, a new spelling, an item losing its value', async () => {
    const catalog = catalogRequests(shop.server.deps.services.catalog);
    const version = shop.version;
    // Groups were read before (the cases above), so the writes reach a kept column.
    await catalog.items.patch(T, E, [
      { id: 'p4', catalogVersion: version, type: 'product', attributes: { brand: 'Zed' } },
      { id: 'p8', catalogVersion: version, type: 'product', attributes: { brand: 'Brand New' } },
      { id: 'p12', catalogVersion: version, type: 'product', attributes: { brand: null } },
    ]);
    await shop.server.deps.services.search.settled();
    for (const [query, options, groupBy] of [CASES[0]!, CASES[4]!]) {
      const want = await expected(query, options, groupBy);
      assert.ok(want.some((g) => g.value === 'Brand New'), 'the new spelling is among the groups');
      assert.deepEqual(await suggested(query, options, groupBy), want);
    }
  });
});
