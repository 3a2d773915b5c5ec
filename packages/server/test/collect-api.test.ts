/** The collection API over the real server: validation naming fields, batches, idempotency, CORS and beacons. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../src/platform/clock.js';
import { call, startTestServer, type TestServer } from './support/test-server.js';

/** The error body without its request id, which differs on every call. */
function errorOf(body: { error: Record<string, unknown> }): Record<string, unknown> {
  const { requestId, ...rest } = body.error;
  assert.equal(typeof requestId, 'string');
  return rest;
}

const view = (product: string, user: Record<string, unknown> = { sessionId: 's-1' }, extra: Record<string, unknown> = {}) => ({
  action: 'view',
  target: { product },
  user,
  ...extra,
});

describe('activity collection API', () => {
  let server: TestServer;
  let collect: string;
  const activities = () => server.server.deps.services.activities;
  before(async () => {
    server = await startTestServer({ clock: new ManualClock() });
    collect = `${server.url}/collect/tenant-a-tracker`;
  });
  after(() => server.cleanup());

  it('accepts one activity and answers {profiles: {}}', async () => {
    const res = await call(collect, {
      json: view('p-1', { sessionId: 'one', traits: { vip: true } }, { sourceId: 'search-1', metadata: { locale: 'fr-FR', colour: 'red' }, segments: ['web'], timestamp: '2026-11-21T11:00:00Z' }),
    });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { profiles: {} });
    const profile = activities().findProfile('tenant-a', { sessionId: 'one' });
    const [logged] = activities().history('tenant-a', profile!.id);
    assert.equal(logged!.itemId, 'p-1');
    assert.equal(logged!.verb, 'view');
    assert.equal(logged!.timestamp, Date.parse('2026-11-21T11:00:00Z'));
    assert.deepEqual(logged!.details, { metadata: { locale: 'fr-FR', colour: 'red' }, traits: { vip: true } });
  });

  it('keeps sends with a profile id it never issued on one profile', async () => {
    for (const product of ['stale-1', 'stale-2']) {
      assert.equal((await call(collect, { json: view(product, { profileId: 'p_stale-cookie' }) })).status, 200);
    }
    const profile = activities().findProfile('tenant-a', { sessionId: 'p_stale-cookie' });
    assert.deepEqual(activities().recentItems('tenant-a', profile!.id).map((i) => i.itemId), ['stale-2', 'stale-1']);
  });

  it('refuses an unknown tracker key with 404', async () => {
    const res = await call(`${server.url}/collect/nope`, { json: view('p-1') });
    assert.equal(res.status, 404);
    assert.deepEqual(errorOf(res.body), { status: 404, code: 'unknown_tracker_key', message: 'No tracker key "nope" is configured.', field: 'trackerKey' });
  });

  it('names every bad field of a single activity', async () => {
    const res = await call(collect, { json: { action: 'look', target: { product: 'a', page: '/b' }, user: { identities: 'nope' }, metadata: { price: 12.5 } } });
    assert.equal(res.status, 400);
    const error = errorOf(res.body);
    assert.equal(error.code, 'invalid_body');
    assert.equal(error.field, 'action');
    assert.deepEqual(
      (error.issues as Array<{ path: string }>).map((i) => i.path),
      ['action', 'target', 'user.identities', 'metadata.price'],
    );
    assert.match((error.issues as Array<{ message: string }>)[3]!.message, /integer in cents/);
  });

  it('refuses a whole batch naming each bad index and field, and stores none of it', async () => {
    const before = server.server.deps.services.recommendations.aggregates.popularity('tenant-a', { verbs: ['view'] }).length;
    const res = await call(collect, {
      json: [view('batch-ok'), view('batch-ok-2'), { action: 'view', target: {}, user: { sessionId: 's' } }, view('x', { sessionId: 's' }, { timestamp: 'yesterday' }), view('y', { identities: { email: '' } })],
    });
    assert.equal(res.status, 400);
    assert.deepEqual(
      (errorOf(res.body).issues as Array<{ path: string }>).map((i) => i.path),
      ['[2].target', '[3].timestamp', '[4].user.identities.email'],
    );
    assert.equal(server.server.deps.services.recommendations.aggregates.popularity('tenant-a', { verbs: ['view'] }).length, before);
  });

  it('bounds identity names in count and length, naming the field', async () => {
    const many = Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`name-${i}`, 'v']));
    const tooMany = await call(collect, { json: [view('p-1'), view('p-1', { identities: many })] });
    assert.equal(tooMany.status, 400);
    assert.deepEqual(errorOf(tooMany.body).issues, [{ path: '[1].user.identities', message: 'at most 16 identities' }]);
    const longName = await call(collect, { json: view('p-1', { identities: { ['n'.repeat(65)]: 'v' } }) });
    assert.equal(longName.status, 400);
    assert.match(errorOf(longName.body).field as string, /^user\.identities/);
    const longValue = await call(collect, { json: view('p-1', { identities: { email: 'v'.repeat(257) } }) });
    assert.equal(longValue.status, 400);
    assert.equal(errorOf(longValue.body).field, 'user.identities.email');
  });

  it('refuses a batch over 500 activities and a body over 256 KB', async () => {
    const tooMany = await call(collect, { json: Array.from({ length: 501 }, () => view('p')) });
    assert.equal(tooMany.status, 400);
    assert.equal(errorOf(tooMany.body).field, '(body)');
    const tooBig = await call(collect, { json: view('p', { sessionId: 's' }, { metadata: { note: 'x'.repeat(300 * 1024) } }) });
    assert.equal(tooBig.status, 413);
    assert.equal(errorOf(tooBig.body).code, 'body_too_large');
  });

  it('counts a retried activity once, by activity id or by Idempotency-Key', async () => {
    const send = (body: unknown, headers: Record<string, string> = {}) => call(collect, { json: body, headers });
    const withId = view('idem-1', { sessionId: 'idem' }, { id: 'evt-1' });
    assert.equal((await send(withId)).status, 200);
    assert.equal((await send(withId)).status, 200);
    const batch = [view('idem-2', { sessionId: 'idem' }), view('idem-3', { sessionId: 'idem' })];
    assert.equal((await send(batch, { 'idempotency-key': 'req-1' })).status, 200);
    assert.equal((await send(batch, { 'idempotency-key': 'req-1' })).status, 200);
    const counts = ['idem-1', 'idem-2', 'idem-3'].map((item) => popularityCount(item));
    assert.deepEqual(counts, [1, 1, 1]);
  });

  function popularityCount(itemId: string): number {
    return server.server.deps.services.recommendations.aggregates.popularity('tenant-a', { verbs: ['view'], limit: 1000 }).find((p) => p.itemId === itemId)?.score ?? 0;
  }

  it('answers CORS preflights and takes a sendBeacon text/plain body', async () => {
    const preflight = await fetch(collect, {
      method: 'OPTIONS',
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
    const beacon = await call(collect, {
      method: 'POST',
      headers: { 'content-type': 'text/plain;charset=UTF-8', origin: 'https://shop.example' },
      body: JSON.stringify(view('beacon-1')),
    });
    assert.equal(beacon.status, 200);
    assert.equal(beacon.headers.get('access-control-allow-origin'), '*');
    assert.equal(popularityCount('beacon-1'), 1);
  });

  it('records a search-results page view for autocomplete', async () => {
    const res = await call(collect, { json: { action: 'view', target: { page: '/search' }, user: { sessionId: 'q' }, metadata: { query: 'Red Shoes' } } });
    assert.equal(res.status, 200);
    server.server.deps.services.queryStatistics.recordSearch('tenant-a', 'red shirt', 4);
    // Autocomplete counts results-page views and the distinct shoppers behind them; a search whose
    // results page nobody opened is no candidate, and one shopper is below the API's default of two.
    assert.deepEqual(server.server.deps.services.queryStatistics.suggestQueries('tenant-a', 'red'), [
      { query: 'red shoes', count: 1, searches: 0, shoppers: 1, resultCount: undefined, spelling: undefined },
    ]);
    assert.deepEqual(server.server.deps.services.queryStatistics.suggestQueries('tenant-a', 'red', { minShoppers: 2 }), []);
  });
});
