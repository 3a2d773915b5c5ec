/** One profile behind every identity, and the aggregates recommendations read, live and rebuilt after a restart. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, rm } from 'node:fs/promises';
import { ManualClock } from '../src/platform/clock.js';
import type { Services } from '../src/apis/services.js';
import { call, makeDataDir, startTestServer, testConfig } from './support/test-server.js';

const at = (time: string) => `2026-11-21T${time}:00Z`;

describe('one profile behind every identity', () => {
  it('follows a shopper across tracker profile ids, datasources and collect identities', async () => {
    const server = await startTestServer({ clock: new ManualClock() });
    const tracker = `${server.url}/tracker/tenant-a-tracker`;
    const collect = `${server.url}/collect/tenant-a-tracker`;
    const service = server.server.deps.services.activities;
    try {
      const identify = async (profile: unknown) => (await call(`${tracker}/identify`, { json: { profile } })).body.profile.id as string;
      const view = (profile: string, item: string) => call(`${tracker}/activity`, { json: { activity: { profile, verb: 'view', original_id: item } } });

      // Desktop: anonymous, then logged in through the CRM datasource. The browser keeps its own id.
      const desktop = await identify({});
      await view(desktop, 'd-1');
      assert.equal(await identify({ id: desktop, datasources: [{ id: 'crm', original_id: 'u-1' }] }), desktop);
      // Phone: a second anonymous profile, joined to the same person when the same CRM id logs in.
      const phone = await identify({});
      await view(phone, 'm-1');
      assert.equal(await identify({ id: phone, datasources: [{ id: 'crm', original_id: 'u-1' }] }), phone);
      const person = service.findProfile('tenant-a', { datasource: 'crm', userId: 'u-1' })!.id;
      assert.notEqual(person, desktop, 'the person is a profile of its own, not the first browser that claimed it');
      assert.notEqual(person, phone);
      // Each browser's id shows what was sent with it; the person's other devices stay out of it.
      const historyOf = async (id: string) =>
        (await call(`${tracker}/profiles/${id}/activities`)).body.data.map((a: { originalId: string; profileId: string }) => [a.originalId, a.profileId]);
      assert.deepEqual(await historyOf(phone), [['m-1', phone]]);
      assert.deepEqual(await historyOf(desktop), [['d-1', desktop]]);

      // Collect: the storefront links its customer id to the same person, then an anonymous session joins it.
      await call(collect, { json: { action: 'view', target: { product: 'c-1' }, user: { profileId: desktop, identities: { 'customer-id': 'cust-1' } } } });
      await call(collect, { json: { action: 'view', target: { product: 'anon-1' }, user: { sessionId: 'tab-9' } } });
      const anonymous = service.findProfile('tenant-a', { sessionId: 'tab-9' })!.id;
      assert.notEqual(service.findProfile('tenant-a', { profileId: anonymous })!.id, person);
      await call(collect, { json: { action: 'add-to-cart', target: { product: 'c-2' }, user: { sessionId: 'tab-9', identities: { 'customer-id': 'cust-1' } } } });

      for (const ref of [{ profileId: desktop }, { profileId: phone }, { profileId: anonymous }, { repository: 'customer-id', userId: 'cust-1' }, { datasource: 'crm', userId: 'u-1' }, { sessionId: 'tab-9' }]) {
        assert.equal(service.findProfile('tenant-a', ref)?.id, person, JSON.stringify(ref));
      }
      // Recommendations see the whole person, from any of its ids.
      assert.deepEqual(service.recentItems('tenant-a', person).map((i) => i.itemId), ['c-2', 'anon-1', 'c-1', 'm-1', 'd-1']);
      assert.deepEqual(service.recentItems('tenant-a', phone).map((i) => i.itemId), ['c-2', 'anon-1', 'c-1', 'm-1', 'd-1']);
      assert.deepEqual(await historyOf(desktop), [['c-1', desktop], ['d-1', desktop]]);
      // Tenants never share profiles.
      assert.equal(service.findProfile('tenant-b', { datasource: 'crm', userId: 'u-1' }), undefined);
    } finally {
      await server.cleanup();
    }
  });

  it('never hands a CRM id\'s profile, details or history to whoever claims it (issue 16, item 10)', async () => {
    const server = await startTestServer({ clock: new ManualClock() });
    const tracker = `${server.url}/tracker/tenant-a-tracker`;
    const collect = `${server.url}/collect/tenant-a-tracker`;
    try {
      const identify = async (profile: unknown) => (await call(`${tracker}/identify`, { json: { profile } })).body;
      const historyOf = async (id: string) => (await call(`${tracker}/profiles/${id}/activities`)).body.data.map((a: { originalId: string }) => a.originalId);
      // The shopper logs in on their own browser with private details, and browses.
      const own = (await identify({})).profile.id as string;
      await identify({ id: own, datasources: [{ id: 'crm', original_id: '12464' }], infos: { email: 'jane@example.com' } });
      await call(`${tracker}/activity`, { json: { activity: { profile: own, verb: 'view', original_id: 'private-1' } } });
      await call(collect, { json: { action: 'purchase', target: { product: 'private-2' }, user: { identities: { 'customer-id': 'c-12464' }, profileId: own }, metadata: { orderId: 'o-1' } } });

      // Someone else sends the same CRM id, with no id or with their own.
      for (const claim of [{ datasources: [{ id: 'crm', original_id: '12464' }] }, { id: (await identify({})).profile.id, datasources: [{ id: 'crm', original_id: '12464' }] }]) {
        const answer = await identify(claim);
        assert.notEqual(answer.profile.id, own);
        assert.deepEqual(answer.profile.infos, {}, 'the person\'s infos are not echoed');
        assert.deepEqual(await historyOf(answer.profile.id), []);
        // Identifying again by the id it got shows no more of the person either.
        const again = await identify({ id: answer.profile.id });
        assert.deepEqual(again.profile.infos, {});
        assert.deepEqual(again.profile.datasources, []);
        // What they send under their id is theirs to see; an activity's answer names the id it was sent with.
        const sent = await call(`${tracker}/activity`, { json: { activity: { profile: answer.profile.id, verb: 'view', original_id: 'theirs' } } });
        assert.equal(sent.body.activities[0].profileId, answer.profile.id);
        assert.deepEqual(await historyOf(answer.profile.id), ['theirs']);
      }

      // Claiming a CRM id first does not open that shopper's later activity either.
      const early = (await identify({ datasources: [{ id: 'crm', original_id: '555' }] })).profile.id as string;
      const victim = (await identify({})).profile.id as string;
      await identify({ id: victim, datasources: [{ id: 'crm', original_id: '555' }] });
      await call(`${tracker}/activity`, { json: { activity: { profile: victim, verb: 'view', original_id: 'victim-1' } } });
      await call(collect, { json: { action: 'view', target: { product: 'victim-2' }, user: { identities: { 'customer-id': 'c-555' } } } });
      await identify({ id: victim, datasources: [{ id: 'crm', original_id: '555' }] });
      assert.deepEqual(await historyOf(early), []);
      // The shopper's own browser still sees its own history.
      assert.deepEqual(await historyOf(own), ['private-2', 'private-1']);
      assert.deepEqual(await historyOf(victim), ['victim-1']);
    } finally {
      await server.cleanup();
    }
  });
});

describe('activity aggregates', () => {
  /** A small hand-built set: two visits of one shopper, one of another, and one order. */
  async function sendSet(collect: string): Promise<void> {
    const send = (action: string, product: string, sessionId: string, time: string, metadata?: unknown) =>
      call(collect, { json: { action, target: { product }, user: { sessionId }, timestamp: at(time), ...(metadata ? { metadata } : {}) } });
    await send('view', 'p1', 's1', '08:00');
    await send('view', 'p2', 's1', '08:05');
    await send('view', 'p3', 's1', '08:40'); // 35 minutes later: a new visit
    await send('view', 'p1', 's2', '09:00');
    await send('view', 'p2', 's2', '09:10');
    await send('purchase', 'p1', 's2', '09:20', { orderId: 'o-1', price: 1000, quantity: 1, currency: 'EUR' });
    await send('purchase', 'p4', 's2', '09:20', { orderId: 'o-1', price: 500, quantity: 2, currency: 'EUR' });
  }

  function snapshot({ activities: service, recommendations: { aggregates } }: Services) {
    return {
      popular: aggregates.popularity('tenant-a', { verbs: ['view', 'purchase'] }),
      viewsOnly: aggregates.popularity('tenant-a', { verbs: ['view'] }),
      visitP1: aggregates.coOccurring('tenant-a', 'p1', 'visit'),
      visitP3: aggregates.coOccurring('tenant-a', 'p3', 'visit'),
      orderP1: aggregates.coOccurring('tenant-a', 'p1', 'order'),
      recentS2: service.recentItems('tenant-a', service.findProfile('tenant-a', { sessionId: 's2' })!.id),
      otherTenant: aggregates.popularity('tenant-b'),
    };
  }

  it('counts popularity by weighted verb and co-occurrence by visit and order, and rebuilds the same after a restart', async () => {
    const dataDir = await makeDataDir();
    const clock = new ManualClock();
    const first = await startTestServer({ clock, dataDir });
    await sendSet(`${first.url}/collect/tenant-a-tracker`);
    const live = snapshot(first.server.deps.services);
    assert.deepEqual(live.popular, [
      { itemId: 'p1', score: 10 },
      { itemId: 'p4', score: 8 },
      { itemId: 'p2', score: 2 },
      { itemId: 'p3', score: 1 },
    ]);
    assert.deepEqual(live.viewsOnly.map((p) => p.itemId), ['p1', 'p2', 'p3']);
    assert.deepEqual(live.visitP1, [
      { itemId: 'p2', count: 2, score: 2 },
      { itemId: 'p4', count: 1, score: 1 },
    ]);
    assert.deepEqual(live.visitP3, []);
    // Orders are recency-weighted: a pair met in the newest order counts 1.
    assert.deepEqual(live.orderP1, [{ itemId: 'p4', count: 1, score: 1 }]);
    assert.deepEqual(live.recentS2.map((i) => [i.itemId, i.verb]), [
      ['p4', 'purchase'],
      ['p1', 'purchase'],
      ['p2', 'view'],
    ]);
    assert.deepEqual(live.otherTenant, []);
    await first.close();

    const second = await startTestServer({ clock, dataDir });
    try {
      assert.deepEqual(snapshot(second.server.deps.services), live);
      // Retention is counted in days back from now: ten days on, a one-week window is empty.
      clock.advance(10 * 24 * 60 * 60 * 1000);
      assert.deepEqual(second.server.deps.services.recommendations.aggregates.popularity('tenant-a', { sinceDays: 7 }), []);
    } finally {
      await second.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('remembers idempotency keys across a restart', async () => {
    const dataDir = await makeDataDir();
    const first = await startTestServer({ dataDir });
    const activity = { id: 'retry-me', action: 'view', target: { product: 'r-1' }, user: { sessionId: 'r' } };
    await call(`${first.url}/collect/tenant-a-tracker`, { json: activity });
    await first.close();
    const second = await startTestServer({ dataDir });
    try {
      await call(`${second.url}/collect/tenant-a-tracker`, { json: activity });
      assert.deepEqual(second.server.deps.services.recommendations.aggregates.popularity('tenant-a'), [{ itemId: 'r-1', score: 1 }]);
    } finally {
      await second.cleanup();
    }
  });

  it('drops segments older than the retention at start', async () => {
    const dataDir = await makeDataDir();
    const clock = new ManualClock();
    const config = testConfig({ activityLog: { retentionDays: 1, segmentBytes: 1024 } });
    const first = await startTestServer({ clock, dataDir, config });
    for (let i = 0; i < 10; i++) {
      // Each activity fills most of a 1 KB segment, so the ten spread over several.
      await call(`${first.url}/collect/tenant-a-tracker`, { json: { action: 'view', target: { product: `old-${i}` }, user: { sessionId: 'ret' }, metadata: { pad: 'x'.repeat(200) } } });
    }
    await first.close();
    clock.advance(2 * 24 * 60 * 60 * 1000);
    const second = await startTestServer({ clock, dataDir, config });
    try {
      // Only the segment still being written survives: it is never dropped, even when old.
      assert.equal((await readdir(`${dataDir}/activities/tenant-a`)).length, 1);
      assert.deepEqual(second.server.deps.services.recommendations.aggregates.popularity('tenant-a', { sinceDays: 365 }), []);
    } finally {
      await second.cleanup();
    }
  });

  it('drops segments past the retention while running, never the one being written', async () => {
    const clock = new ManualClock();
    const server = await startTestServer({ clock, config: testConfig({ activityLog: { retentionDays: 1, segmentBytes: 1024 } }) });
    try {
      const send = (product: string) =>
        call(`${server.url}/collect/tenant-a-tracker`, { json: { action: 'view', target: { product }, user: { sessionId: 'run' }, metadata: { pad: 'x'.repeat(200) } } });
      for (let i = 0; i < 6; i++) await send(`early-${i}`);
      const dir = `${server.dataDir}/activities/tenant-a`;
      const early = (await readdir(dir)).filter((name) => name.endsWith('.jsonl')).sort();
      assert.ok(early.length > 2);
      assert.deepEqual(await server.server.deps.services.activities.applyRetention(), []);
      clock.advance(2 * 24 * 60 * 60 * 1000);
      await send('late');
      const dropped = await server.server.deps.services.activities.applyRetention();
      // Only the segment holding the late activity is left, whether it went to the last early segment or a new one.
      const left = (await readdir(dir)).filter((name) => name.endsWith('.jsonl')).sort();
      assert.equal(left.length, 1);
      assert.deepEqual(dropped, early.filter((name) => name !== left[0]));
    } finally {
      await server.cleanup();
    }
  });
});
