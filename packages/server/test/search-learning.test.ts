// Search that learns from what shoppers do: clicks, add-to-carts and purchases attributed to a search
// reorder that query's matches once enough different shoppers agree, over a real server with real
// collection requests and a frozen clock; pins stay put, a flood from one session is one vote, the
// order survives a restart, and a request or the configuration can switch it off.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../src/platform/clock.js';
import { makeDataDir, startTestServer, testConfigWithSearch, type TestServer } from './support/test-server.js';
import { rm } from 'node:fs/promises';

const T = 'tenant-a';
const E = 'prod';
const TOKEN = 'shop-search';
const clock = new ManualClock(Date.parse('2026-11-20T10:00:00Z'));
const config = testConfigWithSearch(TOKEN, {
  id: 'default',
  rules: [{ query: 'tote', pin: ['t-pinned'] }],
  facets: [{ id: 'category', title: 'Category', attribute: 'category' }],
});
let server: TestServer;
let dataDir: string;

async function post(path: string, body: unknown): Promise<Record<string, any>> {
  const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = (await res.json()) as Record<string, any>;
  assert.equal(res.status, 200, JSON.stringify(json));
  return json;
}

async function search(query: string, extra: Record<string, unknown> = {}): Promise<{ id: string; ids: string[] }> {
  const body = await post('/search', { token: TOKEN, query, ...extra });
  return { id: body.metadata.id as string, ids: (body.items as { id: string }[]).map((item) => item.id) };
}

/** A shopper's click on `item` of a search, as the toolkit's results send it. */
async function click(shopper: string, item: string, from: { id: string; ids: string[] }, query: string): Promise<void> {
  await post('/collect/tenant-a-tracker', { action: 'click', target: { product: item }, user: { sessionId: shopper }, sourceId: from.id, metadata: { query, position: from.ids.indexOf(item) + 1 } });
}

/** Past the answer cache's renewal (a few seconds): what was learned shows. */
function later(): void {
  clock.advance(6_000);
}

before(async () => {
  dataDir = await makeDataDir();
  server = await startTestServer({ config, clock, dataDir });
  const catalog = server.server.deps.services.catalog;
  const schema = await catalog.schemas.create(T, E, { name: 'product', attributes: [{ name: 'title', type: 'TEXT' }, { name: 'category', type: 'TEXT' }] });
  const record = await catalog.catalogs.create(T, E, { catalogItemSchemas: [{ name: schema.name, version: schema.version }] });
  const items = [
    ...['Leather Bag', 'Canvas Bag', 'Paper Bag', 'Cotton Bag', 'Jute Bag', 'Beach Bag'].map((title, i) => ({ id: `b${i}`, title, category: 'bags' })),
    ...['Blue Tote', 'Red Tote', 'Green Tote', 'Striped Tote'].map((title, i) => ({ id: `t${i}`, title, category: 'totes' })),
    { id: 't-pinned', title: 'Gift Card', category: 'gifts' },
    ...['Paper Lantern', 'Metal Lantern', 'Glass Lantern'].map((title, i) => ({ id: `l${i}`, title, category: 'lights' })),
    ...['White Candle', 'Pillar Candle', 'Scented Candle', 'Tea Candle'].map((title, i) => ({ id: `c${i}`, title, category: 'home' })),
    { id: 'x-candle', title: 'Star Candle', category: 'Christmas' },
    { id: 'x-wreath', title: 'Holly Wreath', category: 'Christmas' },
    { id: 'x-bauble', title: 'Glass Bauble', category: 'Christmas' },
  ];
  await catalog.items.load(T, E, items.map(({ id, title, category }) => ({ id, catalogVersion: record.version, type: 'product', attributes: { title, category } })));
  await (await catalog.catalogs.promote(T, E, record.version)).activation;
});

