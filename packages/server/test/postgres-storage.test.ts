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
import { LowdbStore } from '../src/platform/store/lowdb-store.js';
import { FileEventLogs } from '../src/platform/event-log/file-event-logs.js';
import { FileBlobStore } from '../src/platform/blob-store/file-blob-store.js';
import { migrateDataDirectory } from '../src/platform/postgres/data-dir-migration.js';
import { makeDataDir } from './support/test-server.js';
import { rm } from 'node:fs/promises';

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
        [1, 2],
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

  it("follows the other processes' appends in commit order and never hands a log its own, even one whose answer was lost", async () => {
    const place = await makeSchema();
    try {
      const a = (await new PostgresEventLogs({ engine: await place.connect() }).open('shop', { timeField: 'at' })) as PostgresEventLog;
      const b = await new PostgresEventLogs({ engine: await place.connect() }).open('shop', { timeField: 'at' });
      const seen: Array<{ from: string; n: number }> = [];
      const stop = a.follow(a.cursor(), (records) => seen.push(...(records as Array<{ from: string; n: number }>)));
      try {
        // Interleaved: A's own appends and B's, concurrently.
        await Promise.all(Array.from({ length: 40 }, (_, n) => (n % 2 === 0 ? a : b).append([{ from: n % 2 === 0 ? 'a' : 'b', n, at: n }])));
        await eventually(() => assert.equal(seen.length, 20));
        assert.deepEqual(seen.map((r) => r.from), Array.from({ length: 20 }, () => 'b'));
        // B's records in B's commit order: its calls were made in order and group commits keep call order.
        assert.deepEqual(seen.map((r) => r.n), Array.from({ length: 20 }, (_, i) => 2 * i + 1));
        // A row of A's that A was never told of (as when the connection drops between the commit and its
        // answer): the caller was told it failed, so A's follower folds it like another process's.
        const engine = await place.connect();
        const { rows } = await engine.query<{ origin: string }>("SELECT origin FROM events WHERE record->>'from' = 'a' LIMIT 1");
        await engine.query("INSERT INTO events (stream, at, record, origin) VALUES ('shop', 99, '{\"from\":\"a\",\"n\":99,\"at\":99}', $1)", [rows[0]!.origin]);
        await engine.query('SELECT pg_notify($1, $2)', [engine.channel, JSON.stringify({ topic: 'events', stream: 'shop' })]);
        await eventually(() => assert.equal(seen.length, 21));
        assert.deepEqual(seen.at(-1), { from: 'a', n: 99, at: 99 });
      } finally {
        stop();
      }
    } finally {
      await place.dispose();
    }
  });

  it('moves a data directory into PostgreSQL, and a second run copies nothing again', async () => {
    const place = await makeSchema();
    const dir = await makeDataDir();
    try {
      const files = new LowdbStore({ directory: dir });
      await (await files.document('tenants/shop/catalogs', () => ({ versions: [] as number[] }))).update((data) => data.versions.push(1, 2));
      await (await files.document('auth/replays', () => ({ seen: {} }))).update(() => undefined);
      await files.close();
      const logs = new FileEventLogs({ directory: `${dir}/activities`, segmentBytes: 1024 });
      const log = await logs.open('shop', { timeField: 'receivedAt' });
      for (let n = 0; n < 30; n++) await log.append([{ n, receivedAt: 1000 + n, profileId: `p${n % 3}`, pad: 'x'.repeat(60) }]);
      await logs.close();
      await new FileBlobStore({ directory: dir }).put('models/shop.item-model', Buffer.from('model bytes'));

      const engine = await place.connect();
      const first = await migrateDataDirectory({ from: dir, engine });
      assert.deepEqual(first.documents, { copied: 2, unchanged: 0 });
      assert.deepEqual(first.streams, [{ stream: 'shop', records: 30, skipped: 0, copied: true }]);
      assert.deepEqual(first.blobs, { copied: 1, unchanged: 0 });
      const versions = await engine.query('SELECT name, version FROM documents ORDER BY name');

      const second = await migrateDataDirectory({ from: dir, engine });
      assert.deepEqual(second.documents, { copied: 0, unchanged: 2 });
      assert.deepEqual(second.streams, [{ stream: 'shop', records: 30, skipped: 0, copied: false }]);
      assert.deepEqual(second.blobs, { copied: 0, unchanged: 1 });
      assert.deepEqual((await engine.query('SELECT name, version FROM documents ORDER BY name')).rows, versions.rows);

      // What a companion started with --store then reads.
      const store = new PostgresDocumentStore({ engine: await place.connect() });
      assert.deepEqual((await store.document('tenants/shop/catalogs', () => ({ versions: [] as number[] }))).data.versions, [1, 2]);
      const moved = await new PostgresEventLogs({ engine: await place.connect() }).open('shop', { timeField: 'receivedAt' });
      const read: number[] = [];
      await moved.replay((record) => read.push((record as { n: number }).n));
      assert.deepEqual(read, Array.from({ length: 30 }, (_, n) => n));
      const history: number[] = [];
      await moved.scan({ field: 'profileId', values: ['p1'] }, (record) => history.push((record as { n: number }).n));
      assert.deepEqual(history, [1, 4, 7, 10, 13, 16, 19, 22, 25, 28]);
      assert.equal((await new PostgresBlobStore({ engine }).get('models/shop.item-model'))?.toString(), 'model bytes');
    } finally {
      await rm(dir, { recursive: true, force: true });
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
