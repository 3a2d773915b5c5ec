/**
 * Bounded memory of shoppers' histories: past `activityLog.historyInMemory` activities, the least
 * recently active shoppers' lists leave memory, and their history pages are read from the log, whole
 * and in order, before and after a restart from a snapshot.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, makeDataDir, startTestServer, testConfig } from './support/test-server.js';

describe('history memory bound', () => {
  it('keeps at most historyInMemory activities in memory and still serves every page of an early shopper', { timeout: 120_000 }, async () => {
    const dataDir = await makeDataDir();
    const config = testConfig({ activityLog: { historyInMemory: 1_000 } });
    let server = await startTestServer({ config, dataDir });
    try {
      const collect = async (batch: unknown[]) => assert.equal((await call(`${server.url}/collect/tenant-a-tracker`, { json: batch })).status, 200);
      await collect(Array.from({ length: 12 }, (_, i) => ({ action: i % 3 === 0 ? 'add-to-cart' : 'view', target: { product: `early-${i}` }, user: { sessionId: 'early' } })));
      const activities = () => server.server.deps.services.activities;
      const early = activities().findProfile('tenant-a', { sessionId: 'early' })!.id;
      assert.equal(activities().history('tenant-a', early).length, 12);
      // 1,100 new shoppers, one activity each: past the bound, the least recently active list goes first.
      for (let batch = 0; batch < 11; batch++) {
        await collect(Array.from({ length: 100 }, (_, i) => ({ action: 'view', target: { product: `p-${i}` }, user: { sessionId: `flood-${batch}-${i}` } })));
      }
      assert.deepEqual(activities().history('tenant-a', early), [], 'the early shopper left memory');
      const expected = Array.from({ length: 12 }, (_, i) => `early-${11 - i}`);
      const pages = async () => {
        const path = `${server.url}/tracker/tenant-a-tracker/profiles/${early}/activities`;
        const first = await call(`${path}?page[size]=5`);
        const third = await call(`${path}?page[size]=5&page[number]=3`);
        const carts = await call(`${path}?filter[verb]=add-to-cart`);
        return { total: first.body.meta.total, first: first.body.data.map((a: { originalId: string }) => a.originalId), third: third.body.data.map((a: { originalId: string }) => a.originalId), carts: carts.body.meta.total };
      };
      const read = { total: 12, first: expected.slice(0, 5), third: expected.slice(10), carts: 4 };
      assert.deepEqual(await pages(), read, 'pages come from the log');
      await server.close();
      server = await startTestServer({ config, dataDir });
      assert.ok(activities().rebuildStats('tenant-a')!.snapshotTakenAt !== undefined);
      assert.deepEqual(await pages(), read, 'and after a restart from the snapshot');
      // A returning shopper's new activity comes first, before those read from the log.
      await collect([{ action: 'view', target: { product: 'early-back' }, user: { sessionId: 'early' } }]);
      assert.deepEqual(activities().history('tenant-a', early).map((a) => a.itemId), ['early-back']);
      assert.deepEqual((await pages()).first, ['early-back', ...expected.slice(0, 4)]);
    } finally {
      await server.cleanup();
    }
  });
});
