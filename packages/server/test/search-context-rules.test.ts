/**
 * Rules triggered by context: a search configuration's rules and redirects with `when` conditions on
 * the request's context variables (the published definition's `context.variables` and
 * `context.contextVariables`), typed values compared as their types; explain names the rule that
 * fired and the variable it fired on; a condition the configuration cannot honour stops it loading.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { validateConfig } from '../src/platform/config/load.js';
import { adminToken } from './support/admin-fixture.js';
import { call, FIXTURES, testConfigWithSearch } from './support/test-server.js';
import { CONFIGURATION, ids, startDefinitionShop, type DefinitionShop } from './support/definition-shop.js';

let shop: DefinitionShop;
before(async () => {
  shop = await startDefinitionShop();
});
after(() => shop.server.cleanup());

const typed = (name: string, value: Record<string, unknown>) => ({ contextVariables: [{ name, value }] });

describe('rules triggered by context', () => {
  it('a store variable pins the Paris store product for every query, in either form, and only in Paris', async () => {
    const forms = [{ variables: { store: 'paris' } }, { variables: { store: { stringValue: 'paris' } } }, typed('store', { stringValue: 'Paris' }), { variables: [{ name: 'store', value: { stringValue: 'paris' } }] }];
    for (const context of forms) {
      assert.deepEqual(ids(await shop.search({ query: 'shirt', context })).slice(0, 1), ['p-paris'], JSON.stringify(context));
    }
    assert.deepEqual(ids(await shop.search({ query: '', itemOptions: { limit: 2 }, context: { variables: { store: 'paris' } } })), ['p-paris', 'p4']);
    // The same query right after, in Lyon and without context: the cached Paris answer is not reused.
    assert.ok(!ids(await shop.search({ query: 'shirt', context: { variables: { store: 'lyon' } } })).includes('p-paris'));
    assert.ok(!ids(await shop.search({ query: 'shirt' })).includes('p-paris'));
  });

  it('a list condition holds when the shopper is in one of its segments, and combines with the rule query', async () => {
    const plain = ids(await shop.search({ query: 'shirt' }));
    assert.deepEqual(plain, ['p2', 'p-silk']);
    assert.deepEqual(ids(await shop.search({ query: 'shirt', context: typed('segment', { stringListValue: { values: ['new', 'vip'] } }) })), ['p-silk', 'p2']);
    assert.deepEqual(ids(await shop.search({ query: 'shirt', context: { variables: { segment: 'staff' } } })), ['p-silk', 'p2']);
    assert.deepEqual(ids(await shop.search({ query: 'shirt', context: { variables: { segment: ['guest'] } } })), plain);
    // The rule names the query too: another query is not boosted.
    assert.deepEqual(ids(await shop.search({ query: 'silk', context: { variables: { segment: ['vip'] } } })), ['p-silk']);
  });

  it('a date condition holds within its range (a date-only end takes the whole day), and its rule filters the items', async () => {
    const during = (dateValue: string) => shop.search({ query: 'lamp', context: typed('visit', { dateValue }) });
    assert.deepEqual(ids(await during('2026-12-10T09:00:00Z')), ['p9', 'p7']);
    assert.deepEqual(ids(await during('2026-12-24T23:30:00Z')), ['p9', 'p7']);
    assert.deepEqual(ids(await during('2026-12-25T00:00:01Z')), ['p9', 'p8', 'p7']);
    assert.deepEqual(ids(await shop.search({ query: 'lamp', context: { variables: { visit: '2026-12-02' } } })), ['p9', 'p7']);
  });

  it('number and boolean conditions compare as numbers and booleans (longs sent as strings too)', async () => {
    assert.deepEqual(ids(await shop.search({ query: 'lamp', context: typed('visits', { longValue: '12' }) })), ['p9', 'p7', 'p8']);
    assert.deepEqual(ids(await shop.search({ query: 'lamp', context: { variables: { visits: 9 } } })), ['p9', 'p8', 'p7']);
    const sale = (member: boolean) => shop.search({ query: 'sale', context: typed('member', { boolValue: member }) });
    assert.deepEqual((await sale(true)).items[0].redirect, { id: 'vip-sale', name: 'Members sale', url: 'https://shop.example/members' });
    assert.deepEqual((await sale(false)).items, []);
    // A double compares as a number, and a double variable takes a long's value.
    const towel = async (value: Record<string, unknown>) => ids(await shop.search({ query: 'towel', context: typed('basket', value) }));
    assert.deepEqual(await towel({ doubleValue: 49.5 }), ['p5', 'p4']);
    assert.deepEqual(await towel({ doubleValue: 49.49 }), ['p4']);
    assert.deepEqual(await towel({ longValue: 60 }), ['p5', 'p4']);
  });

  it('explain shows which rule fired and because of which variable', async () => {
    const authorization = `Bearer ${await adminToken(shop.server, shop.clock.now(), 'client-a')}`;
    const explain = (context?: unknown) =>
      call(`${shop.server.url}/admin/search-tokens/shop-search/explain?environment=prod&q=lamp${context === undefined ? '' : `&context=${encodeURIComponent(JSON.stringify(context))}`}`, { headers: { authorization } });
    const paris = await explain({ contextVariables: [{ name: 'store', value: { stringValue: 'paris' } }, { name: 'visits', value: { longValue: 20 } }] });
    assert.equal(paris.status, 200, JSON.stringify(paris.body));
    assert.deepEqual(paris.body.fired, [
      { kind: 'rule', index: 0, query: 'lamp', because: [] },
      { kind: 'rule', index: 1, because: [{ variable: 'store', value: 'paris', condition: 'paris' }] },
      { kind: 'rule', index: 4, query: 'lamp', because: [{ variable: 'visits', value: '20', condition: { from: 10 } }] },
    ]);
    assert.deepEqual(paris.body.rule, { pin: ['p9', 'p-paris'], boost: [], bury: ['p8'] });
    assert.deepEqual(paris.body.hits.slice(0, 2).map((h: { id: string; rule: string }) => [h.id, h.rule]), [['p9', 'pinned'], ['p-paris', 'pinned']]);
    const plain = await explain();
    assert.deepEqual(plain.body.fired.map((f: { index: number }) => f.index), [0]);
    const bad = await explain({ contextVariables: [{ name: 'store', value: { stringValue: 'paris', boolValue: true } }] });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.field, 'context.contextVariables[0].value');
    const notJson = await call(`${shop.server.url}/admin/search-tokens/shop-search/explain?environment=prod&q=lamp&context=%7Bstore`, { headers: { authorization } });
    assert.deepEqual([notJson.status, notJson.body.error.field], [400, 'query.context']);
  });
});

describe('rule conditions at start-up', () => {
  const load = (rules: unknown[], extra: Record<string, unknown> = {}) => () =>
    validateConfig(testConfigWithSearch('shop-search', { ...CONFIGURATION, rules, redirects: [], ...extra }), '(test)', FIXTURES);

  it('refuses a condition on an undeclared variable or of a shape its type does not take, naming the field', () => {
    assert.throws(load([{ when: { region: 'north' }, pin: ['p1'] }]), /rules\.0\.when\.region|rules\[0\]\.when\.region/);
    assert.throws(load([{ when: { region: 'north' }, pin: ['p1'] }]), /"region" is not declared in contextVariables/);
    assert.throws(load([{ when: { visit: 'christmas' }, pin: ['p1'] }]), /a date variable takes a range of ISO dates/);
    assert.throws(load([{ when: { visits: 'many' }, pin: ['p1'] }]), /a long variable takes a number/);
    assert.throws(load([{ when: { member: 'yes' }, pin: ['p1'] }]), /a bool variable takes true or false/);
    assert.throws(load([{ when: { visit: { from: 'soon' } }, pin: ['p1'] }]), /ISO 8601/);
    assert.throws(load([{ pin: ['p1'] }]), /a rule needs a query, a when condition or both/);
    assert.throws(load([{ when: { store: 'paris' }, filter: 'price <' }]), /rules\.0\.filter|rules\[0\]\.filter/);
    assert.throws(load([], { contextVariables: { store: 'uuid' } }), /contextVariables/);
    assert.doesNotThrow(load([{ query: 'lamp', when: { store: ['paris', 'lyon'], visits: { from: 1, to: 5 } }, boost: ['p1'] }]));
  });
});
