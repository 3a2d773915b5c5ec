/**
 * Everything the interface allows that we once refused or silently did less with (issue 15's nine
 * items), each sent as the interface allows it and checked by what a shop or shopper then sees.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../src/platform/clock.js';
import { bearer, bearerTokens } from './support/bearer-tokens.js';
import { loadCatalog, recommendationConfig, TENANT } from './support/recommendation-fixture.js';
import { call, startTestServer, type TestServer } from './support/test-server.js';

const vars = (value: unknown) => encodeURIComponent(JSON.stringify(value));
type Reco = { id: string; strategy: string; product: Record<string, unknown> & { _id: { original_id: string } } };
const ids = (body: { recommendations: Reco[] }) => body.recommendations.map((r) => r.product._id.original_id);

describe('what the interface allows is accepted and takes effect', () => {
  let server: TestServer;
  const clock = new ManualClock(Date.parse('2026-11-23T12:00:00Z'));
  const tokenFor = bearerTokens(() => server, clock);
  const url = (path: string) => `${server.url}${path}`;
  const collect = (json: unknown) => call(url('/collect/tenant-a-tracker'), { json });
  const track = (activity: unknown) => call(url('/tracker/tenant-a-tracker/activity'), { json: { activity } });
  const get = (path: string) => call(url(path));
  const profileOf = (sessionId: string) => server.server.deps.services.activities.findProfile(TENANT, { sessionId })!.id;
  const historyOf = (profileId: string, query = '') => get(`/tracker/tenant-a-tracker/profiles/${profileId}/activities${query}`);

  before(async () => {
    server = await startTestServer({ config: recommendationConfig(), clock });
    await loadCatalog(server.server);
  });
  after(() => server.cleanup());

  it('1. a collection activity without user is accepted, also inside a batch, and counts for recommendations', async () => {
    const single = await collect({ action: 'purchase', target: { product: 'shoe-3' }, metadata: { orderId: 'o-anon' } });
    assert.equal(single.status, 200, JSON.stringify(single.body));
    const batch = await collect([
      { action: 'purchase', target: { product: 'shoe-3' } },
      { action: 'view', target: { product: 'sock-1' }, user: { sessionId: 'item-1' } },
    ]);
    assert.equal(batch.status, 200, JSON.stringify(batch.body));
    assert.deepEqual(ids((await get('/widget/w-top-sellers/recommendations')).body), ['shoe-3']);
    // The attributed activity of the batch is in its shopper's history; the user-less ones in nobody's.
    assert.deepEqual((await historyOf(profileOf('item-1'))).body.data.map((a: { originalId: string }) => a.originalId), ['sock-1']);
  });

  it('2. an older-tracker activity without profile (client-side tags) is accepted, counted, and names no profile', async () => {
    const res = await track({ verb: 'buy', type: 'product', original_id: 'bag-1' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.activities[0].profileId, null);
    assert.equal(res.body.activities[0].originalId, 'bag-1');
    assert.deepEqual(new Set(ids((await get('/widget/w-top-sellers/recommendations')).body)), new Set(['shoe-3', 'bag-1']));
  });

  it('3. metadata as a JSON string, a timestamp without offset, a numeric product id and sort order "ASC"', async () => {
    // A JSON-string metadata is read: its orderId groups the two purchases into one order.
    for (const product of ['hat-1', 'bag-2']) {
      const res = await collect({ action: 'purchase', target: { product }, user: { sessionId: 'item-3' }, metadata: JSON.stringify({ orderId: 'o-3', price: 1999, currency: 'EUR' }) });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    const together = await get(`/widget/w-bought-together/recommendations?variables=${vars({ $productId: 'bag-2' })}`);
    assert.deepEqual(together.body.recommendations.filter((r: Reco) => r.strategy === 'bought-together').map((r: Reco) => r.product._id.original_id), []);
    // hat-1 is not recommendable; a recommendable pair shows it.
    for (const product of ['shoe-2', 'bag-2']) {
      assert.equal((await collect({ action: 'purchase', target: { product }, user: { sessionId: 'item-3b' }, metadata: '{"orderId":"o-3b"}' })).status, 200);
    }
    const pair = await get(`/widget/w-bought-together/recommendations?variables=${vars({ $productId: 'bag-2' })}`);
    assert.deepEqual(pair.body.recommendations.filter((r: Reco) => r.strategy === 'bought-together').map((r: Reco) => r.product._id.original_id), ['shoe-2']);
    const profile = profileOf('item-3');
    const priced = (await historyOf(profile)).body.data;
    assert.deepEqual(priced.map((a: { price: number }) => a.price), [1999, 1999]);

    // A string that is not JSON is kept as sent (decision: docs/tracking.md), not refused.
    assert.equal((await collect({ action: 'view', target: { product: 'sock-2' }, user: { sessionId: 'item-3' }, metadata: 'campaign=winter' })).status, 200);
    const [kept] = server.server.deps.services.activities.history(TENANT, profile);
    assert.deepEqual(kept!.details, { metadata: 'campaign=winter' });
    // A JSON string with a bad field is refused naming it.
    const bad = await collect({ action: 'view', target: { product: 'sock-2' }, metadata: '{"price": 12.5}' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.field, 'metadata.price');

    const local = await collect({ action: 'view', target: { product: 20711 }, user: { sessionId: 'item-3t' }, timestamp: '2026-11-20T08:30:00' });
    assert.equal(local.status, 200, JSON.stringify(local.body));
    const [timed] = (await historyOf(profileOf('item-3t'))).body.data;
    assert.deepEqual([timed.originalId, timed.timestamp], ['20711', Date.parse('2026-11-20T08:30:00Z')]);

    const sorted = await call(url('/search'), { json: { token: 'tenant-a-search', query: 'shoes', options: { sortBy: [{ attribute: 'price', order: 'ASC' }] } } });
    assert.equal(sorted.status, 200, JSON.stringify(sorted.body));
    assert.deepEqual(sorted.body.items.map((i: { id: string }) => i.id), ['shoe-3', 'shoe-2', 'shoe-1']);
    const desc = await call(url('/search'), { json: { token: 'tenant-a-search', query: 'shoes', options: { sortBy: [{ attribute: 'price', order: 'DESC' }] } } });
    assert.deepEqual(desc.body.items.map((i: { id: string }) => i.id), ['shoe-1', 'shoe-2', 'shoe-3']);
  });

  it('4. click-on-reco takes the per-item recommendation id as well as the response id; an id never issued is kept, unverified', async () => {
    const identify = await call(url('/tracker/tenant-a-tracker/identify'), { json: { profile: {} } });
    const profile = identify.body.profile.id as string;
    const reco = await get('/widget/w-popular/recommendations');
    const item = reco.body.recommendations[1] as Reco;
    assert.match(item.id, new RegExp(`^${reco.body.id}-2$`));
    const click = await track({ profile, verb: 'click-on-reco', original_id: item.product._id.original_id, recommendationId: item.id, widgetId: 'w-popular' });
    assert.equal(click.status, 200, JSON.stringify(click.body));
    assert.deepEqual((await historyOf(profile)).body.data.map((a: { verb: string; originalId: string }) => [a.verb, a.originalId]), [['click-on-reco', item.product._id.original_id]]);
    const forged = await track({ profile, verb: 'click-on-reco', original_id: 'x', recommendationId: 'r_AAAAAAAA1-1', widgetId: 'w-popular' });
    assert.equal(forged.status, 200);
    const stored = server.server.deps.services.activities.history(TENANT, profile, { verb: 'click-on-reco' });
    assert.deepEqual(new Map(stored.map((a) => [a.itemId, a.attribution])), new Map([['x', 'unverified'], [item.product._id.original_id, 'verified']]));
  });

  it('5. older item API: extra data keys, protocol-relative URLs, 500 realistic actions, retried batches, version switching', async () => {
    const token = await tokenFor('client-a-legacy');
    const actions = (json: unknown) => call(url('/items'), { method: 'POST', json, ...bearer(token) });
    const created = await actions([{ action: 'create', id: 'lg-1', data: { title: 'Lamp', description: 'A warm lamp', image: '//cdn.example/lg-1.png', url: '//shop.example/lg-1', price: 2500 } }]);
    assert.equal(created.status, 200, JSON.stringify(created.body));
    // What a shopper sees: the item served by recommendations with its description and image.
    assert.equal((await collect({ action: 'view', target: { product: 'lg-1' }, user: { sessionId: 'item-5' } })).status, 200);
    const recent = async () => (await get('/widget/w-recent/recommendations/sessionid/item-5/')).body.recommendations as Reco[];
    const [shown] = await recent();
    assert.deepEqual([shown!.product._id.original_id, shown!.product.description, shown!.product.photo, shown!.product.url], ['lg-1', 'A warm lamp', '//cdn.example/lg-1.png', '//shop.example/lg-1']);
    const unsafe = await actions([{ action: 'create', id: 'lg-x', data: { url: 'javascript:alert(1)', image: '///evil' } }]);
    assert.equal(unsafe.status, 400);
    assert.deepEqual(unsafe.body.error.issues.map((i: { path: string }) => i.path), ['[0].data.image', '[0].data.url']);

    // 500 actions of about 2.5 KB each: over 1 MiB, under the batch limit.
    const big = Array.from({ length: 500 }, (_, i) => ({ action: 'create', id: `bulk-${i}`, data: { title: `Bulk ${i}`, description: 'd'.repeat(2400), price: 100 + i } }));
    assert.ok(JSON.stringify(big).length > 1024 * 1024);
    const bulk = await actions(big);
    assert.equal(bulk.status, 200, JSON.stringify(bulk.body).slice(0, 300));
    assert.equal(bulk.body.results.length, 500);

    // A retried batch (the first answer was lost) succeeds and says what each action did.
    const batch = [
      { action: 'create', id: 'lg-2', data: { title: 'Rug' } },
      { action: 'delete', id: 'bulk-0' },
    ];
    assert.deepEqual((await actions(batch)).body.results.map((r: { status: string }) => r.status), ['created', 'deleted']);
    const retried = await actions(batch);
    assert.equal(retried.status, 200, JSON.stringify(retried.body));
    assert.deepEqual(retried.body.results.map((r: { status: string }) => r.status), ['replaced', 'absent']);

    // Version 1 is built beside the live version 0, then switched to in one call.
    assert.equal((await actions([{ action: 'create', id: '1#default#product#lg-next', data: { title: 'Next season' } }])).status, 200);
    assert.equal((await collect({ action: 'view', target: { product: 'lg-next' }, user: { sessionId: 'item-5' } })).status, 200);
    assert.deepEqual((await recent()).map((r) => r.product._id.original_id), ['lg-1']);
    assert.deepEqual((await call(url('/items/versions/live'), bearer(token))).body, { version: 0 });
    const activated = await call(url('/items/versions/1/activate'), { method: 'POST', ...bearer(token) });
    assert.deepEqual([activated.status, activated.body], [200, { version: 1, previous: 0, items: 1 }]);
    assert.deepEqual((await recent()).map((r) => [r.product._id.original_id, r.product.version]), [['lg-next', 1]]);
    assert.equal((await call(url('/items/versions/x/activate'), { method: 'POST', ...bearer(token) })).status, 400);
    assert.equal((await call(url('/items/versions/0/activate'), { method: 'POST' })).status, 401);
    assert.equal((await call(url('/items/versions/0/activate'), { method: 'POST', ...bearer(token) })).status, 200);
  });

  it('6. the history counts and pages every activity, takes comma filters, and refuses an unknown filter', async () => {
    const views = Array.from({ length: 500 }, (_, i) => ({ action: 'view', target: { product: `h-${i}` }, user: { sessionId: 'item-6' } }));
    assert.equal((await collect(views)).status, 200);
    const more = Array.from({ length: 77 }, (_, i) => ({ action: i % 2 === 0 ? 'purchase' : 'add-to-cart', target: { product: `h-${500 + i}` }, user: { sessionId: 'item-6' } }));
    assert.equal((await collect(more)).status, 200);
    const profile = profileOf('item-6');
    const first = await historyOf(profile, '?page[size]=100');
    assert.deepEqual(first.body.meta, { total: 577, pageNumber: 1, pageSize: 100, totalPages: 6 });
    assert.equal(first.body.data[0].originalId, 'h-576');
    const last = await historyOf(profile, '?page[size]=100&page[number]=6');
    assert.equal(last.body.data.length, 77);
    assert.equal(last.body.data.at(-1).originalId, 'h-0');
    const both = await historyOf(profile, `?filter[verb]=${encodeURIComponent('purchase,add-to-cart')}&page[size]=100`);
    assert.equal(both.body.meta.total, 77);
    assert.deepEqual(new Set(both.body.data.map((a: { verb: string }) => a.verb)), new Set(['purchase', 'add-to-cart']));
    assert.match(both.body.links.next ?? '', /^$/);
    const viewsOnly = await historyOf(profile, '?filter[verb]=view&filter[type]=product,page&page[number]=25');
    assert.deepEqual([viewsOnly.body.meta.total, viewsOnly.body.data.length, viewsOnly.body.data.at(-1).originalId], [500, 20, 'h-0']);
    const unknown = await historyOf(profile, '?filter[colour]=red');
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error.field, 'filter[colour]');
  });

  it('7. a same-category widget reads the spec variable $category', async () => {
    const res = await get(`/widget/w-same-category/recommendations?variables=${vars({ $category: 'socks' })}`);
    assert.equal(res.status, 200);
    assert.deepEqual(new Set(ids(res.body)), new Set(['sock-1', 'sock-2']));
  });

  it('8. a profile\'s segments reach its activities', async () => {
    const identify = await call(url('/tracker/tenant-a-tracker/identify'), { json: { profile: { segments: { tier: 'gold' } } } });
    const profile = identify.body.profile.id as string;
    const tracked = await track({ profile, verb: 'view', original_id: 'shoe-1' });
    assert.deepEqual(tracked.body.activities[0].segments, { tier: 'gold' });
    assert.equal((await collect({ action: 'view', target: { product: 'shoe-2' }, user: { profileId: profile } })).status, 200);
    assert.deepEqual((await historyOf(profile)).body.data.map((a: { segments: unknown }) => a.segments), [{ tier: 'gold' }, { tier: 'gold' }]);
  });

  it('9. suggest\'s metadata.url answers the same groups when opened', async () => {
    const res = await call(url('/search/suggest'), { json: { token: 'tenant-a-search', query: 'shoes', options: { groupBy: { attribute: 'brand', size: 2 } } } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const opened = await get(new URL(res.body.metadata.url).pathname + new URL(res.body.metadata.url).search);
    assert.equal(opened.status, 200, JSON.stringify(opened.body));
    assert.deepEqual(opened.body.groups, res.body.groups);
    assert.ok(res.body.groups.length > 0);
  });

  it('leniency is bounded: malformed variants get a 4xx naming a field, never a 5xx, and change nothing', async () => {
    const before = server.server.deps.services.recommendations.aggregates.popularity(TENANT, { limit: 1000 });
    const variants: unknown[] = [
      null,
      'text',
      [],
      [null],
      { action: 'view', target: { product: 'x' }, metadata: 123 },
      { action: 'view', target: { product: 'x' }, metadata: ['a'] },
      { action: 'view', target: { product: 'x' }, metadata: 'x'.repeat(5000) },
      { action: 'view', target: { product: 'x' }, user: 'someone' },
      { action: 'view', target: { product: 'x' }, user: { identities: ['sessionid'] } },
      { action: 'view', target: { product: 'x' }, user: { identities: { sessionid: 5 } } },
      { action: 'view', target: { product: 'x' }, user: { identities: { '': 'v' } } },
      { action: 'view', target: { product: 1.5 } },
      { action: 'view', target: { product: 1e300 } },
      { action: 'view', target: { product: true } },
      { action: 'view', target: { product: 'x' }, timestamp: '2026-13-01T00:00:00' },
      { action: 'view', target: { product: 'x' }, timestamp: 1700000000 },
      { action: 'view', target: { product: 'x' }, segments: 'vip' },
      { action: 'view', target: { product: 'x' }, opposite: 'yes' },
    ];
    for (const variant of variants) {
      const res = await collect(variant);
      assert.ok(res.status >= 400 && res.status < 500, `${JSON.stringify(variant).slice(0, 80)} → ${res.status}`);
      assert.equal(typeof res.body.error.field, 'string', JSON.stringify(res.body));
    }
    for (const activity of [null, 5, { verb: 'view' }, { verb: 'view', original_id: 'x', profile: 5 }, { verb: 'view', original_id: 'x', profile: '' }]) {
      const res = await track(activity);
      assert.ok(res.status >= 400 && res.status < 500, `${JSON.stringify(activity)} → ${res.status}`);
    }
    const profile = profileOf('item-1');
    for (const query of ['?filter[verb]=,,,', '?filter[verb][]=view', '?filter[verb]=a&filter[verb]=b', `?filter[verb]=${Array.from({ length: 30 }, (_, i) => `v${i}`).join(',')}`, '?page[size]=0', '?page[size]=x', '?page[offset]=3']) {
      const res = await historyOf(profile, query);
      assert.ok(res.status >= 400 && res.status < 500, `${query} → ${res.status}`);
    }
    assert.deepEqual(server.server.deps.services.recommendations.aggregates.popularity(TENANT, { limit: 1000 }), before);
    const token = await tokenFor('client-a-legacy');
    const tooManyKeys = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, i]));
    for (const json of [[{ action: 'create', id: 'm', data: 'x' }], [{ action: 'create', id: {}, data: {} }], [{ action: 'create', id: 'm', data: tooManyKeys }]]) {
      const res = await call(url('/items'), { method: 'POST', json, ...bearer(token) });
      assert.equal(res.status, 400, JSON.stringify(res.body));
    }
    assert.equal((await call(url('/items/versions/99999999/activate'), { method: 'POST', ...bearer(token) })).status, 400);
  });

  it('leniency is scoped: one sessionid in two tenants is two shoppers, and tenant-b tokens switch only tenant-b versions', async () => {
    const shared = { identities: { sessionid: 'same-uuid' } };
    assert.equal((await call(url('/collect/tenant-b-tracker'), { json: [{ action: 'view', target: { product: 'b-only' }, user: shared }] })).status, 200);
    assert.equal((await collect([{ action: 'view', target: { product: 'shoe-1' }, user: shared }])).status, 200);
    const a = await historyOf(profileOf('same-uuid'));
    assert.deepEqual(a.body.data.map((x: { originalId: string; tenant: string }) => [x.originalId, x.tenant]), [['shoe-1', 'tenant-a']]);
    const tokenA = await tokenFor('client-a-legacy');
    const tokenB = await tokenFor('client-b-legacy');
    const liveA = (await call(url('/items/versions/live'), bearer(tokenA))).body.version;
    assert.equal((await call(url('/items/versions/7/activate'), { method: 'POST', ...bearer(tokenB) })).status, 200);
    assert.deepEqual((await call(url('/items/versions/live'), bearer(tokenA))).body, { version: liveA });
    assert.deepEqual((await call(url('/items/versions/live'), bearer(tokenB))).body, { version: 7 });
  });
});
