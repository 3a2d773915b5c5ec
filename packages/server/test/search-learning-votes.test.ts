// Search learning's votes as tracking folds them: one per shopper, query, item and day (once ever
// without a verified search id), decayed with the configured half-life, bounded per tenant, erased
// with the shopper, and the same after a snapshot's save and restore.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DAY_MS, ManualClock } from '../src/platform/clock.js';
import { searchConfigurationSchema } from '../src/platform/config/schema.js';
import type { LoggedActivity } from '../src/domains/tracking/activity-record.js';
import { MAX_QUERIES, SearchLearning } from '../src/domains/search/learning/search-learning.js';
import { textKey } from '../src/domains/search/learning/query-key.js';

const T = 'tenant-a';
const settings = searchConfigurationSchema.parse({ id: 'default' }).learning;

function learningWith(clock: ManualClock): SearchLearning {
  return new SearchLearning({ clock, keyOf: (_tenant, query) => textKey(query, 'english') });
}

let next = 0;
function activity(clock: ManualClock, shopper: string, item: string, query: string, extra: Partial<LoggedActivity> = {}): LoggedActivity {
  return { kind: 'activity', id: String(next++), tenant: T, profileId: shopper, source: 'collect', verb: 'click', type: 'product', itemId: item, timestamp: clock.now(), receivedAt: clock.now(), query, ...extra };
}

describe('search learning votes', () => {
  it('counts a shopper once per query and item without a verified search id, and once a day with one', () => {
    const clock = new ManualClock();
    const learning = learningWith(clock);
    for (let day = 0; day < 3; day++) {
      for (const shopper of ['a', 'b', 'c']) {
        learning.fold(T, activity(clock, shopper, 'unverified', 'lamps'), undefined);
        learning.fold(T, { ...activity(clock, shopper, 'verified', 'lamp'), attribution: 'verified' } as LoggedActivity, undefined);
      }
      clock.advance(DAY_MS);
    }
    const items = learning.explain(T, textKey('lamp', 'english'), settings).items;
    assert.deepEqual(items.map((item) => [item.id, item.clicks, item.shoppers]), [['verified', 9, 3], ['unverified', 3, 3]]);
  });

  it('halves a vote after the configured half-life', () => {
    const clock = new ManualClock();
    const learning = learningWith(clock);
    for (const shopper of ['a', 'b', 'c']) learning.fold(T, activity(clock, shopper, 'old', 'rug'), undefined);
    const key = textKey('rug', 'english');
    const fresh = learning.explain(T, key, settings).items[0]!.strength;
    clock.advance(settings.halfLifeDays * DAY_MS);
    assert.equal(learning.explain(T, key, settings).items[0]!.strength, fresh / 2);
  });

  it('erases a shopper’s votes, and moves nothing once too few shoppers are left', () => {
    const clock = new ManualClock();
    const learning = learningWith(clock);
    for (const shopper of ['a', 'b', 'c']) learning.fold(T, activity(clock, shopper, 'vase-1', 'vase'), undefined);
    const key = textKey('vase', 'english');
    assert.ok(learning.lifts(T, key, settings)?.has('vase-1'));
    learning.forgetProfiles(T, ['b']);
    assert.equal(learning.explain(T, key, settings).votes, 2);
    assert.equal(learning.lifts(T, key, settings), undefined, 'two shoppers left: below minShoppers');
  });

  it('keeps at most MAX_QUERIES keys per tenant, dropping the least used', () => {
    const clock = new ManualClock();
    const learning = learningWith(clock);
    for (const shopper of ['a', 'b', 'c']) learning.fold(T, activity(clock, shopper, 'kept', 'favourite'), undefined);
    for (let q = 0; q < MAX_QUERIES + 50; q++) {
      // The favourite is searched (used) while new keys arrive: it stays, the oldest unused ones go.
      if (q % 100 === 0) learning.lifts(T, textKey('favourite', 'english'), settings);
      // A shopper each: one shopper's run of searches would also make keys of the products they lead to.
      learning.fold(T, activity(clock, `s${q}`, 'x', `query${q}`), undefined);
    }
    assert.equal(learning.keyCount(), MAX_QUERIES);
    assert.ok(learning.has(T, textKey('favourite', 'english')));
    assert.equal(learning.has(T, textKey('query0', 'english')), false);
  });

  it('restores from its snapshot part what it saved', () => {
    const clock = new ManualClock();
    const learning = learningWith(clock);
    for (const shopper of ['a', 'b', 'c']) learning.fold(T, activity(clock, shopper, 'mug-1', 'mug', { details: { metadata: { position: 7 } } }), undefined);
    learning.fold(T, activity(clock, 'a', 'mug-1', 'mug', { verb: 'purchase', query: undefined }), undefined);
    const saved = [...learning.snapshot.save(T)];
    const copy = learningWith(clock);
    for (const chunk of JSON.parse(JSON.stringify(saved)) as unknown[]) copy.snapshot.restore(T, chunk);
    const key = textKey('mug', 'english');
    assert.deepEqual(copy.explain(T, key, settings), learning.explain(T, key, settings));
    assert.equal(copy.explain(T, key, settings).items[0]!.purchases, 1, 'the purchase was credited through the remembered click');
    // The remembered clicks came back too: a later add-to-cart is still credited.
    copy.fold(T, activity(clock, 'b', 'mug-1', 'mug', { verb: 'add-to-cart', query: undefined }), undefined);
    assert.equal(copy.explain(T, key, settings).items[0]!.addToCarts, 1);
  });

  it('keeps the queries that lead to products, and the searches still open, through a snapshot', () => {
    const clock = new ManualClock();
    const learning = learningWith(clock);
    const searched = (shopper: string, query: string) => learning.fold(T, { ...activity(clock, shopper, '/search', query), type: 'page', verb: 'view' }, undefined);
    for (const shopper of ['a', 'b', 'c']) {
      searched(shopper, 'kittyhome');
      learning.fold(T, activity(clock, shopper, 'cat-doorstop', 'cat', { verb: 'add-to-cart' }), undefined);
    }
    searched('d', 'kittyhome');
    const key = textKey('kittyhome', 'english');
    assert.deepEqual([...(learning.leads(T, key, settings) ?? new Map()).keys()], ['cat-doorstop']);
    const copy = learningWith(clock);
    for (const chunk of JSON.parse(JSON.stringify([...learning.snapshot.save(T)])) as unknown[]) copy.snapshot.restore(T, chunk);
    assert.deepEqual(copy.explain(T, key, settings), learning.explain(T, key, settings));
    // Shopper d searched before the snapshot and buys after it: still a lead.
    copy.fold(T, activity(clock, 'd', 'cat-doorstop', 'cat', { verb: 'purchase' }), undefined);
    assert.equal(copy.explain(T, key, settings).leads[0]!.shoppers, 4);
    copy.forgetProfiles(T, ['a', 'b']);
    assert.equal(copy.leads(T, key, settings), undefined, 'two shoppers left: below minShoppers');
  });
});
