/** `similar` over the real server and its search index: title likeness blended with shared category, brand and attributes. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, startTestServer, type TestServer } from './support/test-server.js';
import { loadCatalog, recommendationConfig, type Product } from './support/recommendation-fixture.js';

const vars = (value: unknown) => encodeURIComponent(JSON.stringify(value));
const ids = (body: { recommendations: Array<{ product: { _id: { original_id: string } } }> }) => body.recommendations.map((r) => r.product._id.original_id);

/** A gift shop where the hot water bottles share words but not always a category or brand. */
const SHOP: Product[] = [
  { id: 'hwb-union', title: 'Knitted Union Flag Hot Water Bottle', categories: 'Bath & Body', brand: 'Union Jack', color: 'red' },
  { id: 'hwb-skull', title: 'White Skull Hot Water Bottle', categories: 'Bath & Body', brand: 'Dotcom', color: 'white' },
  { id: 'hwb-love', title: 'Love Heart Hot Water Bottle', categories: 'Home Decor', brand: 'Hanging Heart' },
  { id: 'warmer-union', title: 'Hand Warmer Union Jack', categories: 'Bath & Body', brand: 'Union Jack', color: 'red' },
  { id: 'tissues', title: 'Pack of London Tissues', categories: 'Bath & Body', brand: 'Union Jack' },
  { id: 'bunting', title: 'Vintage Union Jack Bunting', categories: 'Party', brand: 'Union Jack', color: 'red' },
  { id: 'mug', title: 'London Bus Coffee Mug', categories: 'Kitchen', brand: 'Other' },
  { id: 'soap', title: 'Lavender Soap Bar', categories: 'Bath & Body', brand: 'Other' },
  { id: 'candle', title: 'Vanilla Candle', categories: 'Home Decor', brand: 'Other' },
  // Two seeds and two candidates whose titles share nothing: content alone decides.
  { id: 'seed-a', title: 'Alpha', categories: 'x', brand: 'brand-a', color: 'red' },
  { id: 'seed-b', title: 'Bravo', categories: 'y', brand: 'brand-b', color: 'red' },
  { id: 'd-red', title: 'Delta', categories: 'x', brand: 'brand-d', color: 'red' },
  { id: 'f-both', title: 'Foxtrot', categories: 'x, y', brand: 'brand-f', color: 'blue' },
];

describe('similar recommendations', () => {
  let server: TestServer;
  const get = (path: string) => call(`${server.url}${path}`);

  before(async () => {
    server = await startTestServer({ config: recommendationConfig() });
    await loadCatalog(server.server, SHOP);
  });
  after(() => server.cleanup());

  it('puts items named alike first, even from another category and brand, then shared category and brand', async () => {
    const res = await get(`/widget/w-similar/recommendations?variables=${vars({ $productId: 'hwb-union' })}`);
    assert.equal(res.status, 200);
    // Text 0.6 × (title likeness over the best match) + content 0.4 × (shared points over the 5 possible):
    // skull 0.6 + 0.16, love 0.6 (text alone), warmer 0.4 (category, brand, colour), tissues 0.32, bunting 0.24, soap 0.16.
    assert.deepEqual(ids(res.body), ['hwb-skull', 'hwb-love', 'warmer-union', 'tissues', 'bunting', 'soap']);
    assert.deepEqual(new Set(res.body.recommendations.map((r: { strategy: string }) => r.strategy)), new Set(['similar']));
  });

  it('with several $productId, counts each seed once: an item like both seeds beats one sharing a colour with both', async () => {
    const res = await get(`/widget/w-similar/recommendations?variables=${vars({ $productId: ['seed-a', 'seed-b'] })}`);
    assert.deepEqual(ids(res.body), ['f-both', 'd-red']);
    const [both, red] = res.body.recommendations as Array<{ score: number }>;
    assert.ok(both!.score > red!.score, JSON.stringify(res.body.recommendations.map((r: { score: number }) => r.score)));
  });

  it('never returns a seed, and a seed given twice counts once', async () => {
    const once = await get(`/widget/w-similar/recommendations?variables=${vars({ $productId: ['seed-a'] })}`);
    const twice = await get(`/widget/w-similar/recommendations?variables=${vars({ $productId: ['seed-a', 'seed-a'] })}`);
    assert.deepEqual(ids(once.body), ['d-red', 'f-both']);
    assert.deepEqual(ids(twice.body), ids(once.body));
    assert.deepEqual(
      twice.body.recommendations.map((r: { score: number }) => r.score),
      once.body.recommendations.map((r: { score: number }) => r.score),
    );
  });

  it('scores the first 20 distinct seeds only, and still never returns a later one', async () => {
    const filler = Array.from({ length: 20 }, (_, i) => `unknown-${i}`);
    const late = await get(`/widget/w-similar/recommendations?variables=${vars({ $productId: [...filler, 'hwb-union', 'hwb-skull'] })}`);
    assert.equal(late.status, 200);
    assert.deepEqual(late.body.recommendations.filter((r: { strategy: string }) => r.strategy === 'similar'), []);
    assert.ok(!ids(late.body).includes('hwb-union') && !ids(late.body).includes('hwb-skull'));
    const early = await get(`/widget/w-similar/recommendations?variables=${vars({ $productId: ['hwb-union', ...filler] })}`);
    assert.equal(ids(early.body)[0], 'hwb-skull');
  });
});
