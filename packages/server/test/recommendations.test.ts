/** The recommendation API over the real server: every endpoint form and strategy on a hand-built shop, filters, fill-up, boosters, e-mail links. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../src/platform/clock.js';
import { call, startTestServer, type TestServer } from './support/test-server.js';
import { loadCatalog, recommendationConfig, TENANT } from './support/recommendation-fixture.js';

const vars = (value: unknown) => encodeURIComponent(JSON.stringify(value));
const ids = (body: { recommendations: Array<{ product: { _id: { original_id: string } } }> }) => body.recommendations.map((r) => r.product._id.original_id);
const strategiesOf = (body: { recommendations: Array<{ strategy: string }> }) => body.recommendations.map((r) => r.strategy);

function errorOf(body: { error: Record<string, unknown> }): Record<string, unknown> {
  const { requestId, ...rest } = body.error;
  assert.equal(typeof requestId, 'string');
  return rest;
}

describe('recommendation API', () => {
  let server: TestServer;
  const clock = new ManualClock();
  const activities = () => server.server.deps.services.activities;
  const get = (path: string, init: RequestInit = {}) => call(`${server.url}${path}`, init);
  const profileA = () => activities().findProfile(TENANT, { sessionId: 'sA' })!.id;

  before(async () => {
    server = await startTestServer({ config: recommendationConfig(), clock });
    await loadCatalog(server.server);
    const collect = `${server.url}/collect/tenant-a-tracker`;
    const send = async (action: string, product: string, user: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
      const res = await call(collect, { json: { action, target: { product }, user, ...extra } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    };
    for (const p of ['shoe-1', 'shoe-2', 'sock-1']) await send('view', p, { sessionId: 'sA' });
    for (const p of ['shoe-1', 'shoe-2']) await send('view', p, { sessionId: 'sB' });
    for (const p of ['shoe-1', 'sock-2']) await send('purchase', p, { sessionId: 'sC' }, { metadata: { orderId: 'o-1' } });
    for (let i = 0; i < 20; i++) await send('view', 'hat-1', { sessionId: `sH${i}` });
    for (let i = 0; i < 3; i++) await send('view', 'bag-2', { sessionId: `sOld${i}` }, { timestamp: '2026-11-01T10:00:00Z' });
    await send('view', 'bag-1', { sessionId: 'sD' });
    await send('view', 'sock-2', { identities: { 'customer-id': 'u-7' } });
    // The datasource user comes in through the service, as the older tracker's identify would create it.
    const { profile } = await activities().resolveProfile(TENANT, { datasources: [{ id: 'crm', original_id: 'c-9' }] });
    await activities().recordActivities(TENANT, [{ profileId: profile.id, source: 'tracker', verb: 'view', type: 'product', itemId: 'bag-2', timestamp: Date.parse('2026-11-01T10:00:00Z') }]);
    // The model trains in the background once there are 20 touches; the answers below must not depend on whether it finished yet.
    await server.server.deps.services.recommendations.models.settled();
  });
  after(() => server.cleanup());

  it('answers the spec shape, with scores falling and distribution summing to 1', async () => {
    const res = await get('/widget/w-popular/recommendations');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.deepEqual(Object.keys(res.body).sort(), ['id', 'pagination', 'recommendations', 'widget']);
    assert.deepEqual(res.body.widget, { title: 'w-popular', attributes: { layout: 'carousel', columns: 4 }, minResults: 1 });
    assert.deepEqual(res.body.pagination, { total: 6 });
    const [first] = res.body.recommendations;
    assert.deepEqual(Object.keys(first).sort(), ['distribution', 'id', 'product', 'score', 'strategy']);
    assert.equal(typeof first.id, 'string');
    const { product } = first;
    for (const key of ['version', 'context', 'id', '_id', 'type', 'title', 'url', 'recommended', 'booster', 'price', 'discount_rate', 'metadata', 'categories', 'photo']) {
      assert.ok(key in product, key);
    }
    assert.deepEqual(product._id, { original_id: 'shoe-1', tenant: TENANT, kind: 'product' });
    assert.equal(product.title, 'Title shoe-1');
    assert.equal(product.url, 'https://shop.example/shoe-1');
    assert.equal(product.photo, 'https://img.example/shoe-1.png');
    assert.deepEqual(product.categories, ['shoes', 'running']);
    assert.equal(product.brand, 'Acme');
    assert.equal(typeof product.metadata.updated, 'string');
    const scores: number[] = res.body.recommendations.map((r: { score: number }) => r.score);
    assert.deepEqual([...scores].sort((a, b) => b - a), scores);
    const sum = res.body.recommendations.reduce((s: number, r: { distribution: number }) => s + r.distribution, 0);
    assert.ok(Math.abs(sum - 1) < 1e-4, String(sum));
  });

  it('popular: weighted by verb, never a recommended:false item, boosters raise', async () => {
    const res = await get('/widget/w-popular/recommendations');
    // hat-1 has the most views but is not recommended; bag-1 (one view, booster 5) passes bag-2 (four views).
    assert.deepEqual(ids(res.body), ['shoe-1', 'sock-2', 'bag-1', 'bag-2', 'shoe-2', 'sock-1']);
    assert.deepEqual(new Set(strategiesOf(res.body)), new Set(['popular']));
  });

  it('top-sellers counts purchases only; trending only the last week', async () => {
    assert.deepEqual(ids((await get('/widget/w-top-sellers/recommendations')).body), ['shoe-1', 'sock-2']);
    assert.deepEqual(ids((await get('/widget/w-trending/recommendations')).body), ['shoe-1', 'sock-2', 'bag-1', 'shoe-2', 'sock-1']);
  });

  it('also-viewed and bought-together read visits and orders; the context product is never returned', async () => {
    const v = vars({ $productId: 'shoe-1' });
    // sock-1 and sock-2 were each viewed once with shoe-1: the one bought (sock-2) goes first.
    assert.deepEqual(ids((await get(`/widget/w-also-viewed/recommendations?variables=${v}`)).body), ['shoe-2', 'sock-2', 'sock-1']);
    const bought = await get(`/widget/w-bought-together/recommendations?variables=${v}`);
    // The item of shoe-1's order first, then the trained model's neighbour (shoe-2, viewed with shoe-1 by two shoppers).
    assert.deepEqual(ids(bought.body), ['sock-2', 'shoe-2']);
    assert.deepEqual(strategiesOf(bought.body), ['bought-together', 'bought-together']);
  });

  it('personalized goes through the profile history; recently-viewed lists it newest first', async () => {
    // Learned from everyone's history: shoe-1, which A viewed, was bought with sock-2; recent popularity
    // fills the rest, never with the item the catalog marks as not recommended (hat-1).
    const personalized = ids((await get(`/widget/w-personalized/recommendations/${profileA()}`)).body);
    assert.equal(personalized[0], 'sock-2');
    assert.ok(!personalized.includes('hat-1'), personalized.join());
    assert.deepEqual(ids((await get(`/widget/w-recent/recommendations/${profileA()}`)).body), ['sock-1', 'shoe-2', 'shoe-1']);
  });

  it('similar shares categories, brand and attributes', async () => {
    assert.deepEqual(ids((await get(`/widget/w-similar/recommendations?variables=${vars({ $productId: 'shoe-1' })}`)).body), ['shoe-2', 'shoe-3', 'sock-1']);
  });

  it('fills up to minResults from popularity, then the catalog', async () => {
    const res = await get('/widget/w-fill/recommendations');
    assert.equal(res.body.recommendations.length, 4);
    assert.deepEqual(new Set(strategiesOf(res.body)), new Set(['fallback-popular']));
    const same = await get(`/widget/w-same-category/recommendations?variables=${vars({ $productId: 'shoe-1' })}`);
    assert.deepEqual(ids(same.body), ['shoe-2', 'shoe-3']);
    assert.deepEqual(strategiesOf(same.body), ['popular', 'fallback']);
  });

  it('applies where filters with request variables', async () => {
    const res = await get(`/widget/w-in-stock/recommendations?variables=${vars({ $maxPrice: 60 })}`);
    assert.deepEqual(ids(res.body).sort(), ['bag-1', 'sock-1', 'sock-2']);
  });

  it('never returns banned ids, duplicates or any of several $productId', async () => {
    const res = await get(`/widget/w-popular/recommendations?idsToBan=shoe-1,bag-1&variables=${vars({ $productId: ['sock-2', 'sock-1'] })}`);
    assert.deepEqual(ids(res.body), ['bag-2', 'shoe-2']);
  });

  it('masks the response with fields, in the search mask syntax, and names a bad mask', async () => {
    const res = await get('/widget/w-popular/recommendations?limit=2&fields=id,recommendations(id,product(title))');
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), ['id', 'recommendations']);
    assert.equal(res.body.recommendations.length, 2);
    for (const entry of res.body.recommendations) {
      assert.deepEqual(Object.keys(entry).sort(), ['id', 'product']);
      assert.deepEqual(Object.keys(entry.product), ['title']);
    }
    const multi = await get('/widget/multi/w-popular,w-top-sellers/recommendations/anonymous?fields=pagination');
    assert.deepEqual(Object.keys(multi.body).sort(), ['w-popular', 'w-top-sellers']);
    assert.deepEqual(Object.keys(multi.body['w-popular']), ['pagination']);
    const bad = await get('/widget/w-popular/recommendations?fields=id,(');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.field, 'fields');
  });

  it('distribution is each item\'s share of the page returned', async () => {
    const whole = await get('/widget/w-popular/recommendations');
    for (const path of ['/widget/w-popular/recommendations?limit=2', '/widget/w-popular/recommendations?limit=3&offset=2']) {
      const res = await get(path);
      const entries = res.body.recommendations as Array<{ score: number; distribution: number }>;
      const total = entries.reduce((s, r) => s + r.score, 0);
      assert.ok(Math.abs(entries.reduce((s, r) => s + r.distribution, 0) - 1) < 1e-4, path);
      for (const r of entries) assert.ok(Math.abs(r.distribution - r.score / total) < 1e-6, path);
    }
    const firstTwo = (await get('/widget/w-popular/recommendations?limit=2')).body.recommendations[0].distribution;
    assert.ok(firstTwo > whole.body.recommendations[0].distribution, 'a shorter page gives each item a larger share');
  });

  it('pages with limit and offset or page, not both', async () => {
    const byOffset = await get('/widget/w-popular/recommendations?limit=2&offset=2');
    const byPage = await get('/widget/w-popular/recommendations?limit=2&page=2');
    assert.deepEqual(ids(byOffset.body), ids(byPage.body));
    assert.equal(byOffset.body.pagination.total, 6);
    assert.equal(ids(byOffset.body).length, 2);
    const both = await get('/widget/w-popular/recommendations?limit=2&page=2&offset=2');
    assert.equal(both.status, 400);
    assert.equal(errorOf(both.body).field, 'page');
  });

  it('takes variables as a trailing path segment, after a profile id or alone', async () => {
    const v = vars({ $productId: 'shoe-1' });
    // The model has settled (before()): the item bought with shoe-1, then the model's neighbour; path and query forms agree.
    const viaQuery = ids((await get(`/widget/w-bought-together/recommendations?variables=${v}`)).body);
    assert.deepEqual(viaQuery, ['sock-2', 'shoe-2']);
    assert.deepEqual(ids((await get(`/widget/w-bought-together/recommendations/${v}`)).body), viaQuery);
    const forProfile = ids((await get(`/widget/w-bought-together/recommendations/${profileA()}/${v}`)).body);
    assert.deepEqual(forProfile, ids((await get(`/widget/w-bought-together/recommendations/${profileA()}?variables=${v}`)).body));
    assert.deepEqual(forProfile, ['sock-2', 'shoe-2']);
  });

  it('resolves users by identity repository (trailing slash) and by datasource', async () => {
    assert.deepEqual(ids((await get('/widget/w-recent/recommendations/customer-id/u-7/')).body), ['sock-2']);
    assert.deepEqual(ids((await get('/widget/w-recent/recommendations/crm/c-9')).body), ['bag-2']);
    const unknown = await get('/widget/w-recent/recommendations/nowhere/u-1');
    assert.equal(unknown.status, 404);
  });

  it('answers 400 naming variables for bad JSON, 404 for an unknown widget', async () => {
    const bad = await get('/widget/w-popular/recommendations?variables=%7Bnope');
    assert.equal(bad.status, 400);
    assert.deepEqual(errorOf(bad.body), { status: 400, code: 'invalid_parameter', message: 'The "variables" parameter is not valid JSON.', field: 'variables' });
    const badPath = await get('/widget/w-popular/recommendations/%7Bnope');
    assert.equal(badPath.status, 400);
    assert.equal(errorOf(badPath.body).field, 'variables');
    const unknown = await get('/widget/nope/recommendations');
    assert.equal(unknown.status, 404);
    assert.equal(errorOf(unknown.body).code, 'unknown_widget');
  });

  it('answers several widgets keyed by id, joined by "," or "-"', async () => {
    for (const joined of ['w-popular,w-recent', 'w-popular-w-recent']) {
      const res = await get(`/widget/multi/${joined}/recommendations/${profileA()}`);
      assert.equal(res.status, 200);
      assert.deepEqual(Object.keys(res.body), ['w-popular', 'w-recent']);
      assert.deepEqual(ids(res.body['w-recent']), ['sock-1', 'shoe-2', 'shoe-1']);
      assert.notEqual(res.body['w-popular'].id, res.body['w-recent'].id);
    }
  });

  it('issues ids that verify in click-on-reco; a made-up one is kept unverified', async () => {
    const { body } = await get('/widget/w-popular/recommendations');
    const tracker = `${server.url}/tracker/tenant-a-tracker`;
    const identified = await call(`${tracker}/identify`, { json: { profile: {} } });
    const click = (recommendationId: string) =>
      call(`${tracker}/activity`, { json: { activity: { profile: identified.body.profile.id, verb: 'click-on-reco', original_id: 'shoe-1', recommendationId } } });
    assert.equal((await click(body.id)).status, 200);
    assert.equal((await click('r_never-issued')).status, 200);
    const clicks = activities().history(TENANT, identified.body.profile.id, { verb: 'click-on-reco' });
    assert.deepEqual(new Map(clicks.map((a) => [a.recommendationId, a.attribution])), new Map([[body.id, 'verified'], ['r_never-issued', 'unverified']]));
  });

  it('new activities change the next response', async () => {
    const v = vars({ $productId: 'shoe-3' });
    assert.deepEqual(ids((await get(`/widget/w-bought-together/recommendations?variables=${v}`)).body).length, 1);
    const collect = `${server.url}/collect/tenant-a-tracker`;
    for (const product of ['shoe-3', 'sock-1']) {
      await call(collect, { json: { action: 'purchase', target: { product }, user: { sessionId: 'sNew' }, metadata: { orderId: 'o-new' } } });
    }
    const after = await get(`/widget/w-bought-together/recommendations?variables=${v}`);
    assert.deepEqual(ids(after.body), ['sock-1']);
    assert.deepEqual(strategiesOf(after.body), ['bought-together']);
  });

  it('e-mail links: the photo and redirect of one slot agree, clicks are recorded, empty slots degrade', async () => {
    const base = '/widget/w-mail/recommendations/crm/c-9';
    const photo = await get(`${base}/1/photo.png`, { redirect: 'manual' });
    assert.equal(photo.status, 302);
    assert.equal(photo.headers.get('location'), 'https://img.example/shoe-1.png');
    // Enough new views to move sock-1 to the top: the mail's list must not change under it.
    const { profile } = await activities().resolveProfile(TENANT, { sessionId: 'sMail' });
    await activities().recordActivities(TENANT, Array.from({ length: 30 }, () => ({ profileId: profile.id, source: 'tracker' as const, verb: 'view', type: 'product', itemId: 'sock-1', timestamp: clock.now() })));
    const redirect = await get(`${base}/1/redirect.html`, { redirect: 'manual' });
    assert.equal(redirect.status, 302);
    assert.equal(redirect.headers.get('location'), 'https://shop.example/shoe-1');
    const mailUser = activities().findProfile(TENANT, { datasource: 'crm', userId: 'c-9' })!;
    const [click] = activities().history(TENANT, mailUser.id, { verb: 'click-on-reco' });
    assert.equal(click!.itemId, 'shoe-1');
    assert.equal(click!.attribution, 'verified');
    const fresh = await get(`${base}/1/photo.png?nocache=1`, { redirect: 'manual' });
    assert.equal(fresh.headers.get('location'), 'https://img.example/sock-1.png');

    const empty = await get(`${base}/9/photo.png`, { redirect: 'manual' });
    assert.equal(empty.status, 200);
    assert.equal(empty.headers.get('content-type'), 'image/png');
    const fallback = await get(`${base}/9/redirect.html`, { redirect: 'manual' });
    assert.equal(fallback.status, 302);
    assert.equal(fallback.headers.get('location'), 'https://shop.example/');
  });

  it('e-mail links on an environment without a catalog: a placeholder image and a safe redirect', async () => {
    const photo = await get('/widget/tenant-b-popular/recommendations/crm/c-1/1/photo.png', { redirect: 'manual' });
    assert.equal(photo.status, 200);
    assert.equal(photo.headers.get('content-type'), 'image/png');
    const redirect = await get('/widget/tenant-b-popular/recommendations/crm/c-1/1/redirect.html', { redirect: 'manual' });
    assert.equal(redirect.status, 302);
    assert.equal(redirect.headers.get('location'), '/');
    const list = await get('/widget/tenant-b-popular/recommendations');
    assert.deepEqual(list.body.recommendations, []);
    assert.deepEqual(list.body.pagination, { total: 0 });
  });

  it('keeps tenants apart', async () => {
    const other = await get('/widget/tenant-b-popular/recommendations');
    assert.equal(other.status, 200);
    assert.equal(other.body.recommendations.length, 0);
  });
});
