/**
 * Search analytics on a store several processes share (PostgreSQL): each process adds what it counted
 * to the stored day records instead of writing its own copy over them, so the report any process gives
 * holds every process's searches, clicks and conversions. Two real servers on one real PostgreSQL schema.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startPostgres, type PostgresServer } from './support/engines.js';
import { eventually, openOnSharedStore, type SharedStoreServer } from './support/shared-store-servers.js';
import { FIXTURES, testConfig } from './support/test-server.js';
import { validateConfig } from '../src/platform/config/load.js';
import { createLogger } from '../src/platform/logger.js';
import { ManualClock } from '../src/platform/clock.js';
import { bearer, bearerTokens } from './support/bearer-tokens.js';

const T = 'tenant-a';
const E = 'prod';
const TOKEN = 'tenant-a-search';
let postgres: PostgresServer;
let a: SharedStoreServer;
let b: SharedStoreServer;

const open = (schema: string) => openOnSharedStore(postgres.url, schema, { configFor: () => validateConfig(testConfig({ publicRateLimits: { enabled: false } }), '(test)', FIXTURES), logger: createLogger('silent') });
// The servers run on real time; the assertion's clock is set a second back, as `tokenFor` moves it on by one.
const clock = new ManualClock(Date.now() - 1000);
const tokenFor = bearerTokens(() => ({ url: a.base, server: a.server, dataDir: '', close: async () => undefined, cleanup: async () => undefined }), clock);

async function search(on: SharedStoreServer, query: string): Promise<{ metadata: { id: string } }> {
  const res = await fetch(`${on.base}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: TOKEN, query }) });
  const body = (await res.json()) as { metadata: { id: string } };
  assert.equal(res.status, 200, JSON.stringify(body));
  return body;
}

async function collect(on: SharedStoreServer, body: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${on.base}/collect/tenant-a-tracker`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  assert.equal(res.status, 200, await res.text());
}

type Day = { searches: number; clicks: number; conversions: number; topQueries: Array<{ query: string; searches: number; clicks: number }> };
let accessToken: string | undefined;
async function today(on: SharedStoreServer): Promise<Day> {
  accessToken ??= await tokenFor('client-a');
  const res = await fetch(`${on.base}/search-analytics/${TOKEN}`, bearer(accessToken));
  const body = (await res.json()) as { days: Day[] };
  assert.equal(res.status, 200, JSON.stringify(body));
  return body.days[0] ?? { searches: 0, clicks: 0, conversions: 0, topQueries: [] };
}

const flushBoth = () => Promise.all([a, b].map((s) => s.server.deps.services.searchAnalytics.flush()));

before(async () => {
  postgres = await startPostgres();
  const schema = `t_${randomBytes(6).toString('hex')}`;
  a = await open(schema);
  b = await open(schema);
  const catalog = a.server.deps.services.catalog;
  const schemaRecord = await catalog.schemas.create(T, E, { name: 'product', attributes: [{ name: 'title', type: 'TEXT' }] });
  const record = await catalog.catalogs.create(T, E, { catalogItemSchemas: [{ name: schemaRecord.name, version: schemaRecord.version }] });
  await catalog.items.load(T, E, ['Paper Lantern', 'Metal Lantern', 'Linen Cushion'].map((title, i) => ({ id: `i${i}`, catalogVersion: record.version, type: 'product', attributes: { title } })));
  await (await catalog.catalogs.promote(T, E, record.version)).activation;
  // B builds its index from the store once it hears of the promotion.
  await eventually(async () => assert.equal((await search(b, 'lantern')).metadata.id.length > 0, true), 10_000);
});

after(async () => {
  for (const server of [a, b]) await server?.server.close();
  postgres?.dispose();
});

describe('search analytics on a shared store', () => {
  it('reports every process\'s searches and clicks, whichever process is asked', async () => {
    await flushBoth();
    const before = await today(a);
    const fromA = await search(a, 'lantern');
    await search(a, 'cushion');
    await search(a, 'cushion');
    await search(b, 'lantern');
    await search(b, 'lantern');
    await search(b, 'zzqxw');
    // A click on B from A's search: B does not know the search's id, and credits the query the activity names.
    await collect(b, { action: 'click', target: { product: 'i0' }, user: { sessionId: 'shopper-1' }, sourceId: fromA.metadata.id, metadata: { query: 'lantern' } });
    await flushBoth();
    await flushBoth();
    for (const server of [a, b]) {
      await eventually(async () => {
        const day = await today(server);
        assert.equal(day.searches - before.searches, 6, `six searches on ${server.base}`);
        const lantern = day.topQueries.find((q) => q.query === 'lantern');
        const before0 = before.topQueries.find((q) => q.query === 'lantern');
        assert.equal((lantern?.searches ?? 0) - (before0?.searches ?? 0), 3);
        assert.equal((lantern?.clicks ?? 0) - (before0?.clicks ?? 0), 1);
        assert.equal(day.topQueries.find((q) => q.query === 'cushion')?.searches, 2);
        assert.equal(day.clicks - before.clicks, 1);
      }, 5_000);
    }
  });

  it('shows what this process counted before it is written, beside what the others wrote', async () => {
    await flushBoth();
    const before = await today(b);
    await search(a, 'metal lantern');
    await a.server.deps.services.searchAnalytics.flush();
    await search(b, 'metal lantern');
    // B has not written its search yet: its report adds it to A's, which it reads from the store.
    await eventually(async () => {
      const day = await today(b);
      assert.equal(day.searches - before.searches, 2);
      assert.equal(day.topQueries.find((q) => q.query === 'metal lantern')?.searches, 2);
    }, 5_000);
  });
});
