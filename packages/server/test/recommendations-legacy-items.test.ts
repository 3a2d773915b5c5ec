/** Items written through the older item API are recommended like catalog items (spec: their `recommended` and `booster` fields). */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, startTestServer, type TestServer } from './support/test-server.js';
import { ENV, loadCatalog, recommendationConfig, TENANT } from './support/recommendation-fixture.js';
import { brandOf, categoriesOf } from '../src/domains/recommendations/catalog-index.js';
import { catalogRequests } from './support/catalog-requests.js';

const vars = (value: unknown) => encodeURIComponent(JSON.stringify(value));
const ids = (body: { recommendations: Array<{ product: { _id: { original_id: string } } }> }) => body.recommendations.map((r) => r.product._id.original_id);

describe('recommendations of older-item-API items', () => {
  let server: TestServer;
  const get = (path: string) => call(`${server.url}${path}`);
  const apply = (actions: unknown[]) => catalogRequests(server.server.deps.services.catalog).legacy.apply(TENANT, ENV, actions);

  before(async () => {
    server = await startTestServer({ config: recommendationConfig() });
    await loadCatalog(server.server);
    const lamp = (id: string, extra: Record<string, unknown>) => ({ action: 'create', id, data: { title: `Lamp ${id}`, url: `/p/${id}`, image: `https://img.example/${id}.png`, tags: ['lamps'], price: 100, ...extra } });
    await apply([
      lamp('old-1', { recommended: true }),
      lamp('old-2', { recommended: false }),
      lamp('old-3', { booster: 3 }),
      // Without tags, categories come from the attributes, as a list here.
      { action: 'create', id: 'old-4', data: { title: 'Shade', recommended: false, attributes: { categories: ['lamps', 'shades'], brand_name: 'Glow' } } },
    ]);
    const activities = server.server.deps.services.activities;
    const { profile } = await activities.resolveProfile(TENANT, { sessionId: 'lamp-fan' });
    const views = { 'old-1': 2, 'old-2': 5, 'old-3': 1, 'shoe-1': 1 };
    await activities.recordActivities(
      TENANT,
      Object.entries(views).flatMap(([itemId, n]) => Array.from({ length: n }, () => ({ profileId: profile.id, source: 'tracker' as const, verb: 'view', type: 'product', itemId, timestamp: Date.now() }))),
    );
  });
  after(() => server.cleanup());

  it('recommends them with their booster, never when recommended is false, in the spec product shape', async () => {
    const res = await get('/widget/w-popular/recommendations');
    // old-3: one view × (1 + booster 3) passes old-1's two views; old-2 has the most views but is not recommendable.
    assert.deepEqual(ids(res.body), ['old-3', 'old-1', 'shoe-1']);
    const old1 = res.body.recommendations[1].product;
    assert.equal(old1.version, 0);
    assert.equal(old1.context, 'default');
    assert.deepEqual(old1._id, { original_id: 'old-1', tenant: TENANT, kind: 'product' });
    assert.deepEqual(old1.categories, ['lamps']);
    assert.equal(old1.photo, 'https://img.example/old-1.png');
  });

  it('finds them by content, and sees older-API writes in the next response', async () => {
    assert.deepEqual(ids((await get(`/widget/w-similar/recommendations?variables=${vars({ $productId: 'old-1' })}`)).body), ['old-3']);
    await apply([{ action: 'patch', id: 'old-3', data: { recommended: false } }]);
    assert.deepEqual(ids((await get('/widget/w-popular/recommendations')).body), ['old-1', 'shoe-1']);
  });

  it('indexes categories and brand exactly as the product view shows them, for both APIs', async () => {
    const index = (await server.server.deps.services.recommendations.indexes.active(TENANT, ENV))!;
    assert.ok(index.items.length >= 10);
    for (const entry of index.items) {
      assert.deepEqual(categoriesOf(entry.item), entry.view.categories, entry.item.id);
      assert.equal(brandOf(entry.item.attributes), brandOf(entry.view), entry.item.id);
    }
    assert.deepEqual(index.byId.get('old-4')!.view.categories, ['lamps', 'shades']);
    assert.equal(brandOf(index.byId.get('old-4')!.item.attributes), 'glow');
  });
});
