/**
 * The PostgreSQL adapters on a real PostgreSQL server (Debian's, started by test/support/engines.ts):
 * the three storage contracts the file adapters pass, then what is particular to a shared database:
 * migrations applied once, two stores on one database converging, a commit order readers can follow.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startPostgres, type PostgresServer } from './support/engines.js';
import { documentStoreContract } from './contracts/document-store-contract.js';
import { eventLogContract } from './contracts/event-log-contract.js';
import { blobStoreContract } from './contracts/blob-store-contract.js';
import { PostgresEngine, PostgresUnreachableError } from '../src/platform/postgres/postgres-engine.js';
import { PostgresDocumentStore } from '../src/platform/postgres/postgres-document-store.js';
import { PostgresEventLog, PostgresEventLogs } from '../src/platform/postgres/postgres-event-log.js';
import { PostgresBlobStore } from '../src/platform/postgres/postgres-blob-store.js';
import { StaleCursorError } from '../src/platform/event-log/event-log.js';
import { freePort } from './support/engines.js';

let server: Promise<PostgresServer> | undefined;
const postgres = () => (server ??= startPostgres());
after(async () => {
  if (server !== undefined) (await server).dispose();
});

/** A schema of its own on the shared test server, and every engine opened on it, closed at dispose. */
async function makeSchema(): Promise<{ connect(): Promise<PostgresEngine>; dispose(): Promise<void>; url: string; schema: string }> {
  const { url } = await postgres();
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const engines: PostgresEngine[] = [];
  return {
    url,
    schema,
    async connect() {
      const engine = await PostgresEngine.connect({ url, schema });
      engines.push(engine);
      return engine;
    },
    async dispose() {
      for (const engine of engines) await engine.close();
      const client = new pg.Client(url);
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    },
  };
}

documentStoreContract('PostgresDocumentStore', async () => {
  const place = await makeSchema();
  return { open: async () => new PostgresDocumentStore({ engine: await place.connect() }), dispose: place.dispose };
});

eventLogContract('PostgresEventLogs', async () => {
  const place = await makeSchema();
  return { open: async () => new PostgresEventLogs({ engine: await place.connect(), positionSpan: 4 }), dispose: place.dispose };
});

blobStoreContract('PostgresBlobStore', async () => {
  const place = await makeSchema();
  return { open: async () => new PostgresBlobStore({ engine: await place.connect() }), dispose: place.dispose };
});

/** Polls `check` until it passes or `ms` pass. */
async function eventually(check: () => void, ms = 2000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

describe('PostgreSQL storage, shared by several processes', () => {
  it('applies the migrations once: a second start, or two at once, changes nothing', async () => {
    const place = await makeSchema();
    try {
      const [a, b] = await Promise.all([place.connect(), place.connect()]);
      assert.deepEqual(await a.migrate(), []);
      assert.deepEqual(await b.migrate(), []);
      const { rows } = await a.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
      assert.deepEqual(
        rows.map((row) => row.version),
        [1],
      );
    } finally {
      await place.dispose();
    }
  });

  it("converges one store's data on another's commits within moments, and an update starts from the newest row", async () => {
    const place = await makeSchema();
    try {
      const one = new PostgresDocumentStore({ engine: await place.connect() });
      const two = new PostgresDocumentStore({ engine: await place.connect() });
      const first = await one.document('tenants/a/profiles', () => ({ ids: [] as string[] }));
      const second = await two.document('tenants/a/profiles', () => ({ ids: [] as string[] }));
      await first.update((data) => data.ids.push('from-one'));
      await eventually(() => assert.deepEqual(second.data.ids, ['from-one']));
      // Both write at once: each locks the row and starts from what the other committed, none is lost.
      await Promise.all([
        ...Array.from({ length: 10 }, (_, i) => first.update((data) => data.ids.push(`one-${i}`))),
        ...Array.from({ length: 10 }, (_, i) => second.update((data) => data.ids.push(`two-${i}`))),
      ]);
      await eventually(() => {
        assert.equal(first.data.ids.length, 21);
        assert.deepEqual(second.data.ids, first.data.ids);
      });
      await one.remove('tenants/a/profiles');
      await eventually(() => assert.deepEqual(second.data.ids, []));
      await one.close();
      await two.close();
    } finally {
      await place.dispose();
    }
  });

  it('reads another process\'s appends after a cursor, in commit order, and refuses a cursor that is not one', async () => {
    const place = await makeSchema();
    try {
      const writer = await new PostgresEventLogs({ engine: await place.connect() }).open('shop', { timeField: 'at' });
      const reader = (await new PostgresEventLogs({ engine: await place.connect() }).open('shop', { timeField: 'at' })) as PostgresEventLog;
      await Promise.all(Array.from({ length: 50 }, (_, i) => writer.append([{ n: i, at: i }])));
      const seen: number[] = [];
      const first = await reader.replay((record) => seen.push((record as { n: number }).n));
      await writer.append([{ n: 50, at: 50 }, { n: 51, at: 51 }]);
      const second = await reader.replay((record) => seen.push((record as { n: number }).n), { after: first.cursor });
      assert.deepEqual(seen, Array.from({ length: 52 }, (_, i) => i));
      assert.equal(second.records, 2);
      assert.equal(reader.cursor(), second.cursor);
      const none = await reader.replay(() => assert.fail('nothing is after the end'), { after: second.cursor });
      assert.equal(none.cursor, second.cursor);
      await assert.rejects(reader.replay(() => undefined, { after: 'segment-7:12' }), StaleCursorError);
    } finally {
      await place.dispose();
    }
  });

  it('names where PostgreSQL was not found when it cannot connect at start', async () => {
    const port = await freePort();
    await assert.rejects(
      PostgresEngine.connect({ url: `postgres://postgres:secret-password@127.0.0.1:${port}/shop` }),
      (error: unknown) => {
        assert.ok(error instanceof PostgresUnreachableError);
        assert.match(error.message, new RegExp(`^PostgreSQL is unreachable at 127\\.0\\.0\\.1:${port}/shop: `));
        assert.doesNotMatch(error.message, /secret-password/);
        return true;
      },
    );
  });
});
