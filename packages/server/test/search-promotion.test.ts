/**
 * A promotion builds the new index while the server keeps answering: another tenant's searches, and
 * the promoting tenant's own searches from its previous index, never from a half-built one; the new
 * catalog answers once the promotion is done. A real server, real files, requests over HTTP.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, testConfig, type TestServer } from './support/test-server.js';
import { catalogRequests } from './support/catalog-requests.js';

const E = 'prod';
/** Enough items that building their index takes many slices (seconds on a loaded machine). */
const NEW_ITEMS = 6_000;

let server: TestServer;

async function search(tenant: 'tenant-a' | 'tenant-b', query: string): Promise<{ count: number; ids: string[] }> {
  const res = await fetch(`${server.url}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: `${tenant}-search`, query }) });
  assert.equal(res.status, 200);
  const body = (await res.json()) as { items: { id: string }[]; metadata: { count: number } };
  return { count: body.metadata.count, ids: body.items.map((item) => item.id) };
}

async function catalogWith(tenant: string, items: { id: string; title: string }[]): Promise<number> {
  const catalog = catalogRequests(server.server.deps.services.catalog);
  const schema = await catalog.schemas.create(tenant, E, { name: 'product', attributes: [{ name: 'title', type: 'TEXT' }] });
  const { version } = await catalog.catalogs.create(tenant, E, { catalogItemSchemas: [{ name: schema.name, version: schema.version }] });
  for (let start = 0; start < items.length; start += 2_000) {
    await catalog.items.load(tenant, E, items.slice(start, start + 2_000).map(({ id, title }) => ({ id, catalogVersion: version, type: 'product', attributes: { title } })));
  }
  return version;
}

before(async () => {
  server = await startTestServer({ config: testConfig({ publicRateLimits: { enabled: false } }) });
  const catalogs = server.server.deps.services.catalog.catalogs;
  await (await catalogs.promote('tenant-b', E, await catalogWith('tenant-b', [{ id: 'b1', title: 'Brass Lantern' }]))).activation;
  await (await catalogs.promote('tenant-a', E, await catalogWith('tenant-a', [{ id: 'a-old', title: 'Old Oak Table' }]))).activation;
});
after(() => server.cleanup());

describe('a promotion', () => {
  it('keeps answering every tenant from complete indexes while it builds, then swaps', async () => {
    const items = Array.from({ length: NEW_ITEMS }, (_, i) => ({ id: `a${i}`, title: `Walnut Chair ${i}` }));
    const version = await catalogWith('tenant-a', items);
    // The connections the rounds below use are opened first: a first connect takes several turns of the loop.
    await Promise.all([search('tenant-b', 'lantern'), search('tenant-a', 'oak'), search('tenant-a', 'walnut')]);
    let building = true;
    const promotion = (await server.server.deps.services.catalog.catalogs.promote('tenant-a', E, version)).activation.finally(() => (building = false));
    let answeredWhileBuilding = 0;
    const started = performance.now();
    let lastRound = started;
    let longestGap = 0;
    while (building) {
      const [other, old, fresh] = await Promise.all([search('tenant-b', 'lantern'), search('tenant-a', 'oak'), search('tenant-a', 'walnut')]);
      if (!building) break;
      answeredWhileBuilding++;
      longestGap = Math.max(longestGap, performance.now() - lastRound);
      lastRound = performance.now();
      assert.deepEqual(other.ids, ['b1']);
      // The previous catalog serves until the new index is whole, then the whole new one (the swap comes
      // just before the catalog's state is written): never part of the new items.
      const state = [old.ids, fresh.count];
      assert.ok(JSON.stringify(state) === JSON.stringify([['a-old'], 0]) || JSON.stringify(state) === JSON.stringify([[], NEW_ITEMS]), JSON.stringify(state));
    }
    assert.equal((await promotion).state, 'active');
    const buildMs = performance.now() - started;
    // A build that held the event loop would let one round through at most, before it started, and the
    // wait for the next would be the whole build. How many rounds fit depends on the machine's speed;
    // that no round waited for most of the build does not.
    assert.ok(answeredWhileBuilding >= 2, `only ${answeredWhileBuilding} rounds of searches were answered during the build (${Math.round(buildMs)} ms)`);
    assert.ok(longestGap < Math.max(150, buildMs / 2), `a round of searches waited ${Math.round(longestGap)} ms of a ${Math.round(buildMs)} ms build`);
    assert.equal((await search('tenant-a', 'walnut')).count, NEW_ITEMS);
    assert.equal((await search('tenant-a', 'oak')).count, 0);
    assert.deepEqual((await search('tenant-b', 'lantern')).ids, ['b1']);
  });
});
