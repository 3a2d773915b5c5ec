// Autocomplete over shoppers' earlier queries: ordered by search-results page views (sent through the
// collection API) within the token's window, never offensive, zero-result or typo-only queries.
// The clock is injected so the window is tested to the hour.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../src/platform/clock.js';
import { startTestServer, testConfig, type TestServer } from './support/test-server.js';

const T = 'tenant-a';
const E = 'prod';
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

function config(): Record<string, unknown> {
  const base = testConfig() as { tenants: { environments: Record<string, unknown>[] }[] };
  const configuration = { id: 'default', offensiveTerms: ['desk'], facets: [{ id: 'category', title: 'Category', attribute: 'categories' }] };
  base.tenants[0]!.environments[0]!.searchTokens = [
    { token: 'week-search', configurations: [configuration, { id: 'plain' }] },
    { token: 'day-search', configurations: [configuration], autocompleteWindowDays: 1 },
    { token: 'strict-search', configurations: [configuration], autocompleteMinShoppers: 3 },
  ];
  return base;
}

const PRODUCTS = [
  { id: 'a1', title: 'Floor Lamp', categories: 'Lighting' },
  { id: 'a2', title: 'Desk Lamp', categories: 'Lighting, Office' },
  { id: 'a3', title: 'Lampshade', categories: 'Lighting' },
  { id: 'a4', title: 'Hanging Heart Holder', categories: 'Home' },
  { id: 'a5', title: 'Holy Shit Mug', categories: 'Kitchen' },
  { id: 'a6', title: 'Lantern', categories: 'Garden' },
];

let server: TestServer;
const clock = new ManualClock();

