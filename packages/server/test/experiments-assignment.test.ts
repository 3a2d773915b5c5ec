import { test } from 'node:test';
import assert from 'node:assert/strict';
import { drawAbTestVariationForUser } from '@attraqt/ab-test';
import { drawVariant, searchShopperId } from '../src/domains/experiments/assignment.js';

/** A deterministic spread of ids: ASCII profile ids, UUID-like session ids, and non-ASCII names (accents, CJK, emoji's surrogate pairs). */
function shopperIds(count: number): string[] {
  const ids: string[] = [];
  let seed = 12345;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
  const alphabets = ['abcdefghijklmnopqrstuvwxyz0123456789-_', 'éèàüößçñøå', '日本語中文한국어', '😀🛒🎁', 'ЖжЯяЩщ'];
  for (let i = 0; i < count; i++) {
    const alphabet = [...alphabets[i % alphabets.length]!];
    const length = 1 + (next() % 40);
    let id = i % 7 === 0 ? `p_${i}` : '';
    for (let c = 0; c < length; c++) id += alphabet[next() % alphabet.length];
    ids.push(id);
  }
  ids.push('', 'a', 'ab', 'abc', 'abcd', 'Müller', 'sess-🍕', '\u0000\u00ff\u0100\uffff');
  return ids;
}

const experiments = [
  { id: 'trending-vs-popular', variations: [{ id: 'control', weight: 50 }, { id: 'b', weight: 50 }] },
  { id: 'exp-3', variations: [{ id: 'control', weight: 34 }, { id: 'b', weight: 33 }, { id: 'c', weight: 33 }] },
  { id: 'skewed', variations: [{ id: 'control', weight: 90 }, { id: 'b', weight: 5 }, { id: 'c', weight: 3 }, { id: 'd', weight: 1 }, { id: 'e', weight: 1 }] },
  { id: 'éxpérience-日本', variations: [{ id: 'control', weight: 1 }, { id: 'b', weight: 99 }] },
];

test('the server draws every shopper into the variation @attraqt/ab-test draws, bucket included', () => {
  const ids = shopperIds(20_000);
  let compared = 0;
  for (const experiment of experiments) {
    for (const id of ids) {
      const theirs = drawAbTestVariationForUser(id, experiment);
      const ours = drawVariant(id, experiment.id, experiment.variations);
      if (ours.bucket !== theirs.bucket || ours.variantId !== theirs.variationId) {
        assert.fail(`shopper ${JSON.stringify(id)} in ${experiment.id}: server bucket ${ours.bucket} / ${ours.variantId}, package ${theirs.bucket} / ${theirs.variationId}`);
      }
      compared++;
    }
  }
  assert.ok(compared > 80_000);
});

test('buckets spread evenly: each variant of a 50/50 test gets about half of 20,000 shoppers', () => {
  const ids = Array.from({ length: 20_000 }, (_, i) => `shopper-${i}`);
  const control = ids.filter((id) => drawVariant(id, 'even', [{ id: 'control', weight: 50 }, { id: 'b', weight: 50 }]).variantId === 'control').length;
  assert.ok(Math.abs(control / ids.length - 0.5) < 0.02, `control share ${control / ids.length}`);
});

test('a search names its shopper by context.session: the sessionId entry, else the first entry', () => {
  assert.equal(searchShopperId({ context: { session: { customerId: 'c-1', sessionId: 's-1' } } }), 's-1');
  assert.equal(searchShopperId({ context: { session: { customerId: 'c-1', other: 'o' } } }), 'c-1');
  assert.equal(searchShopperId({ context: { session: {} } }), undefined);
  assert.equal(searchShopperId({ context: { session: { sessionId: 42 } } }), undefined);
  assert.equal(searchShopperId({ query: 'x' }), undefined);
  assert.equal(searchShopperId({ context: { session: { sessionId: 'x'.repeat(201) } } }), undefined);
});
