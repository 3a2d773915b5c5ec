/** What recommendations must keep across a real restart of the server on the same data directory. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ManualClock } from '../src/platform/clock.js';
import { call, makeDataDir, startTestServer, type TestServer } from './support/test-server.js';
import { loadCatalog, recommendationConfig, TENANT } from './support/recommendation-fixture.js';

describe('recommendations across a restart', () => {
  const clock = new ManualClock();
  let dataDir: string;
  let server: TestServer;
  const get = (path: string, init: RequestInit = {}) => call(`${server.url}${path}`, init);
  const views = (itemId: string, count: number, sessionId: string) =>
    server.server.deps.services.activities.resolveProfile(TENANT, { sessionId }).then(({ profile }) =>
      server.server.deps.services.activities.recordActivities(
        TENANT,
        Array.from({ length: count }, () => ({ profileId: profile.id, source: 'tracker' as const, verb: 'view', type: 'product', itemId, timestamp: clock.now() })),
      ),
    );
  const restart = async () => {
    await server.close();
    server = await startTestServer({ config: recommendationConfig(), clock, dataDir });
  };

  before(async () => {
    dataDir = await makeDataDir();
    server = await startTestServer({ config: recommendationConfig(), clock, dataDir });
    await loadCatalog(server.server);
    await views('shoe-1', 3, 's1');
  });
  after(async () => {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('an e-mail keeps its item between the photo and the click, across a restart, until the list expires', async () => {
    const base = '/widget/w-mail/recommendations/crm/c-9';
    const photo = await get(`${base}/1/photo.png`, { redirect: 'manual' });
    assert.equal(photo.headers.get('location'), 'https://img.example/shoe-1.png');
    await views('sock-1', 30, 's2');
    await restart();

    // A fresh list now starts with sock-1; the mail's list must not.
    const fresh = await get('/widget/w-mail/recommendations');
    assert.equal(fresh.body.recommendations[0].product._id.original_id, 'sock-1');
    const redirect = await get(`${base}/1/redirect.html`, { redirect: 'manual' });
    assert.equal(redirect.status, 302);
    assert.equal(redirect.headers.get('location'), 'https://shop.example/shoe-1');
    const activities = server.server.deps.services.activities;
    const mailUser = activities.findProfile(TENANT, { datasource: 'crm', userId: 'c-9' })!;
    const [click] = activities.history(TENANT, mailUser.id, { verb: 'click-on-reco' });
    assert.equal(click!.itemId, 'shoe-1');

    clock.advance(61 * 60_000);
    const later = await get(`${base}/1/photo.png`, { redirect: 'manual' });
    assert.equal(later.headers.get('location'), 'https://img.example/sock-1.png');
  });

  it('a list stored after others expired prunes them from its document', async () => {
    const dir = join(dataDir, 'documents', 'tenants', TENANT, 'recommendation-email-lists');
    for (let u = 0; u < 20; u++) await get(`/widget/w-mail/recommendations/crm/old-${u}/1/photo.png`, { redirect: 'manual' });
    clock.advance(61 * 60_000);
    for (let u = 0; u < 20; u++) await get(`/widget/w-mail/recommendations/crm/new-${u}/1/photo.png`, { redirect: 'manual' });
    await server.server.deps.store.flush();
    let lists = 0;
    let checked = 0;
    for (const file of await readdir(dir)) {
      const { lists: stored } = JSON.parse(await readFile(join(dir, file), 'utf8')) as { lists: Record<string, { expiresAt: number }> };
      const entries = Object.entries(stored);
      lists += entries.length;
      // Every shard written after the expiry holds only live lists; one never written since may keep old ones.
      if (entries.some(([key]) => key.endsWith(':crm:new-0') || /:crm:new-\d+$/.test(key))) {
        checked++;
        assert.deepEqual(entries.filter(([, e]) => e.expiresAt <= clock.now()).map(([key]) => key), [], file);
      }
    }
    assert.ok(lists >= 20, String(lists));
    assert.ok(checked > 0);
    assert.ok(lists < 40, `expired lists pruned: ${lists} left`);
  });

  it('recommendation ids issued before a restart still verify after it, and nothing is logged per response', async () => {
    const logLines = async () => {
      const dir = join(dataDir, 'activities', TENANT);
      let count = 0;
      for (const file of await readdir(dir)) count += (await readFile(join(dir, file), 'utf8')).split('\n').filter((line) => line !== '').length;
      return count;
    };
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) ids.add((await get('/widget/w-popular/recommendations')).body.id);
    assert.equal(ids.size, 20);
    await restart();
    const before = await logLines();
    for (let i = 0; i < 20; i++) await get('/widget/w-popular/recommendations');
    assert.equal(await logLines(), before);
    const tracker = `${server.url}/tracker/tenant-a-tracker`;
    const identified = await call(`${tracker}/identify`, { json: { profile: {} } });
    const click = (recommendationId: string) =>
      call(`${tracker}/activity`, { json: { activity: { profile: identified.body.profile.id, verb: 'click-on-reco', original_id: 'shoe-1', recommendationId } } });
    const [first] = ids;
    assert.equal((await click(first!)).status, 200);
    assert.equal((await click('r_never-issued')).status, 200);
    const clicks = server.server.deps.services.activities.history(TENANT, identified.body.profile.id, { verb: 'click-on-reco' });
    assert.deepEqual(new Map(clicks.map((a) => [a.recommendationId, a.attribution])), new Map([[first, 'verified'], ['r_never-issued', 'unverified']]));
  });
});
