/**
 * Activity snapshots over the real server and real files: a restart from a snapshot answers exactly
 * as a full replay of the log does (recommendations, histories, autocomplete, analytics, through
 * HTTP); a torn, other-version or stale snapshot falls back to the whole log; kill -9 after a snapshot
 * loses none of the activities acknowledged after it; an erasure leaves no snapshot holding the person.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { ManualClock } from '../src/platform/clock.js';
import { adminConfig, adminToken } from './support/admin-fixture.js';
import { loadCatalog } from './support/recommendation-fixture.js';
import { call, makeDataDir, startTestServer, testConfig, type TestServer } from './support/test-server.js';

const CHILD = fileURLToPath(new URL('./support/tracking-child.ts', import.meta.url));
const TENANT = 'tenant-a';
const snapshotFile = (dataDir: string) => join(dataDir, 'snapshots', TENANT, 'activities.snapshot.gz');
const exists = (file: string) => stat(file).then(() => true, () => false);

async function withSnapshots(everyRecords = 1_000_000): Promise<Record<string, unknown>> {
  return { ...(await adminConfig()), activityLog: { snapshots: { everyRecords } } };
}

/** A few shoppers' visits, orders, searches and widget clicks, through the collection API. */
async function shop(server: TestServer, shoppers: readonly string[]): Promise<void> {
  const collect = async (sessionId: string, activity: Record<string, unknown>) => {
    const res = await call(`${server.url}/collect/tenant-a-tracker`, { json: { user: { sessionId }, ...activity } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  };
  for (const [n, sessionId] of shoppers.entries()) {
    assert.equal((await call(`${server.url}/search`, { json: { token: 'tenant-a-search', query: 'running' } })).status, 200);
    await collect(sessionId, { action: 'view', target: { page: '/search' }, sourceId: 's', metadata: { query: n % 2 === 0 ? 'running shoes' : 'running socks' } });
    const answer = (await call(`${server.url}/widget/w-popular/recommendations`)).body.id as string;
    await collect(sessionId, { action: 'view', target: { page: '/' }, sourceId: answer, metadata: { widgetId: 'w-popular' } });
    await collect(sessionId, { action: 'click', target: { product: 'shoe-1' }, sourceId: answer });
    // One click naming an answer never issued: counted apart, and the same after a restart either way.
    if (n === 0) await collect(sessionId, { action: 'click', target: { product: 'shoe-1' }, sourceId: `answer-${n}`, metadata: { widgetId: 'w-popular' } });
    await collect(sessionId, { action: 'click', target: { product: n % 2 === 0 ? 'shoe-2' : 'sock-1' }, metadata: { query: 'running' } });
    await collect(sessionId, { action: 'add-to-cart', target: { product: 'shoe-1' } });
    await collect(sessionId, { action: 'purchase', target: { product: 'shoe-1' }, metadata: { price: 9000, orderId: `o-${sessionId}` } });
    await collect(sessionId, { action: 'purchase', target: { product: n % 3 === 0 ? 'bag-1' : 'sock-2' }, metadata: { price: 1000, orderId: `o-${sessionId}` } });
  }
}

/** What shoppers and merchandisers see, through HTTP. */
async function answers(server: TestServer, clock: ManualClock, shoppers: readonly string[]): Promise<unknown> {
  const profileOf = (sessionId: string) => server.server.deps.services.activities.findProfile(TENANT, { sessionId })!.id;
  const widget = async (id: string, sessionId: string) => {
    const res = await call(`${server.url}/widget/${id}/recommendations/${profileOf(sessionId)}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return (res.body.recommendations as Array<{ product: { _id: { original_id: string } } }>).map((r) => r.product._id.original_id);
  };
  const out: Record<string, unknown> = {};
  for (const sessionId of shoppers.slice(0, 3)) {
    for (const id of ['w-popular', 'w-top-sellers', 'w-personalized', 'w-recent', 'w-also-viewed', 'w-bought-together']) out[`${id}/${sessionId}`] = await widget(id, sessionId);
    const history = await call(`${server.url}/tracker/tenant-a-tracker/profiles/${profileOf(sessionId)}/activities`);
    assert.equal(history.status, 200);
    assert.ok(history.body.data.length > 0);
    out[`history/${sessionId}`] = history.body;
  }
  // The metadata holds a fresh request id and time.
  const autocomplete = (await call(`${server.url}/search/autocomplete`, { json: { token: 'tenant-a-search', query: 'run' } })).body;
  assert.ok(autocomplete.suggestions.length > 0);
  out.autocomplete = autocomplete.suggestions;
  const headers = { authorization: `Bearer ${await adminToken(server, clock.now(), 'client-a')}` };
  out.widgetAnalytics = (await call(`${server.url}/admin/analytics?days=7&environment=prod`, { headers })).body;
  out.queryAnalytics = (await call(`${server.url}/admin/analytics/queries?environment=prod`, { headers })).body;
  return out;
}

const SHOPPERS = ['ann', 'bob', 'cy', 'dee', 'eve'];

describe('activity snapshots', () => {
  it('a restart from the shutdown snapshot answers as before it and as a full replay of the log', { timeout: 120_000 }, async () => {
    const dataDir = await makeDataDir();
    const clock = new ManualClock();
    const config = await withSnapshots();
    let server = await startTestServer({ config, clock, dataDir });
    try {
      await loadCatalog(server.server);
      await shop(server, SHOPPERS);
      const before = await answers(server, clock, SHOPPERS);
      assert.equal(server.server.deps.services.activities.rebuildStats(TENANT)?.snapshotTakenAt, undefined, 'the first start had no snapshot');
      await server.close();
      assert.ok(await exists(snapshotFile(dataDir)), 'a clean stop writes a snapshot');

      server = await startTestServer({ config, clock, dataDir });
      const restored = server.server.deps.services.activities.rebuildStats(TENANT)!;
      assert.ok(restored.snapshotTakenAt !== undefined, 'restored from the snapshot');
      assert.equal(restored.records, 0, 'nothing was logged after the snapshot');
      assert.deepEqual(await answers(server, clock, SHOPPERS), before);
      // Activities after the restart land on the restored state as they would on a replayed one.
      await shop(server, ['fay', 'gus']);
      const grown = await answers(server, clock, SHOPPERS);
      await server.close();

      await rm(snapshotFile(dataDir));
      server = await startTestServer({ config, clock, dataDir });
      const replayed = server.server.deps.services.activities.rebuildStats(TENANT)!;
      assert.equal(replayed.snapshotTakenAt, undefined);
      assert.ok(replayed.records >= 7 * 7, 'every activity');
      assert.deepEqual(await answers(server, clock, SHOPPERS), grown, 'the full replay gives the same answers');
    } finally {
      await server.cleanup();
    }
  });

  it('replays the whole log, with one warning, when the snapshot is torn, of another version or behind a compaction', { timeout: 120_000 }, async () => {
    const dataDir = await makeDataDir();
    const clock = new ManualClock();
    const config = await withSnapshots();
    let server = await startTestServer({ config, clock, dataDir });
    try {
      await loadCatalog(server.server);
      await shop(server, SHOPPERS);
      const expected = await answers(server, clock, SHOPPERS);
      await server.close();
      const whole = await readFile(snapshotFile(dataDir));
      const restart = async (why: RegExp) => {
        server = await startTestServer({ config, clock, dataDir });
        const stats = server.server.deps.services.activities.rebuildStats(TENANT)!;
        assert.match(stats.snapshotRejected ?? '', why);
        assert.equal(stats.snapshotTakenAt, undefined);
        // Every activity.
        assert.ok(stats.records > SHOPPERS.length * 7, String(stats.records));
        assert.deepEqual(await answers(server, clock, SHOPPERS), expected);
        await server.close();
      };

      await truncate(snapshotFile(dataDir), Math.floor(whole.length / 2));
      await restart(/unexpected end|truncated/i);

      const lines = gunzipSync(whole).toString('utf8').split('\n');
      const header = JSON.parse(lines[0]!) as { version: number };
      await writeFile(snapshotFile(dataDir), gzipSync([JSON.stringify({ ...header, version: header.version + 1 }), ...lines.slice(1)].join('\n')));
      await restart(/format version/);

      // A snapshot an older server left (JSON lines, format version 1) is refused, not misread.
      await writeFile(snapshotFile(dataDir), gzipSync([JSON.stringify({ ...header, version: 1 }), JSON.stringify({ end: 0 })].join('\n')));
      await restart(/format version 1,/);

      // A damaged frame (its length says more than any chunk holds): refused before anything is read into memory.
      const damaged = gunzipSync(whole);
      damaged.writeUInt32LE(0xfffffff0, damaged.indexOf(0x0a) + 1);
      await writeFile(snapshotFile(dataDir), gzipSync(damaged));
      await restart(/a chunk claims/);

      // Whole but cut at a newline byte: inside a chunk, or past whole chunks with the end frame missing (answer ids are random, so either).
      await writeFile(snapshotFile(dataDir), gzipSync(lines.slice(0, 2).join('\n')));
      await restart(/truncated|a snapshot chunk ends early/);

      // A compaction of the log since: the snapshot's cursor is refused.
      await writeFile(snapshotFile(dataDir), whole);
      server = await startTestServer({ config, clock, dataDir });
      const outsider = (await server.server.deps.services.activities.resolveProfile(TENANT, { sessionId: 'outsider' })).profile.id;
      await server.server.deps.services.activities.recordActivities(TENANT, [{ profileId: outsider, source: 'collect', verb: 'view', type: 'product', itemId: 'hat-1', timestamp: clock.now() }]);
      await server.server.deps.store.flush();
      const { FileEventLog } = await import('../src/platform/event-log/file-event-log.js');
      // Compacted by another hand (the privacy CLI on a stopped server) while the old snapshot stays.
      await server.close();
      const log = await FileEventLog.open({ directory: join(dataDir, 'activities', TENANT), segmentBytes: 64 * 1024 * 1024, timeField: 'receivedAt' });
      assert.equal(await log.remove({ field: 'profileId', values: [outsider] }), 1);
      await log.close();
      await writeFile(snapshotFile(dataDir), whole);
      await restart(/compacted since/);
    } finally {
      await server.cleanup();
    }
  });

  it('loses nothing acknowledged after a snapshot when the server is killed with SIGKILL', { timeout: 120_000 }, async () => {
    const dataDir = await makeDataDir();
    const config = testConfig({ activityLog: { snapshots: { everyRecords: 40 } } });
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dataDir], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, TRACKING_CHILD_CONFIG: JSON.stringify(config) } });
      const lines = createInterface({ input: child.stdout! });
      const { url } = JSON.parse(((await once(lines, 'line')) as [string])[0]) as { url: string };
      const send = async (n: number) => {
        const res = await call(`${url}/collect/tenant-a-tracker`, { json: { id: `act-${n}`, action: 'view', target: { product: `item-${n % 7}` }, user: { sessionId: `shopper-${n % 5}` } } });
        assert.equal(res.status, 200);
      };
      for (let n = 0; n < 50; n++) await send(n);
      // The snapshot after 40 records is written in the background (up to a minute on a loaded machine).
      for (let waited = 0; !(await exists(snapshotFile(dataDir))) && waited < 1200; waited++) await new Promise((resolve) => setTimeout(resolve, 50));
      assert.ok(await exists(snapshotFile(dataDir)), 'a snapshot was written after everyRecords records');
      // 20 more: with the at most 10 sent while the first was written, under everyRecords, so no second
      // snapshot can land before the kill (one did once, on a quiet machine: only 1 record was left to replay).
      for (let n = 50; n < 70; n++) await send(n);
      child.kill('SIGKILL');
      await once(child, 'exit');

      const server = await startTestServer({ config, dataDir });
      try {
        const activities = server.server.deps.services.activities;
        const stats = activities.rebuildStats(TENANT)!;
        assert.ok(stats.snapshotTakenAt !== undefined, 'restored from the snapshot');
        assert.ok(stats.records >= 20 && stats.records < 70, `only the log after the snapshot was replayed (${stats.records})`);
        let total = 0;
        for (let s = 0; s < 5; s++) {
          const profile = activities.findProfile(TENANT, { sessionId: `shopper-${s}` })!;
          const history = activities.history(TENANT, profile.id);
          assert.equal(history.length, 14, `shopper-${s}`);
          assert.equal(new Set(history.map((a) => a.clientKey)).size, 14, 'each activity once');
          total += history.length;
        }
        assert.equal(total, 70);
        const views = server.server.deps.services.recommendations.aggregates.popularity(TENANT, { verbs: ['view'], limit: 10 });
        assert.equal(views.reduce((sum, item) => sum + item.score, 0), 70 * 1, 'every view counted once');
        // A retry of an acknowledged activity is still known as one.
        const retry = await call(`${server.url}/collect/tenant-a-tracker`, { json: { id: 'act-3', action: 'view', target: { product: 'item-3' }, user: { sessionId: 'shopper-3' } } });
        assert.equal(retry.status, 200);
        assert.equal(activities.history(TENANT, activities.findProfile(TENANT, { sessionId: 'shopper-3' })!.id).length, 14);
      } finally {
        await server.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('after an erasure no snapshot holds the person, and a restart does not bring them back', { timeout: 120_000 }, async () => {
    const dataDir = await makeDataDir();
    const clock = new ManualClock();
    const config = await withSnapshots();
    let server = await startTestServer({ config, clock, dataDir });
    try {
      await loadCatalog(server.server);
      await shop(server, SHOPPERS);
      await server.close();
      server = await startTestServer({ config, clock, dataDir });
      const activities = server.server.deps.services.activities;
      const erased = activities.findProfile(TENANT, { sessionId: 'bob' })!.id;
      assert.ok(gunzipSync(await readFile(snapshotFile(dataDir))).includes(erased), 'the snapshot held the person before');
      assert.ok(await activities.erasePerson(TENANT, erased));
      // The snapshot that held the person is gone when the erasure answers; a fresh one follows.
      assert.equal(await exists(snapshotFile(dataDir)), false);
      for (let waited = 0; !(await exists(snapshotFile(dataDir))) && waited < 200; waited++) await new Promise((resolve) => setTimeout(resolve, 50));
      const fresh = gunzipSync(await readFile(snapshotFile(dataDir)));
      assert.ok(!fresh.includes(erased), 'the snapshot written after the erasure does not name the person');
      const expected = await answers(server, clock, ['ann', 'cy', 'dee']);
      await server.close();

      server = await startTestServer({ config, clock, dataDir });
      assert.ok(server.server.deps.services.activities.rebuildStats(TENANT)!.snapshotTakenAt !== undefined);
      assert.equal(server.server.deps.services.activities.findProfile(TENANT, { profileId: erased }), undefined);
      assert.deepEqual(server.server.deps.services.activities.history(TENANT, erased), []);
      const history = await call(`${server.url}/tracker/tenant-a-tracker/profiles/${erased}/activities`);
      assert.deepEqual(history.body.data ?? [], []);
      assert.deepEqual(await answers(server, clock, ['ann', 'cy', 'dee']), expected);
    } finally {
      await server.cleanup();
    }
  });
});
