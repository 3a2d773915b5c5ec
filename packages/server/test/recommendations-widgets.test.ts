/**
 * Widgets that tell the truth: recently-viewed shows only what the shopper viewed (and keeps what went
 * into the basket), idsToBan holds on single and multi-widget calls, and a widget impression sent
 * through the collection API is not stored as a page view.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, startTestServer, type TestServer } from './support/test-server.js';
import { loadCatalog, recommendationConfig, TENANT } from './support/recommendation-fixture.js';

const ids = (body: { recommendations: Array<{ product: { _id: { original_id: string } } }> }) => body.recommendations.map((r) => r.product._id.original_id);

describe('widgets that tell the truth', () => {
  let server: TestServer;
  const get = (path: string) => call(`${server.url}${path}`);
  const collect = (body: unknown) => call(`${server.url}/collect/tenant-a-tracker`, { json: body });
  const as = (sessionId: string, action: string, product: string) => collect({ action, target: { product }, user: { sessionId } });
  const profileOf = (sessionId: string) => server.server.deps.services.activities.findProfile(TENANT, { sessionId })!.id;

  before(async () => {
    const config = recommendationConfig() as { tenants: Array<{ environments: Array<{ widgets: unknown[] }> }> };
    config.tenants[0]!.environments[0]!.widgets.push({ id: 'w-recent-or-popular', strategies: ['recently-viewed'], minResults: 3, maxResults: 10, fallback: 'popular' });
    server = await startTestServer({ config });
    await loadCatalog(server.server);
    // Someone else makes shoes popular, so a fallback would have something to show.
    for (const product of ['shoe-1', 'shoe-2', 'shoe-3']) await as('crowd', 'view', product);
  });
  after(() => server.cleanup());

  it('recently-viewed is empty for a shopper who viewed nothing, unless the widget names a fallback', async () => {
    await as('buyer-only', 'purchase', 'sock-2');
    const empty = await get(`/widget/w-recent/recommendations/${profileOf('buyer-only')}`);
    assert.equal(empty.status, 200);
    assert.deepEqual(ids(empty.body), []);
    assert.equal(empty.body.pagination.total, 0);
    const filled = await get(`/widget/w-recent-or-popular/recommendations/${profileOf('buyer-only')}`);
    assert.ok(ids(filled.body).length >= 3);
    assert.ok(filled.body.recommendations.every((r: { strategy: string }) => r.strategy !== 'recently-viewed'));
  });

  it('recently-viewed keeps a product that went into the basket, newest view first', async () => {
    await as('browser', 'view', 'shoe-1');
    await as('browser', 'view', 'sock-1');
    await as('browser', 'add-to-cart', 'shoe-1');
    await as('browser', 'add-to-cart', 'bag-1');
    assert.deepEqual(ids((await get(`/widget/w-recent/recommendations/${profileOf('browser')}`)).body), ['sock-1', 'shoe-1']);
  });

  it('idsToBan leaves items out of single and multi-widget calls', async () => {
    const profile = profileOf('browser');
    const all = ids((await get('/widget/w-popular/recommendations')).body);
    assert.ok(all.length >= 3);
    const banned = all.slice(0, 2);
    const single = ids((await get(`/widget/w-popular/recommendations?idsToBan=${banned.join(',')}`)).body);
    assert.ok(single.length > 0 && single.every((id) => !banned.includes(id)), single.join());
    const multi = await get(`/widget/multi/w-popular,w-recent/recommendations/${profile}?idsToBan=${encodeURIComponent(JSON.stringify(['shoe-1', banned[0]]))}`);
    assert.equal(multi.status, 200);
    assert.ok(!ids(multi.body['w-popular']).includes('shoe-1') && !ids(multi.body['w-popular']).includes(banned[0]!));
    assert.deepEqual(ids(multi.body['w-recent']), ['sock-1']);
  });

  it('a widget impression is not a page view and does not make products popular', async () => {
    const before = ids((await get('/widget/w-popular/recommendations')).body);
    const res = await collect({ action: 'view', target: { page: '/home' }, user: { sessionId: 'looker' }, metadata: { widgetId: 'w-popular' }, sourceId: 'r_x' });
    assert.equal(res.status, 200);
    const history = server.server.deps.services.activities.history(TENANT, profileOf('looker'));
    assert.equal(history.length, 1);
    assert.equal(history[0]!.type, 'widget');
    assert.equal(history[0]!.itemId, 'w-popular');
    assert.equal(server.server.deps.services.activities.history(TENANT, profileOf('looker'), { type: 'page' }).length, 0);
    // A real page view is still one.
    await collect({ action: 'view', target: { page: '/home' }, user: { sessionId: 'looker' } });
    assert.equal(server.server.deps.services.activities.history(TENANT, profileOf('looker'), { type: 'page' }).length, 1);
    assert.deepEqual(ids((await get('/widget/w-popular/recommendations')).body), before);
  });
});

describe('bought-together for a regular buyer', () => {
  let server: TestServer;
  const order = (sessionId: string, orderId: string, products: string[]) => purchase(server, sessionId, orderId, products);
  const together = async (user: string) => {
    const path = `/widget/w-bought-together/recommendations${user}?variables=${encodeURIComponent(JSON.stringify({ $productId: 'shoe-1' }))}`;
    const res = await call(`${server.url}${path}`);
    assert.equal(res.status, 200);
    return res.body.recommendations.filter((r: { strategy: string }) => r.strategy === 'bought-together').map((r: { product: { _id: { original_id: string } } }) => r.product._id.original_id);
  };

  before(async () => {
    server = await startTestServer({ config: recommendationConfig() });
    await loadCatalog(server.server);
    // Most shoppers buy shoe-1 with sock-1; one order has shoe-1 with sock-2.
    for (let i = 0; i < 3; i++) await order(`crowd-${i}`, `o-crowd-${i}`, ['shoe-1', 'sock-1']);
    await order('regular', 'o-regular-1', ['shoe-1', 'sock-2']);
    // The regular buyer's own earlier orders also hold bag-1, never bought with shoe-1.
    await order('regular', 'o-regular-2', ['bag-1']);
  });
  after(() => server.cleanup());

  it("puts the shopper's own usual companions of the product first, and only those bought with it", async () => {
    assert.deepEqual(await together(''), ['sock-1', 'sock-2']);
    const regular = server.server.deps.services.activities.findProfile(TENANT, { sessionId: 'regular' })!.id;
    assert.deepEqual(await together(`/${regular}`), ['sock-2', 'sock-1']);
  });
});

describe("bought-together for a regular buyer with many of their own companions", () => {
  let server: TestServer;
  const order = (sessionId: string, orderId: string, products: string[]) => purchase(server, sessionId, orderId, products);
  // A kettle; the crowd buys it with four teas, the regular with eight mugs of their own.
  const mugs = Array.from({ length: 8 }, (_, i) => `mug-${i + 1}`);
  const teas = ['tea-1', 'tea-2', 'tea-3', 'tea-4'];
  const list = async (user: string) => {
    const res = await call(`${server.url}/widget/w-bought-together/recommendations${user}?variables=${encodeURIComponent(JSON.stringify({ $productId: 'kettle' }))}`);
    assert.equal(res.status, 200);
    return res.body.recommendations.map((r: { product: { _id: { original_id: string } } }) => r.product._id.original_id);
  };

  before(async () => {
    server = await startTestServer({ config: recommendationConfig() });
    // A category each, so that the variety cap moves nothing.
    await loadCatalog(server.server, ['kettle', ...mugs, ...teas].map((id) => ({ id, categories: id, brand: 'Acme', price: 10 })));
    for (let n = 0; n < 4; n++) await order(`crowd-${n}`, `o-crowd-${n}`, ['kettle', ...teas]);
    await order('regular', 'o-regular-1', ['kettle', ...mugs]);
    // mug-8 is the one they buy most: twice more on its own.
    await order('regular', 'o-regular-2', ['mug-8']);
    await order('regular', 'o-regular-3', ['mug-8']);
  });
  after(() => server.cleanup());

  it('fills seven of ten places with them, their most bought first, and keeps three for what others buy with it', async () => {
    const anonymous = await list('');
    // Anonymously, the crowd's teas lead (the coverage then reaches the regular's order).
    assert.ok(anonymous.slice(0, 3).every((id: string) => teas.includes(id)), JSON.stringify(anonymous));
    const regular = server.server.deps.services.activities.findProfile(TENANT, { sessionId: 'regular' })!.id;
    const theirs = await list(`/${regular}`);
    assert.equal(theirs.length, 10, JSON.stringify(theirs));
    assert.equal(theirs[0], 'mug-8', JSON.stringify(theirs));
    assert.ok(theirs.slice(0, 7).every((id: string) => mugs.includes(id)), JSON.stringify(theirs));
    assert.ok(theirs.slice(7).every((id: string) => teas.includes(id)), JSON.stringify(theirs));
  });
});

/** One order through the collection API: a purchase per product, each naming the order. */
async function purchase(server: TestServer, sessionId: string, orderId: string, products: string[], timestamp?: string): Promise<void> {
  for (const product of products) {
    const res = await call(`${server.url}/collect/tenant-a-tracker`, { json: { action: 'purchase', target: { product }, user: { sessionId }, metadata: { orderId }, ...(timestamp === undefined ? {} : { timestamp }) } });
    assert.equal(res.status, 200);
  }
}