async function post(path: string, body: unknown): Promise<{ status: number; body: Record<string, any> }> {
  const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

async function searched(query: string, times = 1): Promise<void> {
  for (let i = 0; i < times; i++) assert.equal((await post('/search', { token: 'week-search', query })).status, 200);
}

let shoppers = 0;

/** Search-results page views, as the browser toolkit sends them, each by another shopper unless one is named. */
async function viewed(query: string, times = 1, shopper?: string): Promise<void> {
  for (let i = 0; i < times; i++) {
    const sessionId = shopper ?? `shopper-${++shoppers}`;
    const res = await post('/collect/tenant-a-tracker', { action: 'view', target: { page: '/search' }, sourceId: 's', user: { sessionId }, metadata: { query } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  }
}

async function suggestions(query: string, options: Record<string, unknown> = {}, token = 'week-search'): Promise<string[]> {
  const res = await post('/search/autocomplete', { token, query, ...options });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.suggestions.map((s: { suggestion: string }) => s.suggestion);
}

async function rawSuggestions(query: string, options: Record<string, unknown> = {}): Promise<Record<string, any>[]> {
  const res = await post('/search/autocomplete', { token: 'week-search', query, ...options });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.suggestions;
}

before(async () => {
  server = await startTestServer({ config: config(), clock });
  const catalog = server.server.deps.services.catalog;
  const schema = await catalog.schemas.create(T, E, { name: 'product', attributes: [{ name: 'title', type: 'TEXT' }, { name: 'categories', type: 'TEXT' }] });
  const record = await catalog.catalogs.create(T, E, { catalogItemSchemas: [{ name: schema.name, version: schema.version }] });
  await catalog.items.load(T, E, PRODUCTS.map(({ id, title, categories }) => ({ id, catalogVersion: record.version, type: 'product', attributes: { title, categories } })));
  await (await catalog.catalogs.promote(T, E, record.version)).activation;
});

after(async () => server.cleanup());

describe('autocomplete', () => {
  it('orders by results-page views, not by searches, and starts each suggestion with the typed query', async () => {
    await searched('floor lamp', 5);
    await viewed('floor lamp', 2);
    await searched('lampshade', 1);
    await viewed('lampshade', 3);
    await searched('lantern', 9);
    await viewed('lantern', 2);
    assert.deepEqual(await suggestions('  LA '), ['lampshade', 'lantern']);
    assert.deepEqual(await suggestions('lamp'), ['lampshade']);
    assert.deepEqual(await suggestions('fl'), ['floor lamp']);
    assert.deepEqual(await suggestions('la', { options: { numberOfSuggestions: 1 } }), ['lampshade']);
  });

  it('counts only views within the window, to the hour, and the window is configured per token', async () => {
    clock.advance(6 * DAY);
    await viewed('lantern', 5);
    // Six days on: every view still counts for the week-long token; the day-long one sees only today's.
    assert.deepEqual(await suggestions('la'), ['lantern', 'lampshade']);
    assert.deepEqual(await suggestions('la', {}, 'day-search'), ['lantern']);
    clock.advance(DAY + HOUR);
    // Now the first views (seven days and an hour ago) have left the week, the lantern views have not.
    assert.deepEqual(await suggestions('la'), ['lantern']);
    clock.advance(-(7 * DAY + HOUR));
  });

  it('never suggests offensive queries, from the built-in list or the configuration', async () => {
    await searched('holy shit mug');
    await viewed('holy shit mug', 9);
    await searched('desk lamp');
    await viewed('desk lamp', 9);
    assert.deepEqual(await suggestions('holy'), []);
    assert.deepEqual(await suggestions('desk'), []);
    // The configuration without the extra term still refuses the built-in word.
    assert.deepEqual(await suggestions('desk', { configurationId: 'plain' }), ['desk lamp']);
    assert.deepEqual(await suggestions('holy', { configurationId: 'plain' }), []);
  });

  it('never suggests queries that found nothing, nor those found only through typo correction', async () => {
    await searched('hanging hart');
    await viewed('hanging hart', 9);
    await searched('hanging heart');
    await viewed('hanging heart', 2);
    await searched('lamb chops');
    await viewed('lamb chops', 9);
    assert.deepEqual(await suggestions('hang'), ['hanging heart']);
    assert.deepEqual(await suggestions('lamb'), []);
  });

  it('checks queries only seen as page views (their searches predate a restart) against the catalog', async () => {
    await viewed('floor', 3);
    await viewed('flor lamp', 9);
    await viewed('florist', 9);
    assert.deepEqual(await suggestions('flo'), ['floor', 'floor lamp']);
  });

  it('offers a query only once enough distinct shoppers opened its results page: searches alone, or one shopper, never do', async () => {
    await searched('hol');
    await searched('hold');
    await searched('holde');
    await searched('holder', 20);
    assert.deepEqual(await suggestions('hol'), [], 'searched, never viewed');
    await viewed('holder', 12, 'one-visitor');
    assert.deepEqual(await suggestions('hol'), [], 'one visitor, however often');
    await viewed('holder', 1);
    assert.deepEqual(await suggestions('hol'), ['holder'], 'a second shopper: the default threshold of 2');
    assert.deepEqual(await suggestions('hol', {}, 'strict-search'), [], 'this token wants 3');
    await viewed('holder', 1);
    assert.deepEqual(await suggestions('hol', {}, 'strict-search'), ['holder']);
  });

  it('marks the typed prefix, and offers category suggestions from the results when asked', async () => {
    const plain = await rawSuggestions('Lamp');
    assert.deepEqual(plain[0], { suggestion: 'lampshade', highlights: [[0, 4]], count: 1 });
    assert.ok(plain.every((s) => s.category === undefined), 'no categories unless asked');
    const withCategories = await rawSuggestions('lamp', { options: { categories: true } });
    assert.equal(withCategories[0].suggestion, 'lampshade');
    assert.deepEqual(withCategories[1], { suggestion: 'lampshade', highlights: [[0, 4]], count: 1, category: { facetId: 'category', attribute: 'categories', value: 'Lighting', count: 1 } });
  });

  it('refuses a number of suggestions outside 1 to 20, naming the field', async () => {
    const res = await post('/search/autocomplete', { token: 'week-search', query: 'l', options: { numberOfSuggestions: 21 } });
    assert.equal(res.status, 400);
    assert.match(JSON.stringify(res.body), /numberOfSuggestions/);
  });
});
