/** Co-occurrence memory is bounded per item: an item that meets thousands of others keeps its strongest partners only. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CoOccurrence, MAX_RELATED } from '../src/domains/recommendations/co-occurrence.js';

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
