/**
 * An erasure on a log several processes share (PostgreSQL): the erasing process appends a notice that
 * the others fold, so each forgets the person; the notice leaves the log again after
 * `activityLog.erasureNoticeSeconds`. Two real servers on one real PostgreSQL schema; and the
 * configuration refuses a notice shorter than the fold lag the backpressure allows.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startPostgres, type PostgresServer } from './support/engines.js';
import type { DiscoveryServer } from '../src/app/server.js';
import { eventually, openOnSharedStore, type SharedStoreServer } from './support/shared-store-servers.js';
import { ConfigError, validateConfig } from '../src/platform/config/load.js';
import { createLogger } from '../src/platform/logger.js';

const TENANT = 'erasing';
let postgres: PostgresServer | undefined;
const servers: DiscoveryServer[] = [];
after(async () => {
  for (const server of servers) await server.close();
  postgres?.dispose();
});

const config = (dir: string, activityLog: Record<string, unknown> = {}) =>
  validateConfig({ tenants: [{ id: TENANT, identityRepositories: ['customer-id'], environments: [{ id: 'prod', trackerKeys: ['erasing-key'] }] }], publicRateLimits: { enabled: false }, activityLog }, '(test)', dir);

const open = async (url: string, schema: string): Promise<SharedStoreServer> => {
  const opened = await openOnSharedStore(url, schema, { configFor: (dir) => config(dir, { erasureNoticeSeconds: 2, foldLag: { records: 100_000, seconds: 1 } }), logger: createLogger('silent') });
  servers.push(opened.server);
  return opened;
};

describe('an erasure on a shared log', () => {
  it('reaches the other process through a notice, which leaves the log after erasureNoticeSeconds', async () => {
    postgres = await startPostgres();
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const [a, b] = [await open(postgres.url, schema), await open(postgres.url, schema)];
    const [gone, kept] = [randomUUID(), randomUUID()];
    for (const [session, product] of [[gone, 'p-1'], [gone, 'p-2'], [kept, 'p-3']] as const) {
      const sent = await fetch(`${a.base}/collect/erasing-key`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ action: 'view', target: { product }, user: { sessionId: session } }) });
      assert.equal(sent.status, 200, await sent.text());
    }
    const onB = b.server.deps.services.activities;
    const profileOnB = (session: string) => onB.findProfile(TENANT, { sessionId: session });
    await eventually(() => assert.equal(onB.history(TENANT, profileOnB(gone)?.id ?? '-').length, 2), 5_000);
    await eventually(() => assert.equal(onB.history(TENANT, profileOnB(kept)?.id ?? '-').length, 1), 5_000);
    const erasedId = profileOnB(gone)!.id;

    const erased = await a.server.deps.services.activities.erasePerson(TENANT, a.server.deps.services.activities.findProfile(TENANT, { sessionId: gone })!.id);
    assert.deepEqual({ ...erased, profileIds: undefined }, { profileIds: undefined, profiles: 1, activities: 2 });
    const client = new pg.Client(postgres.url);
    await client.connect();
    try {
      const notices = async () => (await client.query(`SELECT record::text AS text FROM ${schema}.events WHERE record->>'kind' = 'erasure'`)).rows.map((row: { text: string }) => row.text);
      const [notice] = await notices();
      assert.ok(notice !== undefined, 'no notice in the log');
      assert.ok(notice.includes(erasedId) && !notice.includes('p-1'), 'the notice names the erased ids and nothing they did');
      // B forgets the visitor: their profile (taken from the log), their history; the other visitor stays.
      await eventually(() => assert.equal(profileOnB(gone), undefined), 2_000);
      assert.equal(onB.history(TENANT, erasedId).length, 0);
      assert.equal(onB.history(TENANT, profileOnB(kept)!.id).length, 1);
      // Past erasureNoticeSeconds (2 s) the notice is gone from the log.
      await eventually(async () => assert.deepEqual(await notices(), []), 5_000);
    } finally {
      await client.end();
    }
  });

  it('leaves the log on time though the erasing process stopped first: the others remove it too', async () => {
    postgres ??= await startPostgres();
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const [a, b] = [await open(postgres.url, schema), await open(postgres.url, schema)];
    const session = randomUUID();
    const sent = await fetch(`${a.base}/collect/erasing-key`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ action: 'view', target: { product: 'p-1' }, user: { sessionId: session } }) });
    assert.equal(sent.status, 200, await sent.text());
    const onB = b.server.deps.services.activities;
    await eventually(() => assert.ok(onB.findProfile(TENANT, { sessionId: session }) !== undefined, 'B never took the visitor from the log'), 15_000);
    const onA = a.server.deps.services.activities;
    await onA.erasePerson(TENANT, onA.findProfile(TENANT, { sessionId: session })!.id);
    await a.server.close();
    servers.splice(servers.indexOf(a.server), 1);
    await eventually(() => assert.equal(onB.findProfile(TENANT, { sessionId: session }), undefined), 15_000);
    const client = new pg.Client(postgres.url);
    await client.connect();
    try {
      const notices = async () => (await client.query(`SELECT count(*)::int AS n FROM ${schema}.events WHERE record->>'kind' = 'erasure'`)).rows[0].n as number;
      // Written before A stopped; B folded it and removes it once erasureNoticeSeconds (2 s) have passed.
      assert.equal(await notices(), 1);
      await eventually(async () => assert.equal(await notices(), 0), 15_000);
    } finally {
      await client.end();
    }
  });

  it('refuses an erasure notice kept for less than the fold lag allowed, naming the field', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'erasure-config-'));
    assert.throws(() => config(dir, { erasureNoticeSeconds: 10 }), (error: unknown) => error instanceof ConfigError && /activityLog\.erasureNoticeSeconds/.test(error.message));
    assert.equal(config(dir).activityLog.erasureNoticeSeconds, 600);
  });
});
