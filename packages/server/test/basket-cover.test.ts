/**
 * Basket completion by coverage (basket-cover.ts): partners that reach different baskets come before
 * a second partner of the same baskets, an item's history is bounded to its latest orders, and a
 * snapshot brings the kept orders back (an order still open goes on growing after a restore).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CoOccurrence, type CoOccurrenceKind, type PairChunk } from '../src/domains/recommendations/co-occurrence.js';
import { BasketMemory, ITEM_BASKETS, MAX_BASKETS, SERIAL_WRAP } from '../src/domains/recommendations/basket-cover.js';

const ids = (list: Array<{ itemId: string }>) => list.map((r) => r.itemId);

function order(pairs: CoOccurrence, key: string, items: string[], at = Date.UTC(2026, 10, 1)): void {
  for (const item of items) pairs.addOrderItem(key, item, at);
}

/** A snapshot's chunks through JSON, as the snapshot writer stores them. */
function roundTrip(pairs: CoOccurrence): CoOccurrence {
  const copy = new CoOccurrence();
  for (const chunk of pairs.save()) copy.restore(JSON.parse(JSON.stringify(chunk)) as [CoOccurrenceKind, PairChunk]);
  return copy;
}

describe('basket completion by coverage', () => {
  it('puts a partner of other baskets before the twin of the first pick', () => {
    const pairs = new CoOccurrence();
    // Cup, saucer and plate are always bought together (3 orders); the teapot with the cup alone (2 orders).
    for (let n = 0; n < 3; n++) order(pairs, `set-${n}`, ['cup', 'saucer', 'plate']);
    for (let n = 0; n < 2; n++) order(pairs, `tea-${n}`, ['cup', 'teapot']);
    // Raw counts: saucer 3, plate 3, teapot 2.
    assert.deepEqual(ids(pairs.related('order', 'cup', 3)).slice(2), ['teapot']);
    const covered = pairs.coveringOrders(['cup'], 3);
    assert.equal(covered.length, 3);
    assert.ok(['saucer', 'plate'].includes(covered[0]!.itemId));
    assert.equal(covered[1]!.itemId, 'teapot', JSON.stringify(covered));
    // The gains never rise along the list: the first reaches 3 orders, the teapot 2, the twin 3 × 0.6.
    assert.ok(covered[0]!.score > covered[1]!.score && covered[1]!.score > covered[2]!.score, JSON.stringify(covered));
    assert.ok(Math.abs(covered[2]!.score - 1.8) < 0.01, JSON.stringify(covered));
  });

  it('covers the orders of several seeds at once and never lists a seed', () => {
    const pairs = new CoOccurrence();
    order(pairs, 'a', ['cup', 'saucer']);
    order(pairs, 'b', ['teapot', 'kettle']);
    order(pairs, 'c', ['cup', 'teapot', 'tray']);
    const covered = ids(pairs.coveringOrders(['cup', 'teapot'], 10));
    assert.deepEqual([...covered].sort(), ['kettle', 'saucer', 'tray']);
  });

  it('completes a basket from items listed late in a large order', () => {
    const pairs = new CoOccurrence();
    // Two wholesale orders of 150 lines: the lantern and its candles come after the first 100 lines.
    for (let n = 0; n < 2; n++) {
      const lines = Array.from({ length: 150 }, (_, k) => `line-${n}-${k}`);
      lines[120] = 'lantern';
      lines[130] = 'candles';
      order(pairs, `wholesale-${n}`, lines);
    }
    order(pairs, 'small', ['lantern', 'matches']);
    const covered = ids(pairs.coveringOrders(['lantern'], 3));
    // The candles were in both large orders with the lantern: they come first, then what else filled them.
    assert.equal(covered[0], 'candles', JSON.stringify(covered));
    assert.ok(!covered.includes('lantern'));
  });

  it("reads only an item's latest orders", () => {
    const pairs = new CoOccurrence();
    // Old orders pair the hub with "old"; the latest ITEM_BASKETS with "new", once each.
    for (let n = 0; n < 50; n++) order(pairs, `old-${n}`, ['hub', 'old']);
    for (let n = 0; n < ITEM_BASKETS; n++) order(pairs, `new-${n}`, ['hub', `new-${n}`]);
    const covered = ids(pairs.coveringOrders(['hub'], 1000));
    assert.equal(covered.length, ITEM_BASKETS);
    assert.ok(!covered.includes('old'));
    // Counts still know the old partner (the strategy lists it after the covering picks).
    assert.equal(ids(pairs.related('order', 'hub', 1))[0], 'old');
    assert.ok(MAX_BASKETS >= ITEM_BASKETS);
  });

  it('comes back from a snapshot the same, and an open order keeps growing after it', () => {
    const pairs = new CoOccurrence();
    for (let n = 0; n < 3; n++) order(pairs, `set-${n}`, ['cup', 'saucer', 'plate']);
    order(pairs, 'tea-0', ['cup', 'teapot']);
    order(pairs, 'open', ['cup']);
    const restored = roundTrip(pairs);
    assert.deepEqual(restored.coveringOrders(['cup'], 10), pairs.coveringOrders(['cup'], 10));
    // The open order gets a teapot on both: the restored copy counts it in the same order (2 orders with the cup).
    for (const p of [pairs, restored]) order(p, 'open', ['teapot']);
    const after = restored.coveringOrders(['cup'], 10);
    assert.deepEqual(after, pairs.coveringOrders(['cup'], 10));
    assert.equal(after[1]!.itemId, 'teapot');
    assert.ok(Math.abs(after[1]!.score - 2) < 0.01, JSON.stringify(after));
  });

  it('keeps, saves and covers orders across the wrap of their numbers', () => {
    // Three orders numbered just below the wrap (as a long-running shop's snapshot brings them back), three after it.
    const memory = new BasketMemory();
    memory.restore([
      [SERIAL_WRAP - 3, 1, [0, 1]],
      [SERIAL_WRAP - 2, 1, [0, 2]],
      [SERIAL_WRAP - 1, 1, [0, 3]],
    ]);
    const after = [4, 5, 6].map((item) => {
      const items = [0, item];
      const serial = memory.open(1, items);
      for (const n of items) memory.addItem(serial, n);
      return serial;
    });
    assert.deepEqual(after, [0, 1, 2]);
    const saved = [...memory.saved()];
    assert.deepEqual(saved.map(([serial]) => serial), [SERIAL_WRAP - 3, SERIAL_WRAP - 2, SERIAL_WRAP - 1, 0, 1, 2], 'oldest first, across the wrap');
    assert.deepEqual(memory.cover([0], 10, 10, () => 0).map((pick) => pick.item).sort(), [1, 2, 3, 4, 5, 6]);
    // The snapshot restores the same memory.
    const copy = new BasketMemory();
    copy.restore(saved);
    assert.deepEqual(copy.cover([0], 10, 10, () => 0), memory.cover([0], 10, 10, () => 0));
    // The last order before the wrap is let go only when MAX_BASKETS orders came after it.
    for (let n = after.length; n < MAX_BASKETS - 1; n++) memory.open(1, []);
    assert.ok(memory.holds(SERIAL_WRAP - 1), 'still kept after MAX_BASKETS - 1 newer orders');
    memory.open(1, []);
    assert.ok(!memory.holds(SERIAL_WRAP - 1), 'let go by the next');
  });
});
