// A widget rule for one store: `where: store = $store` keeps the items of the store the request's
// variables name, as a shop with several physical stores (or country sites) sends them; a list of
// stores keeps each; without the variable the condition is left out and every store's items remain.
// Real server on a real port, a catalog with a `store` attribute, popularity from collected views.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { call, makeDataDir, startTestServer, testConfig, type TestServer } from './support/test-server.js';
import { catalogRequests } from './support/catalog-requests.js';

const T = 'tenant-a';
const E = 'prod';
let server: TestServer;
let dataDir: string;

const STOCK = [
  { id: 'paris-lamp', store: 'paris' },
  { id: 'paris-vase', store: 'paris' },
  { id: 'lyon-lamp', store: 'lyon' },
  { id: 'lyon-rug', store: 'lyon' },
  { id: 'nice-mug', store: 'nice' },
];

async function widget(variables?: Record<string, unknown>): Promise<{ status: number; ids: string[]; field?: string }> {
  const query = variables === undefined ? '' : `?variables=${encodeURIComponent(JSON.stringify(variables))}`;
  const res = await call(`${server.url}/widget/w-store/recommendations${query}`);
  const ids = res.status === 200 ? (res.body.recommendations as Array<{ product: { _id: { original_id: string } } }>).map((r) => r.product._id.original_id) : [];
  return { status: res.status, ids, field: res.body?.error?.field };
}

before(async () => {
  const config = testConfig() as { tenants: Array<{ environments: Array<{ widgets?: unknown[] }> }> };
  config.tenants[0]!.environments[0]!.widgets = [{ id: 'w-store', title: 'In your store', strategies: ['popular'], minResults: 1, maxResults: 10, filters: [{ where: 'store = $store' }] }];
  dataDir = await makeDataDir();
  server = await startTestServer({ config, dataDir });
  const catalog = server.server.deps.services.catalog;
  const schema = await catalogRequests(catalog).schemas.create(T, E, { name: 'product', attributes: [{ name: 'title', type: 'TEXT' }, { name: 'store', type: 'TEXT' }], nestedItemSchemas: [] });
  const record = await catalog.catalogs.create(T, E, { catalogItemSchemas: [{ name: schema.name, version: schema.version }] });
  await catalogRequests(catalog).items.load(T, E, STOCK.map(({ id, store }) => ({ id, catalogVersion: record.version, type: 'product', attributes: { title: id, store } })));
  const active = await (await catalog.catalogs.promote(T, E, record.version)).activation;
  assert.equal(active.state, 'active');
  // Every item viewed, more often the earlier in the list: popularity ranks them in that order.
  for (const [rank, { id }] of STOCK.entries()) {
    for (let n = 0; n < STOCK.length - rank; n++) {
      const res = await call(`${server.url}/collect/tenant-a-tracker`, { json: { action: 'view', target: { product: id }, user: { sessionId: `viewer-${rank}-${n}` } } });
      assert.equal(res.status, 200);
    }
  }
});

after(async () => {
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('a widget rule for one store ($store)', () => {
  it("keeps only the named store's items, most popular first", async () => {
    assert.deepEqual((await widget({ $store: 'paris' })).ids, ['paris-lamp', 'paris-vase']);
    assert.deepEqual((await widget({ $store: 'lyon' })).ids, ['lyon-lamp', 'lyon-rug']);
  });

  it('keeps each store of a list, and none for a store that sells nothing', async () => {
    assert.deepEqual((await widget({ $store: ['lyon', 'nice'] })).ids, ['lyon-lamp', 'lyon-rug', 'nice-mug']);
    assert.deepEqual((await widget({ $store: 'marseille' })).ids, []);
  });

  it('leaves the condition out when the request names no store: every store', async () => {
    assert.deepEqual((await widget()).ids, STOCK.map((item) => item.id));
    assert.deepEqual((await widget({ $other: 'x' })).ids, STOCK.map((item) => item.id));
  });

  it('refuses variables that are not a JSON object, naming the field', async () => {
    const res = await call(`${server.url}/widget/w-store/recommendations?variables=${encodeURIComponent('["paris"]')}`);
    assert.equal(res.status, 400);
    assert.equal(res.body.error.field, 'variables');
  });
});
