/**
 * After a write to the active catalog, the next recommendation request rebuilds recommendations' view
 * of the catalog (domains/recommendations/catalog-index.ts) in slices: it waits, other requests are
 * answered meanwhile, and what it answers includes the write. A real server over HTTP, 20,000 items.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, startTestServer, type TestServer } from './support/test-server.js';
import { catalogRequests } from './support/catalog-requests.js';
import { ENV, recommendationConfig, TENANT } from './support/recommendation-fixture.js';

const ITEMS = 20_000;
const BRANDS = ['Acme', 'Zed', 'Other', 'Lumo'];

describe('the catalog as recommendations read it, after a write', () => {
  let server: TestServer;
  let version: number;
  const catalog = () => catalogRequests(server.server.deps.services.catalog);
  const similar = (productId: string) => call(`${server.url}/widget/w-similar/recommendations?variables=${encodeURIComponent(JSON.stringify({ $productId: productId }))}`);
  const ids = (body: { recommendations: Array<{ product: { _id: { original_id: string } } }> }) => body.recommendations.map((r) => r.product._id.original_id);

  before(async () => {
    server = await startTestServer({ config: recommendationConfig() });
    const text = ['title', 'categories', 'brand', 'color'].map((name) => ({ name, type: 'TEXT' }));
    const ints = ['price', 'recommended', 'in_stock'].map((name) => ({ name, type: 'INTEGER' }));
    const schema = await catalog().schemas.create(TENANT, ENV, { name: 'product', attributes: [...text, ...ints], nestedItemSchemas: [] });
    ({ version } = await catalog().catalogs.create(TENANT, ENV, { catalogItemSchemas: [{ name: schema.name, version: schema.version }] }));
    const items = Array.from({ length: ITEMS }, (_, n) => ({
      id: `p${n}`,
      catalogVersion: version,
      type: 'product',
      attributes: { title: `Item ${n}`, categories: `cat${n % 50}`, brand: BRANDS[n % BRANDS.length], color: ['red', 'blue'][n % 2], price: n % 100, in_stock: 1 },
    }));
    for (let start = 0; start < ITEMS; start += 10_000) await catalog().items.load(TENANT, ENV, items.slice(start, start + 10_000));
    await (await server.server.deps.services.catalog.catalogs.promote(TENANT, ENV, version)).activation;
  });
  after(() => server.cleanup());

  it('rebuilds in slices while the request waits, and the answer includes the write', async () => {
    const first = await similar('p1');
    assert.equal(first.status, 200);
    const before = ids(first.body);
    assert.ok(before.length > 0, 'items of the same category and brand');
    // The first item it recommended is no longer to be recommended.
    await catalog().items.patch(TENANT, ENV, [{ id: before[0]!, catalogVersion: version, type: 'product', attributes: { recommended: 0 } }]);
    const answered: string[] = [];
    const recommended = similar('p1').then((res) => {
      answered.push('recommendations');
      return res;
    });
    const health = call(`${server.url}/health`).then((res) => {
      answered.push('health');
      return res;
    });
    const [res, healthRes] = await Promise.all([recommended, health]);
    assert.equal(res.status, 200);
    assert.equal(healthRes.status, 200);
    assert.deepEqual(answered, ['health', 'recommendations'], 'the health check did not wait for the rebuild');
    const after = ids(res.body);
    assert.ok(!after.includes(before[0]!), `${before[0]} is no longer recommended: ${after.join()}`);
    assert.ok(after.length > 0);
  });
});
