// Query analytics per search token and day: searches, zero-result and corrected queries, click-through
// and conversion from the activities that carry a search's id, behind the tenant's bearer token, and
// still there after a restart. A real server, real collection requests, a frozen clock.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../src/platform/clock.js';
import { dayOf } from '../src/domains/search/analytics/query-analytics.js';
import { bearer, bearerTokens } from './support/bearer-tokens.js';
import { makeDataDir, startTestServer, testConfig, type TestServer } from './support/test-server.js';
import { rm } from 'node:fs/promises';

const T = 'tenant-a';
const E = 'prod';
const TOKEN = 'tenant-a-search';
const clock = new ManualClock(Date.parse('2026-11-20T10:00:00Z'));
let server: TestServer;
let dataDir: string;
const tokenFor = bearerTokens(() => server, clock);

async function post(path: string, body: unknown): Promise<Record<string, any>> {
  const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = (await res.json()) as Record<string, any>;
  assert.equal(res.status, 200, JSON.stringify(json));
  return json;
}

async function search(query: string): Promise<Record<string, any>> {
  return post('/search', { token: TOKEN, query });
}

async function activity(action: string, item: string, shopper: string, sourceId?: string): Promise<void> {
  await post('/collect/tenant-a-tracker', { action, target: { product: item }, user: { sessionId: shopper }, ...(sourceId === undefined ? {} : { sourceId }) });
}

