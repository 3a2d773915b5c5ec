/**
 * The vendor's published search definition (`@attraqt/search-commons` 2.0.0 and 3.0.0, typed here
 * through npm aliases) against the real server: every request field accepted and honoured, the
 * response fields it promises present, and each bad input refused with a 400 naming the field.
 * docs/search-definition.md lists each field with its test here.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type * as V2 from 'search-commons-2';
import type * as V3 from 'search-commons-3';
import { shopperIdOf } from '../src/apis/search/search-context.js';
import { ids, startDefinitionShop, TOKEN, type DefinitionShop } from './support/definition-shop.js';

let shop: DefinitionShop;
before(async () => {
  shop = await startDefinitionShop();
});
after(() => shop.server.cleanup());

const noItemOptions = { sortBy: [], facets: [], disable: [] };

describe('search definition: items', () => {
  it('itemOptions pages, filters and sorts like options; sent both, itemOptions wins', async () => {
    const itemOptions: V3.SearchItemOptions = { ...noItemOptions, limit: 2, filter: 'price < 1000' };
    const found = await shop.search({ query: '', itemOptions });
    assert.deepEqual(ids(found), ['p4', 'p3']);
    assert.equal(found.metadata.count, 4);
    assert.equal(found.metadata.limit, 2);
    const older = await shop.search({ query: '', options: itemOptions });
    assert.deepEqual(ids(older), ids(found));
    const both = await shop.search({ query: '', options: { limit: 10 }, itemOptions: { limit: 1, sortBy: [{ attribute: 'price', order: 'desc' }] } });
    assert.deepEqual(ids(both), ['p-silk']);
    assert.equal(both.metadata.limit, 1);
  });

  it('groupOptions returns groups beside items in one answer, with its own filter, sort and mask', async () => {
    const found = await shop.search({
      query: 'lamp',
      itemOptions: { limit: 2 },
      groupOptions: { groupBy: { attribute: 'brand', size: 1, values: [] }, sortBy: [{ attribute: 'price', order: 'asc' }], filter: 'price > 1000', customResponseMask: 'id' },
    });
    assert.deepEqual(ids(found), ['p9', 'p8']);
    assert.deepEqual(found.groups, [{ value: 'Lumo', count: 3, items: [{ id: 'p9' }] }]);
    const noGroupBy = await shop.search({ query: 'lamp', groupOptions: { sortBy: [] } });
    assert.deepEqual(noGroupBy.groups, []);
    assert.equal((await shop.search({ query: 'lamp' })).groups, undefined);
  });

  it('a facet named by its deprecated attribute (the 2.0 shape) selects like one named by id', async () => {
    const facet: V2.FacetRequestOptions = { attribute: 'brand', id: '', values: ['Acme'] };
    const byAttribute = await shop.search({ query: 'shirt', itemOptions: { facets: [facet] } });
    assert.deepEqual(ids(byAttribute).sort(), ['p-silk', 'p2']);
    const byId = await shop.search({ query: 'shirt', itemOptions: { facets: [{ id: 'brand-facet', values: ['Acme'] }] } });
    assert.deepEqual(byId.metadata.facets, byAttribute.metadata.facets);
    const facetOut: V2.SearchResponseMetadata_Facet = byId.metadata.facets[0];
    assert.deepEqual([facetOut.id, facetOut.attribute, facetOut.values.find((v) => v.selected)?.value], ['brand-facet', 'brand', 'Acme']);
    const both = await shop.search({ query: 'shirt', itemOptions: { facets: [{ id: 'brand-facet', attribute: 'title', values: ['Home'] }] } });
    assert.deepEqual(ids(both), [], 'the id decides when both are given');
  });

  it('a full 2.0 request (context.variables as a map, aiSearch) and a full 3.0 request (contextVariables) are answered', async () => {
    const v2: V2.SearchRequest = {
      token: TOKEN,
      query: 'lamp',
      itemOptions: { offset: 0, limit: 3, sortBy: [], facets: [{ attribute: 'brand', id: 'brand-facet', values: [] }], disable: [], customResponseMask: 'id', aiSearch: false },
      context: { session: { sessionId: 'shopper-1' }, variables: { store: 'paris', visits: 3 } },
      configurationId: 'default',
      disable: [{ name: 'redirect' }],
    };
    const two = await shop.post('/search', v2);
    assert.equal(two.status, 200, JSON.stringify(two.body));
    // The lamp rule's pin, then the Paris store rule's (the configuration's order), then the matches.
    assert.deepEqual(two.body.items, [{ id: 'p9' }, { id: 'p-paris' }, { id: 'p8' }]);
    const v3: V3.SearchRequest = {
      token: TOKEN,
      query: 'lamp',
      itemOptions: { sortBy: [], facets: [{ id: 'brand-facet', values: [] }], disable: [], limit: 3, aiSearch: true },
      context: { session: { sessionId: 'shopper-1' }, contextVariables: [{ name: 'store', value: { stringValue: 'paris' } }, { name: 'visit', value: { dateValue: new Date('2026-11-28T10:00:00Z') } }] },
      disable: [],
    };
    const three = await shop.post('/search', v3);
    assert.equal(three.status, 200, JSON.stringify(three.body));
    assert.deepEqual(ids(three.body), ['p9', 'p-paris', 'p8']);
    const response: V3.SearchResponse = three.body as V3.SearchResponse;
    assert.equal(response.metadata?.configurationId, 'default');
    assert.equal(response.metadata?.defaultConfigurationId, 'default');
  });

  it('names the shopper from context.session: its sessionId entry, else its first', () => {
    assert.equal(shopperIdOf({ customerId: 'c-1', sessionId: 's-1' }), 's-1');
    assert.equal(shopperIdOf({ sessionid: 's-2' }), 's-2');
    assert.equal(shopperIdOf({ customerId: 'c-1', email: 'e' }), 'c-1');
    assert.equal(shopperIdOf({}), undefined);
  });
});

describe('search definition: autocomplete', () => {
  it('counts each suggestion, honours filter and disable, and answers metadata.count and defaultConfigurationId', async () => {
    for (const query of ['lamp', 'lampshade']) {
      await shop.search({ query });
      for (const sessionId of ['s1', 's2']) {
        const res = await shop.post('/collect/tenant-a-tracker', { action: 'view', target: { page: '/search' }, sourceId: 's', user: { sessionId }, metadata: { query } });
        assert.equal(res.status, 200);
      }
    }
    const request: V3.AutocompleteRequest = { token: TOKEN, query: 'lam', disable: [] };
    const all = await shop.post('/search/autocomplete', request);
    assert.equal(all.status, 200, JSON.stringify(all.body));
    assert.deepEqual(all.body.suggestions.map((s: V3.Suggestion) => [s.suggestion, s.count]), [['lamp', 3], ['lampshade', 1]]);
    const metadata: V3.AutocompleteResponseMetadata = all.body.metadata;
    assert.deepEqual([metadata.count, metadata.configurationId, metadata.defaultConfigurationId], [2, 'default', 'default']);
    const cheap = await shop.post('/search/autocomplete', { ...request, options: { filter: 'price < 2000' } });
    assert.deepEqual(cheap.body.suggestions.map((s: V3.Suggestion) => [s.suggestion, s.count]), [['lamp', 1], ['lampshade', 1]]);
    // Floor Lamp, and the Lampshade the lamp rule pins (a pinned item is shown whatever the filter).
    const dear = await shop.post('/search/autocomplete', { ...request, options: { filter: 'price > 4000' } });
    assert.deepEqual(dear.body.suggestions.map((s: V3.Suggestion) => [s.suggestion, s.count]), [['lamp', 2]]);
    assert.equal(dear.body.metadata.count, 1);
    const uncounted = await shop.post('/search/autocomplete', { ...request, disable: [{ name: 'item' }] });
    assert.deepEqual(uncounted.body.suggestions, [{ suggestion: 'lamp', highlights: [[0, 3]] }, { suggestion: 'lampshade', highlights: [[0, 3]] }]);
    const categories = await shop.post('/search/autocomplete', { ...request, options: { categories: true } });
    assert.deepEqual(categories.body.suggestions[1].category, { facetId: 'brand-facet', attribute: 'brand', value: 'Lumo', count: 3 });
    const noCategories = await shop.post('/search/autocomplete', { ...request, options: { categories: true }, disable: [{ name: 'facet' }] });
    assert.equal(noCategories.body.suggestions.filter((s: { category?: unknown }) => s.category !== undefined).length, 0);
  });
});

describe('search definition: bad input', () => {
  const refused = async (body: Record<string, unknown>, field: string, message: RegExp) => {
    const res = await shop.post('/search', { token: TOKEN, query: 'lamp', ...body });
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.error.field, field, JSON.stringify(res.body));
    assert.match(res.body.error.message, message);
  };

  it('refuses itemOptions, groupOptions and facets of the wrong type, naming the field', async () => {
    await refused({ itemOptions: 'limit=5' }, 'itemOptions', /object/);
    await refused({ itemOptions: { limit: '5' } }, 'itemOptions.limit', /number/);
    await refused({ groupOptions: { groupBy: { attribute: '' } } }, 'groupOptions.groupBy.attribute', /./);
    await refused({ itemOptions: { facets: [{ values: ['x'] }] } }, 'itemOptions.facets[0].id', /attribute/);
  });

  it('refuses a context that is not an object, a session with non-string ids, and typed values that are not one type', async () => {
    await refused({ context: 'paris' }, 'context', /must be an object/);
    await refused({ context: { session: { sessionId: 42 } } }, 'context.session.sessionId', /string/);
    await refused({ context: { contextVariables: [{ name: 'store', value: { stringValue: 'paris', longValue: 1 } }] } }, 'context.contextVariables[0].value', /2 value types \(stringValue, longValue\)/);
    await refused({ context: { contextVariables: [{ name: 'store', value: { uuidValue: 'x' } }] } }, 'context.contextVariables[0].value.uuidValue', /not a value type/);
    await refused({ context: { contextVariables: [{ name: 'visit', value: { dateValue: 'yesterday' } }] } }, 'context.contextVariables[0].value.dateValue', /ISO 8601/);
    await refused({ context: { variables: { store: { value: 'paris' } } } }, 'context.variables.store.value', /not a value type/);
    await refused({ context: { contextVariables: [{ name: 'store', value: { longValue: 5 } }] } }, 'context.contextVariables[0].value', /declares "store" as string/);
    await refused({ context: { sessions: {} } }, 'context.sessions', /not a field/);
  });

  it('refuses a value over 1,000 characters and more than 50 variables, naming the limit; ignores an undeclared variable', async () => {
    await refused({ context: { variables: { store: 'x'.repeat(1001) } } }, 'context.variables.store', /1,000 characters/);
    await refused({ context: { contextVariables: [{ name: 'segment', value: { stringListValue: { values: ['x'.repeat(600), 'y'.repeat(600)] } } }] } }, 'context.contextVariables[0].value.stringListValue.values', /1,000 characters/);
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`v${i}`, 'x']));
    await refused({ context: { variables: many } }, 'context', /51 variables; at most 50/);
    const ignored = await shop.search({ query: 'lamp', context: { variables: { weather: 'rain', campaign: { boolValue: true } } } });
    assert.deepEqual(ids(ignored), ids(await shop.search({ query: 'lamp' })));
  });

  it('refuses a bad autocomplete filter or disable, naming the field', async () => {
    const filter = await shop.post('/search/autocomplete', { token: TOKEN, query: 'lam', options: { filter: 'price <' } });
    assert.equal(filter.status, 400);
    const disable = await shop.post('/search/autocomplete', { token: TOKEN, query: 'lam', disable: [{ name: 'everything' }] });
    assert.equal(disable.status, 400);
    assert.equal(disable.body.error.field, 'disable[0].name');
  });
});
