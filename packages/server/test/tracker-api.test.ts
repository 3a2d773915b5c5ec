/** The older tracker over the real server: identify, activity by verb, and the paginated activity history. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../src/platform/clock.js';
import { call, startTestServer, type TestServer } from './support/test-server.js';

function errorOf(body: { error: Record<string, unknown> }): Record<string, unknown> {
  const { requestId, ...rest } = body.error;
  assert.equal(typeof requestId, 'string');
  return rest;
}

describe('older tracker API', () => {
  let server: TestServer;
  let base: string;
  const clock = new ManualClock();
  const identify = (profile: unknown) => call(`${base}/identify`, { json: { profile } });
  const track = (activity: unknown, headers: Record<string, string> = {}) => call(`${base}/activity`, { json: { activity }, headers });
  const activities = () => server.server.deps.services.activities;

  before(async () => {
    server = await startTestServer({ clock });
    base = `${server.url}/tracker/tenant-a-tracker`;
  });
  after(() => server.cleanup());

  it('creates a profile for an empty identify and re-identifies it by id', async () => {
    const first = await identify({});
    assert.equal(first.status, 200);
    assert.match(first.body.profile.id, /^p_[A-Za-z0-9_-]+$/);
    assert.deepEqual(first.body, { profile: { id: first.body.profile.id, datasources: [], infos: {}, segments: {} }, created: true });
    const again = await identify({ id: first.body.profile.id, infos: { plan: 'gold' }, segments: { tier: 'a' } });
    assert.deepEqual(again.body, { profile: { id: first.body.profile.id, datasources: [], infos: { plan: 'gold' }, segments: { tier: 'a' } }, created: false });
  });

  it('starts a fresh profile for an id it never issued', async () => {
    const res = await identify({ id: 'p_stale-cookie' });
    assert.equal(res.status, 200);
    assert.equal(res.body.created, true);
    assert.notEqual(res.body.profile.id, 'p_stale-cookie');
  });

  it('refuses datasources the tenant does not configure', async () => {
    const res = await identify({ datasources: [{ id: 'crm', original_id: '1' }, { id: 'erp', original_id: '2' }] });
    assert.equal(res.status, 400);
    assert.deepEqual(errorOf(res.body), {
      status: 400,
      code: 'invalid_body',
      message: 'profile.datasources[1].id: unknown datasource "erp"; expected one of "crm"',
      field: 'profile.datasources[1].id',
      issues: [{ path: 'profile.datasources[1].id', message: 'unknown datasource "erp"; expected one of "crm"' }],
    });
  });

  it('records one activity or an array and answers the stored activities', async () => {
    const { body } = await identify({ datasources: [{ id: 'crm', original_id: 'shape-1' }] });
    const profileId = body.profile.id as string;
    const one = await track({ profile: profileId, verb: 'view', type: 'product', original_id: 'sku-1', price: 1999, segments: { device: 'mobile' } });
    assert.equal(one.status, 200);
    assert.deepEqual(one.body.activities, [
      {
        id: one.body.activities[0].id,
        verb: 'view',
        type: 'product',
        originalId: 'sku-1',
        profileId,
        datasourceId: 'crm',
        segments: { device: 'mobile' },
        tenant: 'tenant-a',
        price: 1999,
        quantity: null,
        timestamp: clock.now(),
      },
    ]);
    const many = await track([
      { profile: profileId, verb: 'like', original_id: 'sku-2' },
      { profile: profileId, verb: 'purchase', original_id: 'sku-3', quantity: 2 },
    ]);
    assert.deepEqual(many.body.activities.map((a: { verb: string; quantity: number | null }) => [a.verb, a.quantity]), [['like', null], ['purchase', 2]]);
  });

  it('refuses unknown verbs naming the accepted ones, and unknown profiles with 404', async () => {
    const { body } = await identify({});
    const bad = await track([{ profile: body.profile.id, verb: 'view', original_id: 'a' }, { profile: body.profile.id, verb: 'wishlist', original_id: 'a' }]);
    assert.equal(bad.status, 400);
    const error = errorOf(bad.body);
    assert.equal(error.field, 'activity[1].verb');
    assert.match(error.message as string, /^activity\[1\]\.verb: unknown verb "wishlist"; expected one of "view", "add-to-cart", "buy"/);
    const missing = await track({ profile: 'p_nobody', verb: 'view', original_id: 'a' });
    assert.equal(missing.status, 404);
    assert.deepEqual(errorOf(missing.body), { status: 404, code: 'not_found', message: 'No profile "p_nobody"; call identify first.', field: 'activity.profile' });
    const noActivity = await call(`${base}/activity`, { json: { activities: [] } });
    assert.equal(noActivity.status, 400);
    assert.equal(errorOf(noActivity.body).field, 'activity');
  });

  it('accepts a custom verb that has a weight in the tenant configuration', async () => {
    const custom = await startTestServer({
      config: { tenants: [{ id: 'tenant-c', verbWeights: { view: 1, wishlist: 5 }, environments: [{ id: 'prod', trackerKeys: ['c-key'] }] }] },
    });
    try {
      const { body } = await call(`${custom.url}/tracker/c-key/identify`, { json: { profile: {} } });
      const res = await call(`${custom.url}/tracker/c-key/activity`, { json: { activity: { profile: body.profile.id, verb: 'wishlist', original_id: 'x' } } });
      assert.equal(res.status, 200);
      assert.deepEqual(custom.server.deps.services.recommendations.aggregates.popularity('tenant-c'), [{ itemId: 'x', score: 5 }]);
    } finally {
      await custom.cleanup();
    }
  });

  it('takes click-on-reco only with a recommendation id the recommendation API issued', async () => {
    const { body } = await identify({});
    const click = (recommendationId?: string) => track({ profile: body.profile.id, verb: 'click-on-reco', original_id: 'sku-9', recommendationId });
    const without = await click();
    assert.equal(without.status, 400);
    assert.deepEqual(errorOf(without.body).issues, [{ path: 'activity.recommendationId', message: 'click-on-reco needs the recommendationId the recommendation API returned' }]);
    const unknown = await click('reco-1');
    assert.equal(unknown.status, 400);
    assert.deepEqual(errorOf(unknown.body).issues, [{ path: 'activity.recommendationId', message: 'no recommendation "reco-1" was issued for this tenant' }]);
    const issued = (await call(`${server.url}/widget/tenant-a-popular/recommendations/${body.profile.id}`)).body.id as string;
    assert.equal((await click(issued)).status, 200);
    // Another tenant's recommendation is not this tenant's. Each tenant numbers its own ids, so only an id
    // written to tenant-b's ledger alone (not one its widget hands out) shows it.
    await activities().logRecommendation('tenant-b', { id: 'reco-b', info: {} });
    assert.equal((await click('reco-b')).status, 400);
  });

  it('lists a profile activities newest first, filtered and paginated JSON:API style', async () => {
    const { body } = await identify({});
    const profileId = body.profile.id as string;
    for (let i = 1; i <= 5; i++) {
      clock.advance(1000);
      await track({ profile: profileId, verb: i % 2 === 0 ? 'like' : 'view', original_id: `h-${i}` });
    }
    const path = `/tracker/tenant-a-tracker/profiles/${profileId}/activities`;
    const page = await call(`${server.url}${path}?filter[verb]=view&page[number]=2&page[size]=2`);
    assert.equal(page.status, 200);
    assert.deepEqual(page.body.data.map((a: { originalId: string }) => a.originalId), ['h-1']);
    assert.deepEqual(page.body.meta, { total: 3, pageNumber: 2, pageSize: 2, totalPages: 2 });
    const link = (n: number) => `${path}?filter%5Bverb%5D=view&page%5Bnumber%5D=${n}&page%5Bsize%5D=2`;
    assert.deepEqual(page.body.links, { self: link(2), first: link(1), prev: link(1), next: null, last: link(2) });
    const all = await call(`${server.url}${path}`);
    assert.deepEqual(all.body.data.map((a: { originalId: string }) => a.originalId), ['h-5', 'h-4', 'h-3', 'h-2', 'h-1']);
    const byType = await call(`${server.url}${path}?filter[type]=page`);
    assert.equal(byType.body.meta.total, 0);
  });

  it('answers 404 for an unknown profile and 400 for a bad page size', async () => {
    const missing = await call(`${base}/profiles/p_nobody/activities`);
    assert.equal(missing.status, 404);
    assert.deepEqual(errorOf(missing.body), { status: 404, code: 'not_found', message: 'No profile "p_nobody".', field: 'profileId' });
    const { body } = await identify({});
    const bad = await call(`${base}/profiles/${body.profile.id}/activities?page[size]=500`);
    assert.equal(bad.status, 400);
    assert.equal(errorOf(bad.body).code, 'invalid_parameter');
    assert.equal(errorOf(bad.body).field, 'query.page[size]');
  });
});