describe('bought-together between equally frequent companions', () => {
  let server: TestServer;
  const order = (sessionId: string, orderId: string, products: string[], timestamp: string) => purchase(server, sessionId, orderId, products, timestamp);

  before(async () => {
    server = await startTestServer({ config: recommendationConfig() });
    await loadCatalog(server.server);
    // shoe-2 met sock-1 and sock-2 once each, in one order (the same time, so the same weight); sock-2 sells more on its own.
    await order('a', 'o-a', ['shoe-2', 'sock-1', 'sock-2'], '2026-11-20T12:00:00Z');
    await order('b', 'o-b', ['sock-2'], '2026-11-20T13:00:00Z');
    await order('c', 'o-c', ['sock-2'], '2026-11-20T14:00:00Z');
  });
  after(() => server.cleanup());

  it('ranks the more bought one first, as the strategy ordered them', async () => {
    const res = await call(`${server.url}/widget/w-bought-together/recommendations?variables=${encodeURIComponent(JSON.stringify({ $productId: 'shoe-2' }))}`);
    assert.equal(res.status, 200);
    const together = res.body.recommendations.filter((r: { strategy: string }) => r.strategy === 'bought-together');
    assert.deepEqual(together.map((r: { product: { _id: { original_id: string } } }) => r.product._id.original_id), ['sock-2', 'sock-1']);
    // Both met shoe-2 in the one order; once sock-2 is picked, that order counts 0.6 for the next pick (basket-cover.ts).
    assert.ok(together[0].score > together[1].score, JSON.stringify(together));
  });
});

