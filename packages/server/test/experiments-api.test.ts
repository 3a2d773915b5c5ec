/**
 * Experiments over the real server: definitions and their refusals, the draw each response carries
 * (the published client's), results that match a hand count of what shoppers did and survive a
 * restart, and applying the winner.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { drawAbTestVariationForUser } from '@attraqt/ab-test';
import { ManualClock } from '../src/platform/clock.js';
import { adminConfig, adminToken } from './support/admin-fixture.js';
import { loadCatalog } from './support/recommendation-fixture.js';
import { call, makeDataDir, startTestServer, type TestServer } from './support/test-server.js';

const ENV = 'environment=prod';
const DEFINITION = {
  name: 'Trending against popular',
  widget: 'w-popular',
  variants: [
    { id: 'control', weight: 50 },
    { id: 'b', weight: 50, widget: { strategies: ['trending'] } },
  ],
};
/** The derived rates, which follow from the counts compared beside them. */
const pick = (v: Record<string, unknown>) => ({ clickThroughRate: v.clickThroughRate, addToCartRate: v.addToCartRate, conversionRate: v.conversionRate, revenuePerUser: v.revenuePerUser });
const AB = { id: 'home-trending', variations: DEFINITION.variants.map(({ id, weight }) => ({ id, weight })) };
type Figures = { users: number; exposures: number; clicks: number; conversions: number; revenue: number };
/** The daily series summed per variant must be the table's figures: the chart counts what the table counts. */
const assertDaysAddUp = (results: { variants: Array<Figures & { variant: string }>; days: Array<{ variants: Record<string, Figures> }> }) => {
  for (const v of results.variants) {
    const summed: Figures = { users: 0, exposures: 0, clicks: 0, conversions: 0, revenue: 0 };
    for (const day of results.days) for (const key of Object.keys(summed) as Array<keyof Figures>) summed[key] += day.variants[v.variant]?.[key] ?? 0;
    assert.deepEqual(summed, { users: v.users, exposures: v.exposures, clicks: v.clicks, conversions: v.conversions, revenue: v.revenue }, `${v.variant} by day`);
  }
};

