/**
 * Widgets' `where` filters in the search filter language: OR, NOT, IN and parentheses, search's
 * comparison rules, and `$variables` from the request (a comparison whose variable is absent is left out).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, startTestServer, type TestServer } from './support/test-server.js';
import { loadCatalog, recommendationConfig } from './support/recommendation-fixture.js';

const ids = (body: { recommendations: Array<{ product: { _id: { original_id: string } } }> }) => body.recommendations.map((r) => r.product._id.original_id).sort();
const vars = (value: unknown) => encodeURIComponent(JSON.stringify(value));

/** Every recommendable item passing the filter: the catalog fallback tops the widget up to all of them. */
const WHERE = {
  'w-or-in': "(brand = 'Acme' AND price < 85) OR brand IN ('Other')",
  'w-not': "NOT categories = 'shoes'",
  'w-case': "brand = 'ACME' AND in_stock = true",
  'w-vars': 'brand = $brand OR price < $maxPrice',
  'w-not-var': 'NOT price > $maxPrice',
};

describe('widget where filters', () => {
  let server: TestServer;
  const get = async (widget: string, variables?: Record<string, unknown>) => {
    const res = await call(`${server.url}/widget/${widget}/recommendations${variables === undefined ? '' : `?variables=${vars(variables)}`}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return ids(res.body);
  };

  before(async () => {
    const config = recommendationConfig() as { tenants: Array<{ environments: Array<{ widgets: unknown[] }> }> };
    for (const [id, where] of Object.entries(WHERE)) {
      config.tenants[0]!.environments[0]!.widgets.push({ id, title: id, strategies: ['popular'], minResults: 10, maxResults: 10, filters: [{ where }] });
    }
    server = await startTestServer({ config });
    await loadCatalog(server.server);
  });
  after(() => server.cleanup());

  it('reads OR, IN, NOT and parentheses', async () => {
    assert.deepEqual(await get('w-or-in'), ['bag-1', 'bag-2', 'shoe-2', 'sock-1']);
    // A list attribute matches when any entry does: "shoes, running" is a shoe.
    assert.deepEqual(await get('w-not'), ['bag-1', 'bag-2', 'sock-1', 'sock-2']);
  });

  it('compares as search does: strings without case, true and false against 0/1 flags', async () => {
    assert.deepEqual(await get('w-case'), ['shoe-1', 'shoe-2', 'sock-1']);
  });

  it('fills $variables from the request, a list standing for each of its values', async () => {
    assert.deepEqual(await get('w-vars', { $brand: 'zed', $maxPrice: 11 }), ['shoe-3', 'sock-1', 'sock-2']);
    assert.deepEqual(await get('w-vars', { $brand: ['Zed', 'Other'] }), ['bag-1', 'bag-2', 'shoe-3', 'sock-2']);
  });

  it('leaves out a comparison whose variable is absent, inside OR and NOT too', async () => {
    // `brand = $brand OR price < $maxPrice` without $maxPrice is `brand = $brand`.
    assert.deepEqual(await get('w-vars', { $brand: 'Acme' }), ['shoe-1', 'shoe-2', 'sock-1']);
    // Nothing left to apply: every recommendable item (hat-1 is not recommendable).
    const all = ['bag-1', 'bag-2', 'shoe-1', 'shoe-2', 'shoe-3', 'sock-1', 'sock-2'];
    assert.deepEqual(await get('w-vars'), all);
    assert.deepEqual(await get('w-not-var', { $other: 1 }), all);
    assert.deepEqual(await get('w-not-var', { $maxPrice: 50 }), ['bag-1', 'sock-1', 'sock-2']);
  });
});