async function report(query = '', token?: string): Promise<{ status: number; body: Record<string, any> }> {
  const auth = token ?? (await tokenFor('client-a'));
  const res = await fetch(`${server.url}/search-analytics/${TOKEN}${query}`, bearer(auth));
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

before(async () => {
  dataDir = await makeDataDir();
  server = await startTestServer({ config: testConfig(), clock, dataDir });
  const catalog = server.server.deps.services.catalog;
  const schema = await catalog.schemas.create(T, E, { name: 'product', attributes: [{ name: 'title', type: 'TEXT' }] });
  const record = await catalog.catalogs.create(T, E, { catalogItemSchemas: [{ name: schema.name, version: schema.version }] });
  const titles = ['Paper Lantern', 'Metal Lantern', 'Linen Cushion'];
  await catalog.items.load(T, E, titles.map((title, i) => ({ id: `i${i}`, catalogVersion: record.version, type: 'product', attributes: { title } })));
  await (await catalog.catalogs.promote(T, E, record.version)).activation;
});

after(async () => {
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('search analytics', () => {
  it('counts searches, zero-result and corrected queries, clicks and conversions per day', async () => {
    const first = await search('Lanterns');
    await search('lanterns');
    await search('lanterns');
    await search('zzqxw');
    await search('lantren');
    // A click from the first search, then the same shopper adds that item to the cart (no sourceId).
    await activity('click', 'i0', 'shopper-1', first.metadata.id);
    await activity('click', 'i1', 'shopper-1', first.metadata.id);
    await activity('add-to-cart', 'i0', 'shopper-1');
    // A click whose sourceId is no search counts for nothing.
    await activity('click', 'i2', 'shopper-2', 'not-a-search');

    const { status, body } = await report();
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.from, '2026-11-20');
    assert.equal(body.days.length, 1);
    const day = body.days[0];
    assert.equal(day.day, '2026-11-20');
    assert.equal(day.searches, 5);
    assert.equal(day.zeroResults, 1);
    assert.equal(day.corrected, 1);
    assert.equal(day.clicks, 1, 'two clicks from one search are one click-through');
    assert.equal(day.conversions, 1);
    assert.deepEqual(day.topQueries[0], { query: 'lanterns', searches: 3, zeroResults: 0, corrected: 0, relaxed: 0, clicks: 1, conversions: 1, clickThroughRate: 0.333, conversionRate: 0.333 });
    assert.deepEqual(day.zeroResultQueries, [{ query: 'zzqxw', zeroResults: 1 }]);
    assert.deepEqual(day.correctedQueries, [{ query: 'lantren', correctedTo: 'lantern', corrected: 1 }]);
  });

  it('keeps the counts across a restart, per day', async () => {
    await server.close();
    server = await startTestServer({ config: testConfig(), clock, dataDir });
    clock.advance(24 * 60 * 60 * 1000);
    await search('cushion');
    const { body } = await report('?from=2026-11-19&to=2026-11-22');
    assert.deepEqual(body.days.map((d: { day: string; searches: number }) => [d.day, d.searches]), [['2026-11-20', 5], ['2026-11-21', 1]]);
    // Autocomplete's search counts (its tie-break) came back from the same document.
    const candidates = server.server.deps.services.queryStatistics.suggestQueries(T, 'lan', { minShoppers: 0 });
    assert.equal(candidates.find((c) => c.query === 'lanterns')?.searches, 3);
  });

  it('counts queries named like Object properties as ordinary queries, changing no other object', async () => {
    for (const query of ['__proto__', '__proto__', 'constructor', 'hasownproperty']) assert.equal((await search(query)).metadata.token, TOKEN);
    assert.equal(({} as Record<string, unknown>).searches, undefined, 'Object.prototype is untouched');
    const { body } = await report('?from=2026-11-21&to=2026-11-21');
    const counted = new Map(body.days[0].topQueries.map((q: { query: string; searches: number }) => [q.query, q.searches]));
    assert.equal(counted.get('__proto__'), 2);
    assert.equal(counted.get('constructor'), 1);
    assert.equal(counted.get('hasownproperty'), 1);
    // And the server goes on answering ordinary searches.
    assert.equal((await search('lanterns')).metadata.count > 0, true);
  });

  it('answers only the token owner: no token 401, another tenant 404, a bad day 400 naming it', async () => {
    const anonymous = await fetch(`${server.url}/search-analytics/${TOKEN}`);
    assert.equal(anonymous.status, 401);
    const other = await report('', await tokenFor('client-b'));
    assert.equal(other.status, 404);
    assert.equal(other.body.error.code, 'unknown_search_token', JSON.stringify(other.body));
    const bad = await report('?from=yesterday');
    assert.equal(bad.status, 400);
    assert.match(JSON.stringify(bad.body), /from/);
  });

  it('keeps a day to its first 1,000 queries per token, counting the later new ones together, and the kept ones still', async () => {
    clock.advance(10 * 24 * 60 * 60 * 1000);
    const day = dayOf(clock.now());
    for (let n = 0; n < 1_000; n++) await search(`query ${n}`);
    for (const query of ['late one', 'late two', 'late one', 'query 5', 'query 5']) await search(query);
    const { body } = await report(`?from=${day}&to=${day}&limit=1000`);
    assert.equal(body.days[0].searches, 1_005);
    const counted = new Map(body.days[0].topQueries.map((q: { query: string; searches: number }) => [q.query, q.searches]));
    assert.equal(counted.get('(other queries)'), 3);
    assert.equal(counted.get('query 5'), 3);
    assert.equal(counted.get('late one'), undefined);
    assert.equal(counted.get('late two'), undefined);
  });
});

describe('the day a search counts in', () => {
  it('is its UTC day, forwards and backwards across midnight (the last day is remembered between calls)', () => {
    const at = (iso: string) => Date.parse(iso);
    const seen = ['2026-11-27T23:59:59.999Z', '2026-11-28T00:00:00.000Z', '2026-11-27T23:59:59.999Z', '2026-11-27T00:00:00.000Z', '2026-11-26T23:59:59.999Z', '1970-01-01T00:00:00.000Z'].map((iso) => dayOf(at(iso)));
    assert.deepEqual(seen, ['2026-11-27', '2026-11-28', '2026-11-27', '2026-11-27', '2026-11-26', '1970-01-01']);
    assert.equal(dayOf(-1), '1969-12-31');
  });
});
