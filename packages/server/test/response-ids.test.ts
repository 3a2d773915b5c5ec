/**
 * Signed response ids (domains/tracking/response-ids.ts) on real stores: an id verifies after a restart
 * on the data directory, and on every process sharing one PostgreSQL store — also when two processes
 * issue a tenant's very first ids at the same moment — and never for another tenant or once altered.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import pg from 'pg';
import { ResponseIds } from '../src/domains/tracking/response-ids.js';
import { LowdbStore } from '../src/platform/store/lowdb-store.js';
import { PostgresEngine } from '../src/platform/postgres/postgres-engine.js';
import { PostgresDocumentStore } from '../src/platform/postgres/postgres-document-store.js';
import { startPostgres, type PostgresServer } from './support/engines.js';
import { makeDataDir } from './support/test-server.js';

/** The id with its last character changed: what a forger trying neighbours of a real id sends. */
const altered = (id: string) => `${id.slice(0, -1)}${id.endsWith('A') ? 'B' : 'A'}`;

describe('signed response ids', () => {
  it("name a new session's anonymous profile alike after a restart, and apart for another session or tenant", async () => {
    const dataDir = await makeDataDir();
    try {
      const first = new LowdbStore({ directory: dataDir });
      const id = await new ResponseIds(first).anonymousProfileId('tenant-a', 'session-1');
      assert.match(id, /^p_[A-Za-z0-9_-]{16}$/);
      await first.close();
      const again = new ResponseIds(new LowdbStore({ directory: dataDir }));
      assert.equal(await again.anonymousProfileId('tenant-a', 'session-1'), id);
      assert.notEqual(await again.anonymousProfileId('tenant-a', 'session-2'), id);
      assert.notEqual(await again.anonymousProfileId('tenant-b', 'session-1'), id);
      assert.doesNotMatch(id, /session/);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('are short, tenant-bound, and verify after a restart on the same data directory', async () => {
    const dataDir = await makeDataDir();
    try {
      const first = new LowdbStore({ directory: dataDir });
      const ids = new ResponseIds(first);
      const r = await ids.issue('tenant-a', 'r');
      const s = await ids.issue('tenant-a', 's');
      assert.match(r, /^r_[A-Za-z0-9_-]{24}$/);
      assert.match(s, /^s_[A-Za-z0-9_-]{24}$/);
      assert.notEqual(r, await ids.issue('tenant-a', 'r'));
      const b = await ids.issue('tenant-b', 'r');
      await first.close();

      const again = new ResponseIds(new LowdbStore({ directory: dataDir }));
      for (const id of [r, `${r}-3`, s]) assert.equal(await again.verifies('tenant-a', id), true, id);
      for (const id of [b, altered(r), altered(s), `s${r.slice(1)}`, 'r_HJQxsdO7zz', 'r_HJQxsdO76-1', `${r}-x`]) assert.equal(await again.verifies('tenant-a', id), false, id);
      assert.equal(await again.verifies('tenant-b', b), true);
      assert.equal(await again.verifies('tenant-c', b), false, 'a tenant that was never issued an id verifies none');
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  describe('on PostgreSQL', () => {
    let server: Promise<PostgresServer> | undefined;
    const engines: PostgresEngine[] = [];
    let url = '';
    const schema = `t_${randomBytes(6).toString('hex')}`;
    /** One more process on the shared schema. */
    const openProcess = async () => {
      server ??= startPostgres();
      ({ url } = await server);
      const engine = await PostgresEngine.connect({ url, schema });
      engines.push(engine);
      return new ResponseIds(new PostgresDocumentStore({ engine }));
    };
    after(async () => {
      for (const engine of engines) await engine.close();
      if (server === undefined) return;
      const client = new pg.Client(url);
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
      (await server).dispose();
    });

    it('ids issued by one process verify on another, also when both issue a tenant\'s first ids at once', async () => {
      const [one, two] = [await openProcess(), await openProcess()];
      // Both create the tenant's key at the same moment: one key must win, seen by both before they sign.
      const firsts = await Promise.all([one.issue('tenant-a', 'r'), two.issue('tenant-a', 'r'), one.issue('tenant-b', 's'), two.issue('tenant-b', 's')]);
      for (const ids of [one, two]) {
        assert.equal(await ids.verifies('tenant-a', firsts[0]!), true);
        assert.equal(await ids.verifies('tenant-a', firsts[1]!), true);
        assert.equal(await ids.verifies('tenant-b', firsts[2]!), true);
        assert.equal(await ids.verifies('tenant-b', firsts[3]!), true);
        assert.equal(await ids.verifies('tenant-b', firsts[0]!), false);
      }
      // A third process started later verifies what the first two issued.
      const three = await openProcess();
      assert.equal(await three.verifies('tenant-a', `${firsts[1]!}-2`), true);
      assert.equal(await three.verifies('tenant-a', altered(firsts[1]!)), false);
    });
  });
});
