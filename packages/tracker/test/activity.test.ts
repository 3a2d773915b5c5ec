/** The tracker's DOM-free parts in Node: activity ids, intents to activities, prices in cents, orders, batches. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { activityFromIntent, newActivityId, purchaseIntents, toCents } from '../src/activity.js';
import { batchBodies, MAX_BATCH, MAX_BODY_BYTES, postBatch } from '../src/delivery.js';

describe('activity ids', () => {
  it('are unique and sort in creation order, even within one millisecond', () => {
    const ids = Array.from({ length: 1000 }, () => newActivityId(1_795_000_000_000));
    assert.equal(new Set(ids).size, 1000);
    assert.deepEqual([...ids].sort(), ids);
    assert.ok(newActivityId(1_795_000_000_001) > ids[999]!);
    assert.match(ids[0]!, /^[0-9a-z]{13}-[0-9a-v]{16}$/);
  });
});

describe('activityFromIntent', () => {
  it('targets the product, or else the given page, and keeps source and metadata', () => {
    const now = Date.parse('2026-11-21T12:00:00Z');
    const click = activityFromIntent({ action: 'click', productId: '84029', sourceId: 'reco-1', metadata: { widgetId: 'w' } }, '/cart', now);
    assert.deepEqual({ ...click, id: undefined }, {
      id: undefined,
      action: 'click',
      target: { product: '84029' },
      sourceId: 'reco-1',
      metadata: { widgetId: 'w' },
      timestamp: '2026-11-21T12:00:00.000Z',
    });
    assert.deepEqual(activityFromIntent({ action: 'view' }, '/search?q=heart', now).target, { page: '/search?q=heart' });
    assert.deepEqual(activityFromIntent({ action: 'view', page: '/c/gifts' }, '/x', now).target, { page: '/c/gifts' });
    assert.equal('metadata' in activityFromIntent({ action: 'view', metadata: {} }, '/', now), false);
  });
});

describe('prices and orders', () => {
  it('turns decimal prices into integer cents without float noise', () => {
    assert.equal(toCents(2.55), 255);
    assert.equal(toCents(0.29), 29);
    assert.equal(toCents('19.99'), 1999);
    assert.equal(toCents(-1), undefined);
    assert.equal(toCents('free'), undefined);
    assert.equal(toCents(undefined), undefined);
  });

  it('makes one purchase per product, each with the order id', () => {
    const intents = purchaseIntents({ orderId: 'o-7', currency: 'EUR', items: [{ productId: 'a', price: 1.5, quantity: 3 }, { productId: 'b' }] });
    assert.deepEqual(intents, [
      { action: 'purchase', productId: 'a', metadata: { orderId: 'o-7', price: 150, quantity: 3, currency: 'EUR' } },
      { action: 'purchase', productId: 'b', metadata: { orderId: 'o-7', currency: 'EUR' } },
    ]);
  });
});

describe('delivery', () => {
  it('splits batches by count and by body size', () => {
    const small = Array.from({ length: MAX_BATCH + 1 }, () => activityFromIntent({ action: 'view', productId: 'p' }, '/'));
    assert.deepEqual(batchBodies(small).map((b) => b.length), [MAX_BATCH, 1]);
    const big = Array.from({ length: 4 }, () => activityFromIntent({ action: 'view', productId: 'p', metadata: { note: 'x'.repeat(25_000) } }, '/'));
    const bodies = batchBodies(big);
    assert.deepEqual(bodies.map((b) => b.length), [2, 2]);
    for (const body of bodies) assert.ok(JSON.stringify(body).length < MAX_BODY_BYTES);
  });

  it('keeps a batch for a retry when the server cannot be reached', async () => {
    const batch = [activityFromIntent({ action: 'view', productId: 'p' }, '/')];
    const result = await postBatch('http://127.0.0.1:2/collect/key', batch);
    assert.deepEqual(result, { delivered: [], refused: [], retry: [batch[0]!.id] });
  });
});
