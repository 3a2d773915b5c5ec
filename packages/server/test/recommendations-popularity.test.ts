// Popular lists are kept between requests and updated from the items new activities touched; the
// answer after every batch must equal a full recomputation over all activities, including when a verb
// with a negative weight (remove-from-cart) lowers an item's score.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../src/platform/clock.js';
import { startTestServer, type TestServer } from './support/test-server.js';
import { TENANT, loadCatalog, recommendationConfig, type Product } from './support/recommendation-fixture.js';

const PRODUCTS: Product[] = Array.from({ length: 40 }, (_, i) => ({ id: `item-${String(i).padStart(2, '0')}`, categories: 'things', brand: 'Acme' }));
const ACTIONS = ['view', 'view', 'view', 'add-to-cart', 'purchase', 'remove-from-cart'] as const;

let server: TestServer;
const clock = new ManualClock(Date.parse('2026-11-21T10:00:00Z'));

before(async () => {
  server = await startTestServer({ config: recommendationConfig(), clock });
  await loadCatalog(server.server, PRODUCTS);
});
after(async () => server.cleanup());

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => ((state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
}

async function widget(id: string): Promise<string[]> {
  const res = await fetch(`${server.url}/widget/${id}/recommendations?limit=10&nocache=true`);
  assert.equal(res.status, 200);
  const body = (await res.json()) as { recommendations: { product: { _id: { original_id: string } } }[] };
  return body.recommendations.map((r) => r.product._id.original_id);
}

describe('popular lists kept between activities', () => {
  it('answer after every batch exactly as a full recomputation would', async () => {
    const rand = random(42);
    for (let batch = 0; batch < 25; batch++) {
      const sends = Array.from({ length: 1 + Math.floor(rand() * 6) }, () => ({
        action: ACTIONS[Math.floor(rand() * ACTIONS.length)]!,
        target: { product: PRODUCTS[Math.floor(rand() * rand() * PRODUCTS.length)]!.id },
        user: { sessionId: `s-${batch}` },
      }));
      const res = await fetch(`${server.url}/collect/${TENANT}-tracker`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(sends) });
      assert.equal(res.status, 200);
      const expected = server.server.deps.services.recommendations.aggregates.popularity(TENANT, { limit: 10 }).map((p) => p.itemId);
      assert.deepEqual((await widget('w-popular')).slice(0, expected.length), expected, `batch ${batch}`);
      const sellers = server.server.deps.services.recommendations.aggregates.popularity(TENANT, { verbs: ['buy', 'purchase'], limit: 10 }).map((p) => p.itemId);
      assert.deepEqual((await widget('w-top-sellers')).slice(0, sellers.length), sellers, `top sellers, batch ${batch}`);
    }
  });
});