after(async () => {
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('search learning', () => {
  it('raises the fourth result once three shoppers clicked it, not on two votes nor on one session clicking 50 times', async () => {
    const before = await search('bag');
    const lanterns = (await search('lantern')).ids;
    const fourth = before.ids[3]!;
    await click('shopper-1', fourth, before, 'bag');
    await click('shopper-2', fourth, before, 'bag');
    for (let i = 0; i < 50; i++) await click('flooder', before.ids[5]!, before, 'bag');
    later();
    assert.deepEqual((await search('bag')).ids, before.ids, 'two shoppers, and one session however many clicks, move nothing');

    await click('shopper-3', fourth, before, 'bag');
    later();
    const after = (await search('bag')).ids;
    assert.equal(after[0], fourth, `the fourth result rises to the top: ${after.join(', ')}`);
    assert.deepEqual(after.toSorted(), before.ids.toSorted(), 'learning reorders what the query matched and adds nothing');
    assert.equal((await search('BAGS  ')).ids[0], fourth, 'case, spacing and plural forms give one key');
    assert.deepEqual((await search('bag', { disable: [{ name: 'learning' }] })).ids, before.ids, 'a request can leave the learned order out');
    assert.deepEqual((await search('lantern')).ids, lanterns, 'a query nobody acted on is unchanged');
  });

  it('keeps a pinned item first: learning applies before pins', async () => {
    const before = await search('tote');
    assert.equal(before.ids[0], 't-pinned');
    const last = before.ids.at(-1)!;
    for (const shopper of ['a', 'b', 'c', 'd']) await click(`tote-${shopper}`, last, before, 'tote');
    later();
    const after = (await search('tote')).ids;
    assert.equal(after[0], 't-pinned', 'the pin stays where the merchandiser put it');
    assert.equal(after[1], last, `the learned item comes right after the pin: ${after.join(', ')}`);
  });

  it('ranks a browse request (no words, a category facet) by what shoppers clicked there', async () => {
    const browse = { options: { facets: [{ id: 'category', values: ['bags'] }] } };
    const before = await search('', browse);
    const last = before.ids.at(-1)!;
    // A category page's clicks carry no query: the search id this process answered names the browse key.
    for (const shopper of ['x', 'y', 'z']) await post('/collect/tenant-a-tracker', { action: 'click', target: { product: last }, user: { sessionId: `browse-${shopper}` }, sourceId: before.id });
    later();
    assert.equal((await search('', browse)).ids[0], last);
  });

  it('credits an add-to-cart and a purchase of a clicked item to the query it was clicked from', async () => {
    const before = await search('lantern');
    const last = before.ids.at(-1)!;
    // One click each from three shoppers, then two of them buy: purchases weigh more than clicks.
    const other = before.ids[1]!;
    for (const shopper of ['p', 'q', 'r']) await click(`lantern-${shopper}`, other, before, 'lantern');
    for (const shopper of ['s', 't', 'u']) {
      await click(`lantern-${shopper}`, last, before, 'lantern');
      await post('/collect/tenant-a-tracker', { action: 'purchase', target: { product: last }, user: { sessionId: `lantern-${shopper}` }, metadata: { quantity: 1, price: 10 } });
    }
    later();
    const after = (await search('lantern')).ids;
    assert.equal(after[0], last, `bought beats only clicked: ${after.join(', ')}`);
  });

  it('keeps the learned order across a restart, and stops when the configuration switches learning off', async () => {
    const learned = (await search('bag')).ids;
    await server.close();
    server = await startTestServer({ config, clock, dataDir });
    await server.server.deps.services.search.settled();
    assert.deepEqual((await search('bag')).ids, learned, 'the same order after a restart');

    const off = structuredClone(config) as any;
    off.tenants[0].environments[0].searchTokens[0].configurations[0].learning = { enabled: false };
    await server.close();
    server = await startTestServer({ config: off, clock, dataDir });
    const text = (await search('bag', {})).ids;
    assert.notEqual(text[0], learned[0], 'learning off: the text order');
    await server.close();
    server = await startTestServer({ config, clock, dataDir });
  });

  it('lifts what a shopper who looked at Christmas items likes among the candles, says so, and only for them', async () => {
    const anonymous = await post('/search', { token: TOKEN, query: 'candle' });
    const order = (anonymous.items as { id: string }[]).map((item) => item.id);
    assert.notEqual(order[0], 'x-candle');
    for (const item of ['x-wreath', 'x-bauble']) await post('/collect/tenant-a-tracker', { action: 'view', target: { product: item }, user: { sessionId: 'xmas-fan' } });
    const context = { session: { sessionId: 'xmas-fan' } };
    const personal = await post('/search', { token: TOKEN, query: 'candle', context });
    assert.equal(personal.items[0].id, 'x-candle', 'the Christmas candle first for this shopper');
    assert.equal(personal.metadata.personalized, true);
    assert.deepEqual(((await post('/search', { token: TOKEN, query: 'candle' })).items as { id: string }[]).map((item) => item.id), order, 'the same order as before for everyone else');
    const stranger = await post('/search', { token: TOKEN, query: 'candle', context: { session: { sessionId: 'never-seen' } } });
    assert.equal(stranger.metadata.personalized, undefined);
    assert.deepEqual((stranger.items as { id: string }[]).map((item) => item.id), order, 'a shopper without history gets the common order');
    const off = await post('/search', { token: TOKEN, query: 'candle', context, options: { disable: [{ name: 'personalization' }] } });
    assert.deepEqual((off.items as { id: string }[]).map((item) => item.id), order, 'off per request');
  });

  it('counts as-you-type searches in query analytics only once a result of one is clicked', async () => {
    const analytics = server.server.deps.services.searchAnalytics;
    const day = new Date(clock.now()).toISOString().slice(0, 10);
    const counted = (query: string) => analytics.summary(T, day, day).find((row) => row.query === query)?.searches ?? 0;
    let last = { id: '', ids: [] as string[] };
    for (const typed of ['l', 'la', 'lan', 'lant', 'lante', 'lanter']) last = await search(typed, { options: { asYouType: true } });
    assert.deepEqual(['l', 'la', 'lan', 'lant', 'lante', 'lanter'].map(counted), [0, 0, 0, 0, 0, 0], 'keystrokes are not searches');
    await click('typist', last.ids[0]!, last, 'lanter');
    assert.equal(counted('lanter'), 1, 'the search the shopper acted on counts once');
    assert.equal(analytics.summary(T, day, day).find((row) => row.query === 'lanter')?.clicks, 1);
  });
});
