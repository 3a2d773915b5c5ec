/**
 * `buy-again` and the variety cap, through a real server: a shopper's reorders come back ranked by how
 * often they bought them and how often others reorder them; a shopper without purchases gets an empty
 * row unless the widget names a fallback; a widget never fills with one family of products unless told,
 * a family being what titles end with, wherever a title names it.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, startTestServer, testConfig, type TestServer } from './support/test-server.js';
import { loadCatalog, type Product } from './support/recommendation-fixture.js';

const BOTTLES = ['b1', 'b2', 'b3', 'b4', 'b5', 'b6'];
const OTHERS = ['mug', 'tea', 'socks', 'scarf'];
const PRODUCTS: Product[] = [
  // Five titles end with their kind; the sixth names its kind first, as many shops' titles do: one family all the same.
  ...BOTTLES.map((id, i) => ({ id, title: i < 5 ? `Knitted ${['red', 'blue', 'grey', 'pink', 'green'][i]} hot water bottle` : 'Hot water bottle keep calm', categories: 'bath', brand: 'B' })),
  ...OTHERS.map((id) => ({ id, title: `Cosy ${id}`, categories: 'home', brand: 'C' })),
];

function config(widgets: unknown[]): Record<string, unknown> {
  const base = testConfig() as { tenants: Array<{ environments: Array<{ widgets?: unknown[] }> }> };
  base.tenants[0]!.environments[0]!.widgets = widgets;
  return base;
}

const WIDGETS = [
  { id: 'again', strategies: ['buy-again'], minResults: 0, maxResults: 10 },
  { id: 'again-or-popular', strategies: ['buy-again'], minResults: 3, maxResults: 10, fallback: 'popular' },
  { id: 'together', strategies: ['bought-together'], minResults: 0, maxResults: 8 },
  { id: 'together-uncapped', strategies: ['bought-together'], minResults: 0, maxResults: 8, diversityCap: 8 },
  { id: 'together-cap-1', strategies: ['bought-together'], minResults: 0, maxResults: 8, diversityCap: 1 },
];

const ids = (body: { recommendations: Array<{ product: { _id: { original_id: string } } }> }) => body.recommendations.map((r) => r.product._id.original_id);
const purchase = (customer: string, product: string, orderId: string) => ({ action: 'purchase', target: { product }, user: { identities: { 'customer-id': customer } }, metadata: { orderId } });

describe('buy-again and the variety cap', () => {
  let server: TestServer;
  const ask = (widget: string, path = '', query = '') => call(`${server.url}/widget/${widget}/recommendations${path}?limit=10${query}`);

  before(async () => {
    server = await startTestServer({ config: config(WIDGETS) });
    await loadCatalog(server.server, PRODUCTS);
    const events = [
      // "me": tea three times, socks once, the mug once.
      ...[1, 2, 3].map((n) => purchase('me', 'tea', `me-${n}`)),
      purchase('me', 'socks', 'me-1'),
      purchase('me', 'mug', 'me-2'),
      // Others reorder the mug, never the socks.
      ...['o1', 'o2', 'o3', 'o4'].flatMap((c) => [purchase(c, 'mug', `${c}-1`), purchase(c, 'mug', `${c}-2`), purchase(c, 'socks', `${c}-1`)]),
      // Every bottle is bought with the scarf (in baskets of its own) more often than the mug and the tea are.
      ...BOTTLES.flatMap((b, i) => Array.from({ length: 3 + (i === 0 ? 1 : 0) }, (_, n) => [purchase(`s-${b}-${n}`, 'scarf', `${b}-${n}`), purchase(`s-${b}-${n}`, b, `${b}-${n}`)]).flat()),
      purchase('t1', 'scarf', 't1'),
      purchase('t1', 'mug', 't1'),
      purchase('t1', 'tea', 't1'),
    ];
    const res = await call(`${server.url}/collect/tenant-a-tracker`, { json: events });
    assert.equal(res.status, 200);
  });
  after(() => server.cleanup());

  it("lists the shopper's own purchases, the most reordered first, and among single purchases the kind others reorder", async () => {
    const res = await ask('again', '/customer-id/me/');
    assert.equal(res.status, 200);
    assert.deepEqual(ids(res.body), ['tea', 'mug', 'socks']);
    assert.ok(res.body.recommendations.every((r: { strategy: string }) => r.strategy === 'buy-again'));
  });

  it('is empty for a shopper who bought nothing, or an anonymous one, unless the widget names a fallback', async () => {
    for (const path of ['/customer-id/nobody/', '']) {
      const empty = await ask('again', path);
      assert.equal(empty.status, 200);
      assert.equal(empty.body.pagination.total, 0);
    }
    const filled = await ask('again-or-popular', '/customer-id/nobody/');
    assert.ok(ids(filled.body).length >= 3);
    assert.ok(filled.body.recommendations.every((r: { strategy: string }) => r.strategy !== 'buy-again'));
  });

  it('keeps at most 3 items of one family at the top of a list by default, the best of them first, the rest below', async () => {
    const variables = `&variables=${encodeURIComponent(JSON.stringify({ $productId: 'scarf' }))}`;
    const uncapped = ids((await ask('together-uncapped', '', variables)).body);
    assert.deepEqual(uncapped.slice(0, 6).sort(), [...BOTTLES].sort(), `without the cap the bottles fill the top: ${JSON.stringify(uncapped)}`);
    const capped = await ask('together', '', variables);
    const list = ids(capped.body);
    const firstFive = list.slice(0, 5);
    assert.equal(firstFive.filter((id) => id.startsWith('b')).length, 3, JSON.stringify(list));
    assert.ok(firstFive.includes('mug') && firstFive.includes('tea'));
    assert.deepEqual(list.filter((id) => id.startsWith('b')), uncapped.filter((id) => id.startsWith('b')), 'bottles keep their own order');
    assert.equal(list.length, uncapped.length, 'moved down, not dropped');
    const scores = capped.body.recommendations.map((r: { score: number }) => r.score);
    assert.deepEqual([...scores].sort((a, b) => b - a), scores, 'scores fall along the list');
    const one = ids((await ask('together-cap-1', '', variables)).body);
    assert.equal(one.slice(0, 3).filter((id) => id.startsWith('b')).length, 1);
  });

  it('refuses a cap that is not a positive integer at start, naming the field', async () => {
    for (const diversityCap of [0, 1.5, -2, 'three']) {
      await assert.rejects(startTestServer({ config: config([{ id: 'w', strategies: ['similar'], diversityCap }]) }), (error: Error) => /widgets\[0\]\.diversityCap/.test(error.message));
    }
  });
});
