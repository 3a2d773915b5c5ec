/**
 * Deleting a map's oldest entry with a walk that keeps its place (platform/collections/oldest-first.ts):
 * the order must stay the map's own insertion order through refreshes, additions after the walk ended,
 * clears and sets; and the profile history, which evicts with it, still lets the least recently active
 * profiles go first. Also the history's read-back: an activity the log read found before it was folded
 * here is listed once.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { deleteOldest, takeOldest } from '../src/platform/collections/oldest-first.js';
import { ProfileHistory } from '../src/domains/tracking/profile-history.js';
import type { LoggedActivity } from '../src/domains/tracking/activity-record.js';

/** A product view of `profileId`, numbered `n` (its id, item and times). */
function activity(profileId: string, n: number): LoggedActivity {
  return { kind: 'activity', id: `a${n}`, tenant: 't', profileId, source: 'collect', verb: 'view', type: 'product', itemId: `i${n}`, timestamp: n, receivedAt: n };
}

/** What `map.delete(map.keys().next().value)` would delete, checked against the helper at every step. */
function naiveOldest<K>(map: Map<K, unknown> | Set<K>): K | undefined {
  return map.size === 0 ? undefined : map.keys().next().value;
}

describe('deleting the oldest entry', () => {
  it('follows insertion order through refreshes, additions past the end of a walk, and clears', () => {
    const map = new Map<string, number>();
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    let deleted = 0;
    for (let step = 0; step < 20_000; step++) {
      const roll = random();
      const key = `k${Math.floor(random() * 300)}`;
      if (roll < 0.5) {
        // A least-recently-used refresh: deleted and set again, it moves to the end.
        map.delete(key);
        map.set(key, step);
      } else if (roll < 0.6) map.set(key, step);
      else if (roll < 0.995) {
        const expected = naiveOldest(map);
        assert.equal(deleteOldest(map), expected, `step ${step}`);
        if (expected !== undefined) deleted++;
        assert.equal(map.has(expected as string), false);
      } else map.clear();
    }
    assert.ok(deleted > 5_000, 'the walk was exercised');
    assert.equal(deleteOldest(new Map()), undefined);
  });

  it('takes the oldest entry of a map with its value, and works on sets', () => {
    const map = new Map([
      ['a', 1],
      ['b', 2],
    ]);
    map.delete('a');
    map.set('a', 3);
    assert.deepEqual(takeOldest(map), ['b', 2]);
    assert.deepEqual(takeOldest(map), ['a', 3]);
    assert.equal(takeOldest(map), undefined);
    map.set('c', 4);
    assert.deepEqual(takeOldest(map), ['c', 4], 'an entry set after the walk ended is found by a fresh one');
    const set = new Set(['x', 'y', 'z']);
    assert.equal(deleteOldest(set), 'x');
    set.add('x');
    assert.deepEqual([deleteOldest(set), deleteOldest(set), deleteOldest(set), deleteOldest(set)], ['y', 'z', 'x', undefined]);
  });
});

describe('the profile history past its budget', () => {
  it('lets the least recently active profiles go first, as a plain list of them would', () => {
    const budget = 60;
    const history = new ProfileHistory(budget);
    // The reference: profiles least recently active first, with how many activities each holds.
    const order: Array<{ id: string; kept: number }> = [];
    let seed = 3;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let n = 0; n < 5_000; n++) {
      // Mostly new shoppers, some returning: as the shop's traffic is.
      const id = random() < 0.6 ? `new-${n}` : `p${Math.floor(random() * 40)}`;
      history.add(id, activity(id, n));
      const at = order.findIndex((entry) => entry.id === id);
      const entry = at >= 0 ? order.splice(at, 1)[0]! : { id, kept: 0 };
      entry.kept++;
      order.push(entry);
      while (order.reduce((sum, e) => sum + e.kept, 0) > budget && order.length > 1) order.shift();
      if (n % 97 === 0) {
        for (const e of order) assert.equal(history.has(e.id), true, `${e.id} at ${n}`);
        assert.equal(history.size, order.reduce((sum, e) => sum + e.kept, 0));
      }
    }
    const kept = new Set(order.map((e) => e.id));
    for (let p = 0; p < 40; p++) assert.equal(history.has(`p${p}`), kept.has(`p${p}`), `p${p}`);
    // Counts stay for those that left memory; `newest` reads the newest first and stops at its limit.
    const returning = order.at(-1)!.id;
    assert.equal(history.newest(returning, () => true, 1)[0]!.id, 'a4999');
    assert.ok(history.count('p0') >= history.list('p0').length);
  });
});

describe('the profile history read back from the log', () => {
  it('lists once an activity the read found before it was folded here, and still counts it', () => {
    const history = new ProfileHistory(1_000);
    history.add('p', activity('p', 1));
    history.add('p', activity('p', 2));
    // The read ran while a third activity committed: it finds it before this process folds it.
    history.readmit('p', [activity('p', 1), activity('p', 2), activity('p', 3)]);
    assert.deepEqual(history.list('p').map((a) => a.id), ['a3', 'a2', 'a1']);
    history.add('p', activity('p', 3));
    assert.deepEqual(history.list('p').map((a) => a.id), ['a3', 'a2', 'a1'], 'not listed twice');
    assert.equal(history.count('p'), 3);
    assert.equal(history.size, 3);
    assert.equal(history.complete('p'), true);
    // Later activities are listed as usual, and the same id is not held back a second time.
    history.add('p', activity('p', 4));
    assert.deepEqual(history.list('p').map((a) => a.id), ['a4', 'a3', 'a2', 'a1']);
    assert.equal(history.count('p'), 4);
  });
});
