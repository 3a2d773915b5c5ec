/** Co-occurrence memory is bounded per item (an item that meets thousands of others keeps its strongest partners only), and the items counted per tenant are bounded. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CoOccurrence, MAX_RELATED } from '../src/domains/recommendations/co-occurrence.js';
import { RecommendationAggregates } from '../src/domains/recommendations/activity-aggregates.js';
import { ManualClock } from '../src/platform/clock.js';
import { validateConfig } from '../src/platform/config/load.js';
import { tmpdir } from 'node:os';

describe('co-occurrence bound', () => {
  it('keeps at most twice MAX_RELATED partners per item, the strongest among them', () => {
    const pairs = new CoOccurrence();
    // The hub is bought with 5,000 different items, and with "loyal" in every tenth order.
    for (let order = 0; order < 5000; order++) {
      pairs.addOrderItem(`o${order}`, 'hub', order);
      pairs.addOrderItem(`o${order}`, `other-${order}`, order);
      if (order % 10 === 0) pairs.addOrderItem(`o${order}`, 'loyal', order);
    }
    const related = pairs.related('order', 'hub', 100_000);
    assert.ok(related.length <= 2 * MAX_RELATED, `${related.length} partners kept`);
    assert.equal(related[0]!.itemId, 'loyal');
    // 500 meetings, each weighted by its order's recency (orders seconds apart weigh all but the same).
    assert.ok(Math.abs(related[0]!.count - 500) < 0.01, String(related[0]!.count));
  });
});

describe('counted items bound', () => {
  it('stops counting activities of new item ids past the bound, and keeps counting the known ones', () => {
    const config = validateConfig({ tenants: [{ id: 't', environments: [{ id: 'e' }] }] }, '(test)', tmpdir());
    const aggregates = new RecommendationAggregates({ config, clock: new ManualClock(), maxItems: 3 });
    const view = (itemId: string, profileId: string) =>
      aggregates.fold('t', { kind: 'activity', id: `${itemId}-${profileId}`, tenant: 't', profileId, source: 'collect', verb: 'view', type: 'product', itemId, timestamp: 1, receivedAt: 1 }, profileId);
    for (let n = 0; n < 10; n++) view(`made-up-${n}`, `p${n}`);
    view('made-up-0', 'p-again');
    const counted = aggregates.popularity('t', { verbs: ['view'], limit: 100, sinceDays: 100_000 });
    assert.deepEqual(counted.map((item) => item.itemId), ['made-up-0', 'made-up-1', 'made-up-2']);
    assert.equal(counted[0]!.score, 2 * counted[1]!.score, 'a known item keeps counting');
    assert.equal(aggregates.interactions('t').itemIds.length, 3);
  });
});
