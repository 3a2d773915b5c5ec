/** Analytics through the admin API: per-widget attribution, query analytics, activities per minute, the same after a restart. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../src/platform/clock.js';
import { adminConfig, adminToken } from './support/admin-fixture.js';
import { loadCatalog } from './support/recommendation-fixture.js';
import { call, startTestServer, type TestServer } from './support/test-server.js';

describe('admin analytics', () => {
  let server: TestServer;
  let config: Record<string, unknown>;
  const clock = new ManualClock();
  let headers: Record<string, string>;
  const get = async (path: string) => {
    const res = await call(`${server.url}/admin${path}${path.includes('?') ? '&' : '?'}environment=prod`, { headers });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };
  const collect = async (activity: Record<string, unknown>, sessionId = 'shopper-1') => {
    const res = await call(`${server.url}/collect/tenant-a-tracker`, { json: { user: { sessionId }, ...activity } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  };
  const search = (query: string) => call(`${server.url}/search`, { json: { token: 'tenant-a-search', query } });
  const widgetRow = (body: { widgets: Array<{ widgetId: string; impressions: number }> }, id: string) => body.widgets.find((w) => w.widgetId === id);
  /** The id of a fresh answer of one of tenant A's widgets, as the recommendation elements send it back (`sourceId`). */
  const answerId = async (widgetId = 'w-popular') => (await call(`${server.url}/widget/${widgetId}/recommendations`)).body.id as string;
  const unverifiedTotal = async () => Number(/^discovery_activities_unverified_total (\d+)$/m.exec(String((await call(`${server.url}/metrics`)).body))?.[1]);

  before(async () => {
    config = await adminConfig();
    server = await startTestServer({ config, clock });
    await loadCatalog(server.server);
    headers = { authorization: `Bearer ${await adminToken(server, clock.now(), 'client-a')}` };
  });
  after(() => server.cleanup());

  it('attributes clicks, carts, purchases and revenue to the widget that showed the item', async () => {
    // Two impressions of w-popular, one click on shoe-1 from it, then a cart and a purchase of shoe-1 without widget data.
    const [a, b] = [await answerId(), await answerId()];
    await collect({ action: 'view', target: { page: '/' }, sourceId: a, metadata: { widgetId: 'w-popular' } });
    await collect({ action: 'view', target: { page: '/p' }, sourceId: b, metadata: { widgetId: 'w-popular' } });
    await collect({ action: 'click', target: { product: 'shoe-1' }, sourceId: a });
    await collect({ action: 'add-to-cart', target: { product: 'shoe-1' } });
    await collect({ action: 'purchase', target: { product: 'shoe-1' }, metadata: { price: 9000, quantity: 2, orderId: 'o1' } });
    // A purchase by someone who never clicked a widget is nobody's; an unknown widget id is not counted.
    await collect({ action: 'purchase', target: { product: 'sock-1' }, metadata: { price: 500, orderId: 'o2' } }, 'shopper-2');
    await collect({ action: 'view', target: { page: '/' }, metadata: { widgetId: 'made-up-widget' } }, 'shopper-2');
    const body = await get('/analytics?days=7');
    const none = { impressions: 0, clicks: 0, addToCarts: 0, purchases: 0, revenue: 0 };
    assert.deepEqual(widgetRow(body, 'w-popular'), { widgetId: 'w-popular', impressions: 2, clicks: 1, addToCarts: 1, purchases: 1, revenue: 18000, clickThrough: 0.5, conversionRate: 1, unverified: none });
    assert.equal(widgetRow(body, 'made-up-widget'), undefined);
    assert.equal(widgetRow(body, 'w-trending')!.impressions, 0);
    const today = body.days.at(-1);
    assert.equal(today.activities, 7);
    assert.equal(today.verbs.purchase, 2);
    assert.equal(body.days.length, 7);
    const minutes = (await get('/analytics/activities-per-minute?minutes=5')).minutes;
    assert.equal(minutes.at(-1).count, 7);
  });

  it('credits no figure to made-up answer ids or a widget id alone: they are stored, and counted apart and in /metrics', async () => {
    const before = widgetRow(await get('/analytics?days=7'), 'w-popular') as unknown as Record<string, unknown>;
    const unverifiedBefore = await unverifiedTotal();
    const real = await answerId();
    const tampered = `${real.slice(0, -1)}${real.endsWith('A') ? 'B' : 'A'}`;
    await collect({ action: 'click', target: { product: 'shoe-2' }, sourceId: 'r_HJQxsdO7zz', metadata: { widgetId: 'w-popular' } }, 'forger');
    await collect({ action: 'click', target: { product: 'shoe-2' }, sourceId: tampered, metadata: { widgetId: 'w-popular' } }, 'forger');
    await collect({ action: 'click', target: { product: 'shoe-2' }, metadata: { widgetId: 'w-popular' } }, 'forger');
    await collect({ action: 'purchase', target: { product: 'shoe-2' }, metadata: { widgetId: 'w-popular', price: 4000, orderId: 'o-forged' } }, 'forger');
    const after = widgetRow(await get('/analytics?days=7'), 'w-popular') as unknown as Record<string, unknown>;
    assert.deepEqual({ ...after, unverified: undefined }, { ...before, unverified: undefined });
    assert.deepEqual(after.unverified, { impressions: 0, clicks: 3, addToCarts: 0, purchases: 1, revenue: 4000 });
    assert.equal((await unverifiedTotal()) - unverifiedBefore, 4);
    // Never lost: the forger's history holds all four.
    const forger = server.server.deps.services.activities.findProfile('tenant-a', { sessionId: 'forger' })!;
    assert.deepEqual(server.server.deps.services.activities.history('tenant-a', forger.id).map((x) => x.attribution), ['unverified', 'unverified', 'unverified', 'unverified']);
  });

  it("credits nothing to a tenant's widget for another tenant's activities naming its answer ids", async () => {
    const before = widgetRow(await get('/analytics?days=7'), 'w-popular');
    const answer = await answerId();
    await collect({ action: 'view', target: { page: '/' }, sourceId: answer, metadata: { widgetId: 'w-popular' } });
    const shown = widgetRow(await get('/analytics?days=7'), 'w-popular')!;
    assert.equal(shown.impressions, before!.impressions + 1);
    // Tenant B's shopper replays tenant A's answer id and widget id: neither is B's, and A's figures stay as they were.
    for (const activity of [
      { action: 'click', target: { product: 'shoe-1' }, sourceId: answer, metadata: { widgetId: 'w-popular' } },
      { action: 'purchase', target: { product: 'shoe-1' }, sourceId: answer, metadata: { price: 7000, orderId: 'o-b' } },
    ]) {
      const res = await call(`${server.url}/collect/tenant-b-tracker`, { json: { user: { sessionId: 'other-tenant' }, ...activity } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    assert.deepEqual(widgetRow(await get('/analytics?days=7'), 'w-popular'), shown);
  });

  it('counts searches per query, the ones that found nothing, and the clicks on their results', async () => {
    // One source of truth with the search-analytics API: a click names its search by sourceId (the
    // search's response id), or, when it names no search this server knows, by metadata.query.
    const first = await search('shoes');
    await search('Shoes ');
    await search('unicorn');
    await collect({ action: 'click', target: { product: 'shoe-1' }, sourceId: first.body.metadata.id, metadata: { query: 'shoes' } }, 'searcher-a');
    await collect({ action: 'click', target: { product: 'shoe-2' }, sourceId: first.body.metadata.id, metadata: { query: 'shoes' } }, 'searcher-a');
    await collect({ action: 'click', target: { product: 'shoe-2' }, metadata: { query: 'shoes' } }, 'searcher');
    await collect({ action: 'purchase', target: { product: 'shoe-2' }, metadata: { price: 8000, orderId: 'o3' } }, 'searcher');
    // A widget's click on the results page is the widget's, not the query's.
    await collect({ action: 'click', target: { product: 'shoe-1' }, sourceId: await answerId(), metadata: { query: 'shoes', widgetId: 'w-popular' } }, 'searcher-b');
    // Nor is a click naming a search id this tenant was never issued, even with the query.
    await collect({ action: 'click', target: { product: 'shoe-1' }, sourceId: 's_forgedforgedforgedxx', metadata: { query: 'shoes' } }, 'searcher-d');
    const body = await get('/analytics/queries');
    const shoes = body.top.find((q: { query: string }) => q.query === 'shoes');
    // Two searches each got a click (searcher-a's two clicks come from one search): click-through 1.
    assert.deepEqual({ searches: shoes.searches, clicks: shoes.clicks, conversions: shoes.conversions, clickThrough: shoes.clickThrough }, { searches: 2, clicks: 2, conversions: 1, clickThrough: 1 });
    assert.deepEqual(body.zeroResult.map((q: { query: string }) => q.query), ['unicorn']);
    const days = await get('/analytics?days=1');
    assert.deepEqual({ searches: days.days[0].searches, zero: days.days[0].zeroResultSearches }, { searches: 3, zero: 1 });
    // The purchase of the clicked result is search's revenue.
    assert.deepEqual({ clicks: days.days[0].searchClicks, conversions: days.days[0].searchConversions, revenue: days.days[0].searchRevenue }, { clicks: 2, conversions: 1, revenue: 8000 });
    // The search-analytics API reads the same counts: no search is counted twice by two copies.
    const report = await call(`${server.url}/search-analytics/tenant-a-search`, { headers });
    assert.equal(report.status, 200, JSON.stringify(report.body));
    const day = report.body.days.at(-1);
    assert.deepEqual({ searches: day.searches, clicks: day.clicks, conversions: day.conversions }, { searches: 3, clicks: 2, conversions: 1 });
  });

  it('answers the same after a restart', async () => {
    const shownBefore = await search('shoes');
    const before = { widgets: await get('/analytics?days=7'), queries: await get('/analytics/queries') };
    const dataDir = server.dataDir;
    await server.close();
    server = await startTestServer({ config, clock, dataDir });
    headers = { authorization: `Bearer ${await adminToken(server, clock.now() + 1000, 'client-a')}` };
    assert.deepEqual(await get('/analytics?days=7'), before.widgets);
    assert.deepEqual(await get('/analytics/queries'), before.queries);
    // A click after the restart on results shown before it still counts: its search id still verifies.
    await collect({ action: 'click', target: { product: 'shoe-1' }, sourceId: shownBefore.body.metadata.id, metadata: { query: 'Shoes' } }, 'searcher-c');
    const shoes = (await get('/analytics/queries')).top.find((q: { query: string }) => q.query === 'shoes');
    assert.equal(shoes.clicks, before.queries.top.find((q: { query: string }) => q.query === 'shoes').clicks + 1);
  });

  it('drops a query from the zero-result list once a search for it finds something', async () => {
    const current = (await get('/search-tokens/tenant-a-search')).configurations[0];
    const res = await call(`${server.url}/admin/search-tokens/tenant-a-search/configurations/default?environment=prod`, { method: 'PUT', headers, json: { ...current, synonyms: [['unicorn', 'bags']] } });
    assert.equal(res.status, 200);
    assert.ok((await search('unicorn')).body.items.length > 0);
    assert.deepEqual((await get('/analytics/queries')).zeroResult, []);
  });

  it('drops a query from the zero-result list once a redirect answers it', async () => {
    await search('Gift Voucher');
    assert.deepEqual((await get('/analytics/queries')).zeroResult.map((q: { query: string }) => q.query), ['gift voucher']);
    const current = (await get('/search-tokens/tenant-a-search')).configurations[0];
    const redirects = [{ id: 'vouchers', name: 'Vouchers', url: 'https://shop.example/vouchers', queries: ['gift  VOUCHER'] }];
    const res = await call(`${server.url}/admin/search-tokens/tenant-a-search/configurations/default?environment=prod`, { method: 'PUT', headers, json: { ...current, redirects } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual((await get('/analytics/queries')).zeroResult, []);
  });

  it('counts activities per minute by when they happened, so an imported history does not spike the last hour', async () => {
    const lastHour = async () => ((await get('/analytics/activities-per-minute?minutes=60')).minutes as Array<{ count: number }>).reduce((n, m) => n + m.count, 0);
    const before = await lastHour();
    const yesterday = new Date(clock.now() - 86_400_000).toISOString();
    for (const product of ['shoe-1', 'shoe-2', 'sock-1']) await collect({ action: 'view', target: { product }, timestamp: yesterday }, 'importer');
    assert.equal(await lastHour(), before, 'yesterday\'s activities are not counted as now');
    await collect({ action: 'view', target: { product: 'shoe-1' } }, 'importer');
    assert.equal(await lastHour(), before + 1);
  });

  it("gives the period's key figures beside the period before's, with the purchases' currency", async () => {
    const found = await search('shoes');
    await collect({ action: 'click', target: { product: 'shoe-1' }, sourceId: found.body.id }, 'buyer');
    await collect({ action: 'purchase', target: { product: 'shoe-1' }, sourceId: found.body.id, metadata: { price: 2500, quantity: 2, currency: 'EUR', orderId: 'o9' } }, 'buyer');
    const today = await get('/analytics?days=1');
    assert.equal(today.currency, 'EUR');
    assert.equal(today.totals.current.searchRevenue, today.days[0].searchRevenue);
    assert.equal(today.totals.current.widgetRevenue, today.widgets.reduce((sum: number, w: { revenue: number }) => sum + w.revenue, 0));
    assert.ok(today.totals.current.searchRevenue >= 5000, JSON.stringify(today.totals));
    // A day later, today's figures are the previous period's, and the new day starts at zero.
    clock.advance(86_400_000);
    headers = { authorization: `Bearer ${await adminToken(server, clock.now(), 'client-a')}` };
    const tomorrow = await get('/analytics?days=1');
    assert.deepEqual(tomorrow.totals.previous, today.totals.current);
    assert.deepEqual({ searches: tomorrow.totals.current.searches, revenue: tomorrow.totals.current.searchRevenue }, { searches: 0, revenue: 0 });
    assert.equal(tomorrow.currency, 'EUR', 'the latest currency, from the day before');
  });
});
