/**
 * Data-subject requests through the admin API: a shopper's data is exported (the nominative profile
 * and the anonymous visit merged into it, with every activity), then erased — gone from the profile
 * directory, the history endpoint, recommendations and the log files, also after a restart — while
 * another shopper's data stays.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ManualClock } from '../src/platform/clock.js';
import { adminConfig, adminToken } from './support/admin-fixture.js';
import { loadCatalog } from './support/recommendation-fixture.js';
import { call, startTestServer, type TestServer } from './support/test-server.js';

async function logText(dataDir: string): Promise<string> {
  const dir = join(dataDir, 'activities', 'tenant-a');
  const names = (await readdir(dir)).filter((n) => n.endsWith('.jsonl')).sort();
  return (await Promise.all(names.map((n) => readFile(join(dir, n), 'utf8')))).join('');
}

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const KEY = fileURLToPath(new URL('./fixtures/client-a.private.pem', import.meta.url));

/** `npm run privacy -- …`, as an operator runs it (through scripts/run-tool.mjs). */
async function privacyCli(url: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['scripts/run-tool.mjs', 'privacy-cli', ...args, '--url', url, '--tenant', 'tenant-a', '--client-id', 'client-a', '--key', KEY], { cwd: ROOT });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('data-subject requests', () => {
  // Real time: the command-line tool signs its token assertion with the real clock.
  const clock = new ManualClock(Date.now());
  let config: Record<string, unknown>;
  let server: TestServer;
  let editor: Record<string, string>;
  const admin = (path: string, init: { method?: string; headers?: Record<string, string> } = {}) => call(`${server.url}/admin${path}`, { headers: editor, ...init });
  const collect = async (user: Record<string, unknown>, action: string, product: string, metadata?: Record<string, unknown>) => {
    clock.advance(1000);
    const res = await call(`${server.url}/collect/tenant-a-tracker`, { json: { action, target: { product }, user, ...(metadata === undefined ? {} : { metadata }) } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  };
  const recentlyViewed = async (customer: string) =>
    (await call(`${server.url}/widget/w-recent/recommendations/customer-id/${customer}`)).body.recommendations.map((r: { product: { _id: { original_id: string } } }) => r.product._id.original_id);

  before(async () => {
    config = await adminConfig();
    server = await startTestServer({ config, clock });
    await loadCatalog(server.server);
    editor = { authorization: `Bearer ${await adminToken(server, clock.now(), 'client-a')}` };
    // Customer c-42 bought before; later an anonymous visit logs in as c-42 and joins the customer's profile.
    await collect({ identities: { 'customer-id': 'c-42' } }, 'purchase', 'shoe-2', { orderId: 'o-42', price: 80 });
    await collect({ sessionId: 'tab-1' }, 'view', 'shoe-1');
    await collect({ sessionId: 'tab-1', identities: { 'customer-id': 'c-42' } }, 'view', 'sock-1');
    // Someone else, whose data must stay.
    await collect({ identities: { 'customer-id': 'c-7' } }, 'view', 'shoe-3');
  });
  after(() => server.cleanup());

  it('exports the person: both profiles and all three activities, nobody else', async () => {
    const res = await admin('/profiles/export?repository=customer-id&userId=c-42');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.match(res.headers.get('content-disposition') ?? '', /attachment; filename="profile-p_/);
    assert.equal(res.body.profiles.length, 2);
    assert.deepEqual(res.body.profiles[0].identities, { 'customer-id': 'c-42' });
    assert.equal(res.body.profiles[1].mergedInto, res.body.profiles[0].id);
    assert.deepEqual(res.body.activities.map((a: { verb: string; itemId: string }) => `${a.verb} ${a.itemId}`), ['purchase shoe-2', 'view shoe-1', 'view sock-1']);
    assert.deepEqual(await recentlyViewed('c-42'), ['sock-1', 'shoe-1']);
  });

  it('refuses read-only accounts, and names the parameter when the person is missing or unknown', async () => {
    const reader = { authorization: `Bearer ${await adminToken(server, clock.now(), 'reader-a')}` };
    assert.equal((await admin('/profiles/export?repository=customer-id&userId=c-42', { headers: reader })).status, 403);
    assert.equal((await admin('/profiles?repository=customer-id&userId=c-42', { method: 'DELETE', headers: reader })).status, 403);
    const none = await admin('/profiles', { method: 'DELETE' });
    assert.equal(none.status, 400);
    assert.equal(none.body.error.field, 'query.profileId');
    const unknown = await admin('/profiles?repository=customer-id&userId=nobody', { method: 'DELETE' });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.field, 'query.userId');
  });

  it('erases the person from profiles, history, recommendations and the log, for good, and leaves the others', async () => {
    const exported = (await admin('/profiles/export?repository=customer-id&userId=c-42')).body;
    const ids: string[] = exported.profiles.map((p: { id: string }) => p.id);
    const erased = await admin('/profiles?repository=customer-id&userId=c-42', { method: 'DELETE' });
    assert.equal(erased.status, 200, JSON.stringify(erased.body));
    assert.deepEqual(erased.body, { erased: { profiles: 2, activities: 3 } });
    // Kept for a trainer that starts later (its stored model taken before this is trained again): a time, naming nobody.
    const mark = await server.server.deps.store.document<object>('tenants/tenant-a/model-erasures', () => ({}));
    assert.deepEqual(mark.data, { at: clock.now() });

    const check = async () => {
      assert.equal((await admin('/profiles/export?repository=customer-id&userId=c-42')).status, 404);
      for (const id of ids) assert.equal((await call(`${server.url}/tracker/tenant-a-tracker/profiles/${id}/activities`)).status, 404);
      assert.deepEqual(await recentlyViewed('c-42'), []);
      const log = await logText(server.dataDir);
      for (const id of ids) assert.equal(log.includes(id), false, `the log still names ${id}`);
      // The other shopper keeps everything.
      const other = await admin('/profiles/export?repository=customer-id&userId=c-7');
      assert.deepEqual(other.body.activities.map((a: { itemId: string }) => a.itemId), ['shoe-3']);
    };
    await check();
    const audit = await admin('/audit?limit=5');
    const line = audit.body.entries.find((e: { action: string }) => e.action === 'profile.erase');
    assert.deepEqual(line.after, { profileIds: ids, activities: 3 });
    assert.equal(JSON.stringify(audit.body).includes('c-42'), false, 'the audit log names the customer id');
    // A tenant-wide line shows in each environment's view of the audit log too.
    assert.ok((await admin('/audit?limit=5&environment=prod')).body.entries.some((e: { action: string }) => e.action === 'profile.erase'));

    const dataDir = server.dataDir;
    await server.close();
    server = await startTestServer({ config, clock, dataDir });
    editor = { authorization: `Bearer ${await adminToken(server, clock.now(), 'client-a')}` };
    await check();
  });

  it('names a visitor by a browser session id: exports and erases what that session did, and refuses a session id with a userId', async () => {
    await collect({ sessionId: 'tab-9' }, 'view', 'shoe-3');
    await collect({ sessionId: 'tab-9' }, 'view', 'sock-1');
    const exported = await admin('/profiles/export?sessionId=tab-9');
    assert.equal(exported.status, 200, JSON.stringify(exported.body));
    assert.deepEqual(exported.body.activities.map((a: { itemId: string }) => a.itemId), ['shoe-3', 'sock-1']);
    const both = await admin('/profiles?sessionId=tab-9&userId=x', { method: 'DELETE' });
    assert.equal(both.status, 400);
    assert.equal(both.body.error.field, 'query.profileId');
    const fromCli = await privacyCli(server.url, ['export', '--session', 'tab-9']);
    assert.equal(fromCli.code, 0, fromCli.stderr);
    assert.equal(JSON.parse(fromCli.stdout).activities.length, 2);
    const erased = await admin('/profiles?sessionId=tab-9', { method: 'DELETE' });
    assert.deepEqual(erased.body, { erased: { profiles: 1, activities: 2 } });
    const again = await admin('/profiles/export?sessionId=tab-9');
    assert.equal(again.status, 404);
    assert.equal(again.body.error.field, 'query.sessionId');
  });

  it('works from the command line: export to stdout, erase only with --yes', async () => {
    await collect({ identities: { 'customer-id': 'c-9' } }, 'view', 'shoe-1');
    const exported = await privacyCli(server.url, ['export', '--customer', 'customer-id:c-9']);
    assert.equal(exported.code, 0, exported.stderr);
    assert.deepEqual(JSON.parse(exported.stdout).activities.map((a: { itemId: string }) => a.itemId), ['shoe-1']);
    const unconfirmed = await privacyCli(server.url, ['erase', '--customer', 'customer-id:c-9']);
    assert.equal(unconfirmed.code, 2);
    assert.match(unconfirmed.stderr, /--yes/);
    const erased = await privacyCli(server.url, ['erase', '--customer', 'customer-id:c-9', '--yes']);
    assert.equal(erased.code, 0, erased.stderr);
    assert.match(erased.stderr, /erased 1 profile\(s\) and 1 activities/);
    const again = await privacyCli(server.url, ['export', '--customer', 'customer-id:c-9']);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /404/);
  });
});
