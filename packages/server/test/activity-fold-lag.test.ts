/**
 * The collection APIs' fast path (issue 39): an answer waits for the durable append only, and the fold
 * into histories and aggregates follows in the same turn of the event loop, so the caller's next request
 * already sees it. While a tenant's fold is further behind than `activityLog.foldLag.records`, collect
 * answers 429 with Retry-After and changes nothing; /metrics shows the lag.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, startTestServer } from './support/test-server.js';
import { recommendationConfig, TENANT } from './support/recommendation-fixture.js';
import { DomainError } from '../src/platform/domain-error.js';
import type { NewActivity } from '../src/domains/tracking/activity-service.js';

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
const config = () => ({ ...recommendationConfig(), activityLog: { foldLag: { records: 100, seconds: 30 } } });

function views(count: number, item: (i: number) => string): NewActivity[] {
  return Array.from({ length: count }, (_, i) => ({ profileId: `p_fold${i % 50}`, source: 'collect', verb: 'view', type: 'product', itemId: item(i), timestamp: 1_000 + i }));
}

describe('the collection fast path: fold after the answer, with a bounded lag', () => {
  it('answers once the append is durable, folds in the same turn, and refuses past the bound', async () => {
    const server = await startTestServer({ config: config() });
    try {
      const activities = server.server.deps.services.activities;
      const aggregates = server.server.deps.services.recommendations.aggregates;
      await activities.recordActivities(TENANT, views(150, () => 'fold-1'), undefined, { foldAfterAnswer: true });
      // Answered, not folded yet: durable in the log, not in the aggregates.
      assert.equal(activities.foldLag().records, 150);
      assert.deepEqual(aggregates.popularity(TENANT, { limit: 1 }), []);
      assert.throws(
        () => activities.refuseWhileBehind(TENANT),
        (error: unknown) => error instanceof DomainError && error.kind === 'rate_limited' && error.retryAfterSeconds === 1 && /150 activities/.test(error.message),
      );
      await turn();
      assert.equal(activities.foldLag().records, 0, 'folded in the check phase of the same turn');
      assert.equal(aggregates.popularity(TENANT, { limit: 1 })[0]?.itemId, 'fold-1');
      activities.refuseWhileBehind(TENANT);

      // An in-process caller that folds before its answer folds what waits first: the log's order holds.
      await activities.recordActivities(TENANT, views(60, () => 'fold-2'), undefined, { foldAfterAnswer: true });
      await activities.recordActivities(TENANT, views(1, () => 'fold-3'));
      assert.equal(activities.foldLag().records, 0);
      assert.deepEqual([...new Set(activities.history(TENANT, 'p_fold0').map((a) => a.itemId))], ['fold-3', 'fold-2', 'fold-1'], 'newest first');

      // Through HTTP: a collect call answered 200 is in the shopper's history on the next request.
      const sent = await call(`${server.url}/collect/tenant-a-tracker`, { json: { action: 'view', target: { product: 'shoe-1' }, user: { sessionId: 'reader' } } });
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
      const reader = activities.findProfile(TENANT, { sessionId: 'reader' })!.id;
      const history = await call(`${server.url}/tracker/tenant-a-tracker/profiles/${reader}/activities`);
      assert.equal(history.status, 200);
      assert.equal(history.body.data.length, 1);
      assert.match(await (await fetch(`${server.url}/metrics`)).text(), /^discovery_activity_fold_lag_records 0$/m);

      // A fold far behind (200 calls of 100 acknowledged together fold over many turns, 8 ms of the loop
      // each): collect is refused with 429 and Retry-After meanwhile, and nothing of the refused call is
      // kept (not even its profile).
      await Promise.all(Array.from({ length: 200 }, (_, call) => activities.recordActivities(TENANT, views(100, (i) => `bulk-${(call * 100 + i) % 500}`), undefined, { foldAfterAnswer: true })));
      const refused = await call(`${server.url}/collect/tenant-a-tracker`, { json: { action: 'view', target: { product: 'shoe-2' }, user: { sessionId: 'refused' } } });
      assert.equal(refused.status, 429, JSON.stringify(refused.body));
      assert.equal(refused.headers.get('retry-after'), '1');
      assert.match(JSON.stringify(refused.body), /folding \d+ activities/);
      assert.equal(activities.findProfile(TENANT, { sessionId: 'refused' }), undefined, 'no profile made for a refused call');
      while (activities.foldLag().records > 0) await turn();
      const again = await call(`${server.url}/collect/tenant-a-tracker`, { json: { action: 'view', target: { product: 'shoe-2' }, user: { sessionId: 'refused' } } });
      assert.equal(again.status, 200, 'accepted once the fold caught up');
      assert.equal(activities.history(TENANT, 'p_fold7').filter((a) => a.itemId.startsWith('bulk-')).length, 400, 'every acknowledged activity was folded (20,000 over 50 shoppers)');
    } finally {
      await server.cleanup();
    }
  });
});
