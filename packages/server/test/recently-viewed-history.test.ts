/**
 * A returning shopper's `recently-viewed` once their history has left memory: past
 * `activityLog.historyInMemory` the least recently active lists go, and the strategy reads them back
 * from the log segments the per-profile index names, before and after a restart (from the snapshot,
 * and from the whole log when there is none). Also run on PostgreSQL by `npm run test:postgres`.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { call, makeDataDir, startTestServer, type TestServer } from './support/test-server.js';
import { loadCatalog, recommendationConfig, TENANT } from './support/recommendation-fixture.js';
import { testsUsePostgres } from './support/postgres-test-storage.js';

// npm run test:postgres runs it on PostgreSQL too: no segments or snapshots there (the log's own index
// on profileId finds the records, and every start replays the whole log), the same answers.
const onFiles = !testsUsePostgres();

// Small segments (a few hundred activities each), so that the flood spreads over many of them.
const config = () => ({ ...recommendationConfig(), activityLog: { historyInMemory: 1_000, segmentBytes: 64 * 1024 } });

describe('recently-viewed past the history kept in memory', () => {
  it('lists a returning shopper\'s views newest first after they left memory, across restarts', { timeout: 180_000 }, async () => {
    const dataDir = await makeDataDir();
    let server: TestServer = await startTestServer({ config: config(), dataDir });
    try {
      await loadCatalog(server.server);
      const collect = async (batch: unknown[]) => assert.equal((await call(`${server.url}/collect/tenant-a-tracker`, { json: batch })).status, 200);
      // Other shoppers, 100 per request, one view each.
      const flood = async (from: number, to: number) => {
        for (let batch = from; batch < to; batch++) {
          await collect(Array.from({ length: 100 }, (_, i) => ({ action: 'view', target: { product: 'sock-1' }, user: { sessionId: `flood-${batch}-${i}` } })));
        }
      };
      const viewed = ['shoe-1', 'sock-2', 'shoe-3', 'sock-1'];
      for (const product of viewed) await collect([{ action: 'view', target: { product }, user: { sessionId: 'returning' } }]);
      const activities = () => server.server.deps.services.activities;
      const shopper = activities().findProfile(TENANT, { sessionId: 'returning' })!.id;
      const recent = async () => {
        const response = await call(`${server.url}/widget/w-recent/recommendations/${shopper}`);
        assert.equal(response.status, 200);
        return response.body.recommendations.map((r: { product: { _id: { original_id: string } } }) => r.product._id.original_id);
      };
      const newestFirst = [...viewed].reverse();
      assert.deepEqual(await recent(), newestFirst);

      // 1,500 other shoppers, one view each: past the 1,000 kept, the returning shopper's list leaves memory.
      await flood(0, 15);
      assert.deepEqual(activities().history(TENANT, shopper), [], 'the shopper left memory');
      if (onFiles) {
        const segments = (await readdir(join(dataDir, 'activities', TENANT))).filter((name) => name.endsWith('.jsonl'));
        assert.ok(segments.length >= 3, `the log spans several segments (${segments.join()})`);
      }
      assert.deepEqual(await recent(), newestFirst, 'read back from the log');

      // Evicted again (read back again), evicted once more, then restarted from the snapshot the close saved.
      await flood(15, 30);
      assert.deepEqual(activities().history(TENANT, shopper), [], 'left memory again');
      assert.deepEqual(await recent(), newestFirst, 'read back again');
      await flood(30, 45);
      await server.close();
      server = await startTestServer({ config: config(), dataDir });
      if (onFiles) assert.ok(activities().rebuildStats(TENANT)!.snapshotTakenAt !== undefined, 'restored from a snapshot');
      assert.deepEqual(activities().history(TENANT, shopper), [], 'not in memory after the restart');
      assert.deepEqual(await recent(), newestFirst, 'after a restart from the snapshot');

      // A new view comes first; the older ones follow from the log.
      await collect([{ action: 'view', target: { product: 'shoe-2' }, user: { sessionId: 'returning' } }]);
      assert.deepEqual(await recent(), ['shoe-2', ...newestFirst]);

      // Without a snapshot the whole log is replayed, and the index with it.
      await server.close();
      await rm(join(dataDir, 'snapshots'), { recursive: true, force: true });
      server = await startTestServer({ config: config(), dataDir });
      assert.equal(activities().rebuildStats(TENANT)!.snapshotTakenAt, undefined, 'replayed from the log');
      await flood(45, 60);
      assert.deepEqual(activities().history(TENANT, shopper), [], 'evicted again');
      assert.deepEqual(await recent(), ['shoe-2', ...newestFirst], 'after a whole-log replay');
    } finally {
      await server.cleanup();
    }
  });
});