describe('bought-together reaching different baskets', () => {
  let server: TestServer;
  const order = (sessionId: string, orderId: string, products: string[]) => purchase(server, sessionId, orderId, products);

  before(async () => {
    server = await startTestServer({ config: recommendationConfig() });
    await loadCatalog(server.server);
    // Both socks were bought with shoe-1 in the same three orders; shoe-2 with shoe-1 in two others.
    for (const n of [1, 2, 3]) await order(`set-${n}`, `o-set-${n}`, ['shoe-1', 'sock-1', 'sock-2']);
    for (const n of [1, 2]) await order(`pair-${n}`, `o-pair-${n}`, ['shoe-1', 'shoe-2']);
  });
  after(() => server.cleanup());

  it('lists the partner of the other orders before the second sock, though the sock was bought with it more often', async () => {
    const res = await call(`${server.url}/widget/w-bought-together/recommendations?limit=3&variables=${encodeURIComponent(JSON.stringify({ $productId: 'shoe-1' }))}`);
    assert.equal(res.status, 200);
    const shown = ids(res.body);
    assert.equal(shown.length, 3, shown.join());
    assert.ok(shown[0]!.startsWith('sock-'), shown.join());
    assert.equal(shown[1], 'shoe-2', shown.join());
    assert.ok(shown[2]!.startsWith('sock-'), shown.join());
  });
});