describe('experiments', () => {
  let server: TestServer;
  let config: Record<string, unknown>;
  let dataDir: string;
  const clock = new ManualClock();
  let editor: Record<string, string>;
  let reader: Record<string, string>;
  const api = (path: string, headers: Record<string, string>, init: RequestInit & { json?: unknown } = {}) =>
    call(`${server.url}/admin${path}${path.includes('?') ? '&' : '?'}${ENV}`, { ...init, headers: { ...headers, ...(init.headers as Record<string, string>) } });
  const collect = async (sessionId: string, activity: Record<string, unknown>) => {
    clock.advance(10);
    const res = await call(`${server.url}/collect/tenant-a-tracker`, { json: { user: { sessionId }, ...activity } });
    assert.ok(res.status < 300, JSON.stringify(res.body));
  };
  /** Exposures are logged after the response is sent: wait until the results hold `users` shoppers. */
  const resultsWith = async (id: string, users: number) => {
    for (let i = 0; i < 100; i++) {
      const res = await api(`/experiments/${id}/results`, reader);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const total = res.body.variants.reduce((s: number, v: { users: number }) => s + v.users, 0);
      if (total >= users) return res.body;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.fail(`results never reached ${users} users`);
  };

  before(async () => {
    config = await adminConfig();
    dataDir = await makeDataDir();
    server = await startTestServer({ config, clock, dataDir });
    await loadCatalog(server.server);
    clock.advance(1000);
    editor = { authorization: `Bearer ${await adminToken(server, clock.now(), 'client-a')}` };
    reader = { authorization: `Bearer ${await adminToken(server, clock.now(), 'reader-a')}` };
  });
  after(() => server.cleanup());

  it('refuses bad definitions with a 400 naming the field, and stores nothing', async () => {
    const refused = async (body: unknown, field: string, status = 400) => {
      const res = await api('/experiments/bad', editor, { method: 'PUT', json: body });
      assert.equal(res.status, status, JSON.stringify(res.body));
      assert.equal(res.body.error.field, field, JSON.stringify(res.body));
    };
    await refused({ ...DEFINITION, variants: [{ id: 'control', weight: 50 }, { id: 'b', weight: 40 }] }, 'variants');
    await refused({ ...DEFINITION, variants: [{ id: 'control', weight: 100 }] }, 'variants');
    await refused({ ...DEFINITION, variants: ['a', 'b', 'c', 'd', 'e', 'f'].map((id) => ({ id, weight: id === 'a' ? 50 : 10 })) }, 'variants');
    await refused({ ...DEFINITION, widget: 'no-such-widget' }, 'widget');
    await refused({ ...DEFINITION, widget: undefined, searchToken: 'no-such-token', variants: [{ id: 'control', weight: 50 }, { id: 'b', weight: 50 }] }, 'searchToken');
    await refused({ ...DEFINITION, variants: [DEFINITION.variants[0], { id: 'b', weight: 50, widget: { maxResults: 'many' } }] }, 'variants[1].widget.maxResults');
    await refused({ ...DEFINITION, variants: [DEFINITION.variants[0], { id: 'b', weight: 50, widget: { strategies: ['clairvoyant'] } }] }, 'variants[1].widget.strategies[0]');
    await refused({ ...DEFINITION, variants: [{ id: 'control', weight: 50, widget: { title: 'x' } }, DEFINITION.variants[1]] }, 'variants[0]');
    const forbidden = await api('/experiments/bad', reader, { method: 'PUT', json: DEFINITION });
    assert.equal(forbidden.status, 403);
    assert.deepEqual((await api('/experiments', reader)).body.experiments, []);
  });

  it('serves each shopper the variant @attraqt/ab-test draws, stamps the response, and none without a shopper', async () => {
    const put = await api('/experiments/home-trending', editor, { method: 'PUT', json: DEFINITION });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const draft = await call(`${server.url}/widget/w-popular/recommendations/sessionid/s-0`);
    assert.equal(draft.body.experiment, undefined, 'a draft serves nobody');
    const started = await api('/experiments/home-trending/start', editor, { method: 'POST' });
    assert.equal(started.status, 200);
    assert.equal(started.body.status, 'running');
    for (let i = 0; i < 30; i++) {
      const shopper = i % 3 === 0 ? `søren-${i}-日本` : `s-${i}`;
      const res = await call(`${server.url}/widget/w-popular/recommendations/sessionid/${encodeURIComponent(shopper)}`);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.experiment, { id: 'home-trending', variant: drawAbTestVariationForUser(shopper, AB).variationId });
    }
    const anonymous = await call(`${server.url}/widget/w-popular/recommendations`);
    assert.equal(anonymous.body.experiment, undefined);
  });

  it('refuses a second running experiment on the surface, and weight changes once running', async () => {
    assert.equal((await api('/experiments/second', editor, { method: 'PUT', json: DEFINITION })).status, 200);
    const second = await api('/experiments/second/start', editor, { method: 'POST' });
    assert.equal(second.status, 409);
    assert.equal(second.body.error.field, 'widget');
    const reweigh = await api('/experiments/home-trending', editor, { method: 'PUT', json: { ...DEFINITION, variants: [{ id: 'control', weight: 30 }, { ...DEFINITION.variants[1], weight: 70 }] } });
    assert.equal(reweigh.status, 409);
    assert.equal(reweigh.body.error.field, 'variants');
    assert.equal((await api('/experiments/home-trending', reader)).body.variants[0].weight, 50);
    assert.equal((await api('/experiments/home-trending/apply', editor, { method: 'POST', json: { variant: 'b' } })).status, 409);
    assert.equal((await api('/experiments/second', editor, { method: 'DELETE' })).status, 204);
  });

  it('counts users, exposures, clicks on the response, conversions and revenue as a hand count does, and the same after a restart', async () => {
    const shoppers = Array.from({ length: 12 }, (_, i) => `buyer-${i}`);
    const expected = new Map(DEFINITION.variants.map((v) => [v.id, { users: 0, exposures: 0, clicks: 0, conversions: 0, revenue: 0 }]));
    for (const [i, shopper] of shoppers.entries()) {
      const variant = drawAbTestVariationForUser(shopper, AB).variationId;
      const counts = expected.get(variant)!;
      counts.users++;
      const views = 1 + (i % 3);
      let last = '';
      for (let v = 0; v < views; v++) {
        clock.advance(10);
        last = (await call(`${server.url}/widget/w-popular/recommendations/sessionid/${shopper}`)).body.id;
        counts.exposures++;
      }
      if (i % 2 === 0) {
        await collect(shopper, { action: 'click', target: { product: 'shoe-1' }, sourceId: last });
        // A second click on the same response counts once.
        await collect(shopper, { action: 'click', target: { product: 'shoe-2' }, sourceId: last });
        counts.clicks++;
      }
      if (i % 4 === 0) {
        await collect(shopper, { action: 'purchase', target: { product: 'shoe-1' }, metadata: { price: 9000, quantity: 1 + (i % 3), orderId: `o-${i}` } });
        counts.conversions++;
        counts.revenue += 9000 * (1 + (i % 3));
      }
    }
    // A click naming no response of the experiment credits nothing.
    await collect('buyer-1', { action: 'click', target: { product: 'shoe-1' }, sourceId: 'made-up' });
    const earlier = (await api('/experiments/home-trending/results', reader)).body.variants.reduce((s: number, v: { users: number }) => s + v.users, 0);
    const results = await resultsWith('home-trending', earlier > 0 ? earlier : shoppers.length);
    for (const variant of results.variants) {
      const hand = expected.get(variant.variant)!;
      const mine = { users: variant.users, exposures: variant.exposures, clicks: variant.clicks, conversions: variant.conversions, revenue: variant.revenue };
      // The 30 shoppers of the previous test were served once each, and did nothing else.
      const earlierShoppers = Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? `søren-${i}-日本` : `s-${i}`)).filter((s) => drawAbTestVariationForUser(s, AB).variationId === variant.variant).length;
      assert.deepEqual(mine, { ...hand, users: hand.users + earlierShoppers, exposures: hand.exposures + earlierShoppers });
    }
    assert.equal(results.comparisons.length, 4, 'b against the control on four metrics');
    assert.ok(results.comparisons.every((c: { pValue: number; adjustedPValue: number }) => c.pValue >= 0 && c.pValue <= 1 && c.adjustedPValue >= c.pValue));
    assert.equal(typeof results.srm.flagged, 'boolean');
    assertDaysAddUp(results);

    // Restored from a snapshot of the folded figures, plus the log after it.
    await server.server.deps.services.activities.snapshotNow();
    await server.close();
    server = await startTestServer({ config, clock, dataDir });
    assert.notEqual(server.server.deps.services.activities.rebuildStats('tenant-a')?.snapshotTakenAt, undefined, 'the restart used the snapshot');
    const again = (await api('/experiments/home-trending/results', reader)).body;
    assert.deepEqual(again.variants, results.variants);
    assert.deepEqual(again.comparisons, results.comparisons);
  });

  it('forgets an erased shopper in the results, at once and after a restart', async () => {
    clock.advance(1000);
    editor = { authorization: `Bearer ${await adminToken(server, clock.now(), 'client-a')}` };
    reader = { authorization: `Bearer ${await adminToken(server, clock.now(), 'reader-a')}` };
    const variant = drawAbTestVariationForUser('buyer-0', AB).variationId;
    const figures = async () => ((await api('/experiments/home-trending/results', reader)).body.variants as Array<{ variant: string; users: number; exposures: number; clicks: number; conversions: number; revenue: number }>).find((v) => v.variant === variant)!;
    const before = await figures();
    const profile = server.server.deps.services.activities.findProfile('tenant-a', { sessionId: 'buyer-0' })!;
    const erased = await api(`/profiles?profileId=${encodeURIComponent(profile.id)}`, editor, { method: 'DELETE' });
    assert.equal(erased.status, 200, JSON.stringify(erased.body));
    const after = await figures();
    assertDaysAddUp((await api('/experiments/home-trending/results', reader)).body);
    // buyer-0 was served once, clicked and bought one item for 9000.
    assert.deepEqual(after, { ...before, users: before.users - 1, exposures: before.exposures - 1, clicks: before.clicks - 1, conversions: before.conversions - 1, revenue: before.revenue - 9000, ...pick(after) });
    await server.close();
    server = await startTestServer({ config, clock, dataDir });
    assert.deepEqual(await figures(), after);
  });

  it('applies the winner to the widget once stopped, and records it in the audit log', async () => {
    clock.advance(1000);
    editor = { authorization: `Bearer ${await adminToken(server, clock.now(), 'client-a')}` };
    reader = { authorization: `Bearer ${await adminToken(server, clock.now(), 'reader-a')}` };
    const stopped = await api('/experiments/home-trending/stop', editor, { method: 'POST' });
    assert.equal(stopped.body.status, 'stopped');
    const after = await call(`${server.url}/widget/w-popular/recommendations/sessionid/s-1`);
    assert.equal(after.body.experiment, undefined, 'a stopped experiment serves nobody');
    const unknown = await api('/experiments/home-trending/apply', editor, { method: 'POST', json: { variant: 'z' } });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error.field, 'variant');
    const applied = await api('/experiments/home-trending/apply', editor, { method: 'POST', json: { variant: 'b' } });
    assert.equal(applied.status, 200, JSON.stringify(applied.body));
    assert.equal(applied.body.appliedVariant, 'b');
    assert.deepEqual((await api('/widgets/w-popular', reader)).body.strategies, ['trending']);
    const actions = (await api('/audit', reader)).body.entries.map((e: { action: string }) => e.action);
    assert.deepEqual(actions.slice(0, 3), ['experiment.apply', 'widget.update', 'experiment.stop']);
  });

  it('tests a search configuration: the variant named by context.session gets its rules, in metadata.experiment', async () => {
    const definition = { name: 'Pin socks', searchToken: 'tenant-a-search', variants: [{ id: 'control', weight: 50 }, { id: 'pinned', weight: 50, configuration: { rules: [{ query: 'shoes', pin: ['sock-1'] }] } }] };
    const bad = await api('/experiments/search-pin', editor, { method: 'PUT', json: { ...definition, variants: [definition.variants[0], { id: 'pinned', weight: 50, configuration: { rules: [{ query: ' ', pin: ['sock-1'] }] } }] } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.field, 'variants[1].configuration.rules[0].query');
    assert.equal((await api('/experiments/search-pin', editor, { method: 'PUT', json: definition })).status, 200);
    assert.equal((await api('/experiments/search-pin/start', editor, { method: 'POST' })).status, 200);
    const ab = { id: 'search-pin', variations: [{ id: 'control', weight: 50 }, { id: 'pinned', weight: 50 }] };
    const seen = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const sessionId = `searcher-${i}`;
      const res = await call(`${server.url}/search`, { json: { token: 'tenant-a-search', query: 'shoes', context: { session: { customerId: 'ignored', sessionId } } } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const variant = drawAbTestVariationForUser(sessionId, ab).variationId;
      assert.deepEqual(res.body.metadata.experiment, { id: 'search-pin', variant });
      assert.equal(res.body.items[0].id === 'sock-1', variant === 'pinned', `${sessionId} in ${variant}`);
      seen.add(variant);
    }
    assert.equal(seen.size, 2);
    // Suggest and autocomplete name the shopper the same way, and say so in their metadata.
    const context = { session: { sessionId: 'searcher-0' } };
    const stamp = { id: 'search-pin', variant: drawAbTestVariationForUser('searcher-0', ab).variationId };
    const suggested = await call(`${server.url}/search/suggest`, { json: { token: 'tenant-a-search', query: 'shoes', options: { groupBy: { attribute: 'brand' } }, context } });
    assert.deepEqual(suggested.body.metadata.experiment, stamp);
    const completed = await call(`${server.url}/search/autocomplete`, { json: { token: 'tenant-a-search', query: 'sho', context } });
    assert.deepEqual(completed.body.metadata.experiment, stamp);
    const plain = await call(`${server.url}/search`, { json: { token: 'tenant-a-search', query: 'shoes' } });
    assert.equal(plain.body.metadata.experiment, undefined);
    assert.notEqual(plain.body.items[0].id, 'sock-1');
    await resultsWith('search-pin', 12);
    assert.equal((await api('/experiments/search-pin/stop', editor, { method: 'POST' })).status, 200);
    assert.equal((await api('/experiments/search-pin/apply', editor, { method: 'POST', json: { variant: 'pinned' } })).status, 200);
    const configuration = (await api('/search-tokens/tenant-a-search', reader)).body.configurations.find((c: { id: string }) => c.id === 'default');
    assert.deepEqual(configuration.rules.map((r: { query: string; pin: string[] }) => [r.query, r.pin]), [['shoes', ['sock-1']]]);
    const everyone = await call(`${server.url}/search`, { json: { token: 'tenant-a-search', query: 'shoes' } });
    assert.equal(everyone.body.items[0].id, 'sock-1', 'the applied rule serves every shopper');
  });
});
