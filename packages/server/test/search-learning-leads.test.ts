// Queries that lead to products, over a real server with real collection requests and a frozen clock:
// shoppers search a query whose words match nothing they want, search again and buy; once enough of
// them did, the product joins the first query's results, marked `learned`. Fewer shoppers, one session
// however often, a purchase long after the search, a filter excluding it, or a request switching it off:
// nothing joins. AI Search widens it to shoppers who only clicked. Erasing the shoppers removes it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { ManualClock } from '../src/platform/clock.js';
import { explainSearch } from '../src/domains/admin/search-explain.js';
import { isPublicAddress, networkOf } from '../src/domains/tracking/response-ids.js';
import { makeDataDir, startTestServer, testConfigWithSearch, type TestServer } from './support/test-server.js';

const T = 'tenant-a';
const E = 'prod';
const TOKEN = 'shop-search';
const clock = new ManualClock(Date.parse('2026-11-20T10:00:00Z'));
// One reverse proxy in front (X-Forwarded-For names the shopper's address), as a production deployment runs.
const config = { ...testConfigWithSearch(TOKEN, { id: 'default', facets: [{ id: 'category', title: 'Category', attribute: 'category' }] }), trustedProxies: 1 };
let server: TestServer;
let dataDir: string;

async function post(path: string, body: unknown, from?: string): Promise<Record<string, any>> {
  const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(from === undefined ? {} : { 'x-forwarded-for': from }) }, body: JSON.stringify(body) });
  const json = (await res.json()) as Record<string, any>;
  assert.equal(res.status, 200, JSON.stringify(json));
  return json;
}

interface Answer {
  id: string;
  items: { id: string; learned?: true }[];
}

async function search(query: string, extra: Record<string, unknown> = {}): Promise<Answer> {
  const body = await post('/search', { token: TOKEN, query, ...extra });
  return { id: body.metadata.id as string, items: body.items as Answer['items'] };
}

const ids = (answer: Answer) => answer.items.map((item) => item.id);
const learned = (answer: Answer) => answer.items.filter((item) => item.learned === true).map((item) => item.id);

/** What the toolkit sends on a results page: the page's view with its query, then a click and an add-to-cart. */
async function journey(shopper: string, first: string, then: string, item: string, act: 'add-to-cart' | 'purchase' | 'click' = 'add-to-cart'): Promise<void> {
  const firstAnswer = await search(first);
  await post('/collect/tenant-a-tracker', { action: 'view', target: { page: `/search?q=${first}` }, user: { sessionId: shopper }, sourceId: firstAnswer.id, metadata: { query: first } });
  clock.advance(20_000);
  const second = await search(then);
  await post('/collect/tenant-a-tracker', { action: 'view', target: { page: `/search?q=${then}` }, user: { sessionId: shopper }, sourceId: second.id, metadata: { query: then } });
  await post('/collect/tenant-a-tracker', { action: 'click', target: { product: item }, user: { sessionId: shopper }, sourceId: second.id, metadata: { query: then, position: ids(second).indexOf(item) + 1 } });
  if (act !== 'click') await post('/collect/tenant-a-tracker', { action: act, target: { product: item }, user: { sessionId: shopper }, ...(act === 'purchase' ? { orderId: `o-${shopper}`, price: 1200, quantity: 1, currency: 'GBP' } : {}) });
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
    { id: 'cat-doorstop', title: 'Cat Doorstop', category: 'home' },
    { id: 'cat-mug', title: 'Cat Mug', category: 'kitchen' },
    { id: 'jewellery-box', title: 'Jewellery Box', category: 'gifts' },
    { id: 'tea-towel', title: 'Tea Towel', category: 'kitchen' },
    { id: 'dog-lead', title: 'Dog Lead', category: 'pets' },
    { id: 'bath-towel', title: 'Bath Towel', category: 'bathroom' },
    { id: 'linen-towel', title: 'Linen Towel', category: 'kitchen' },
  ];
  await catalog.items.load(T, E, items.map(({ id, title, category }) => ({ id, catalogVersion: record.version, type: 'product', attributes: { title, category } })));
  await (await catalog.catalogs.promote(T, E, record.version)).activation;
});

after(async () => {
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('queries that lead to products', () => {
  it('adds what three shoppers carted after searching again to the first query, marked learned; not on two, nor on one session repeating it', async () => {
    assert.deepEqual(ids(await search('kittyhome')), [], 'the words match nothing');
    await journey('s1', 'kittyhome', 'cat', 'cat-doorstop');
    for (let i = 0; i < 20; i++) await journey('repeater', 'Kittyhome', 'cat', 'cat-doorstop');
    later();
    assert.deepEqual(ids(await search('kittyhome')), [], 'two shoppers, one of them repeating it 20 times, add nothing');
    await journey('s2', 'kittyhome ', 'cat', 'cat-doorstop', 'purchase');
    later();
    const answer = await search('kittyhome');
    assert.deepEqual(ids(answer), ['cat-doorstop']);
    assert.deepEqual(learned(answer), ['cat-doorstop'], 'marked items[].learned');
    assert.deepEqual(learned(await search('cat')), [], 'the second query matched it: nothing is marked there');
  });

  it('applies filters and facets to what joined, and is switched off by the request', async () => {
    assert.deepEqual(ids(await search('kittyhome', { options: { filter: 'category = "kitchen"' } })), [], 'a filter excluding it');
    assert.deepEqual(ids(await search('kittyhome', { options: { facets: [{ id: 'category', values: ['home'] }] } })), ['cat-doorstop'], 'a facet selection keeping it');
    assert.deepEqual(ids(await search('kittyhome', { disable: [{ name: 'leads' }] })), [], 'disable leads');
    assert.deepEqual(ids(await search('kittyhome', { options: { disable: [{ name: 'learning' }] } })), [], 'disable learning');
  });

  it('does not count a purchase made long after the search', async () => {
    for (const shopper of ['late-1', 'late-2', 'late-3']) {
      const first = await search('jewelry');
      await post('/collect/tenant-a-tracker', { action: 'view', target: { page: '/search?q=jewelry' }, user: { sessionId: shopper }, sourceId: first.id, metadata: { query: 'jewelry' } });
      clock.advance(2 * 60 * 60_000);
      await post('/collect/tenant-a-tracker', { action: 'add-to-cart', target: { product: 'jewellery-box' }, user: { sessionId: shopper } });
    }
    later();
    assert.deepEqual(learned(await search('jewelry')), []);
  });

  it('counts shoppers who only clicked when the request asks for AI Search', async () => {
    for (const shopper of ['c1', 'c2', 'c3', 'c4']) await journey(shopper, 'puppy', 'dog', 'dog-lead', 'click');
    later();
    assert.deepEqual(learned(await search('puppy')), [], 'clicks alone do not lead');
    assert.deepEqual(learned(await search('puppy', { options: { aiSearch: true } })), ['dog-lead']);
    assert.deepEqual(learned(await search('puppy', { itemOptions: { aiSearch: true } })), ['dog-lead'], 'as the 3.0 definition sends it');
  });

  it('explains what joined and who it led, and forgets the shoppers erased', async () => {
    const admin = server.server.deps.services;
    // What the console's search tuning and the admin API's explain show.
    const configuration = server.server.deps.registry.searchToken(TOKEN).token.configurations[0]!;
    const explanation = explainSearch({ search: admin.search, tenantId: T, environmentId: E, configuration, query: 'kittyhome', limit: 20, variables: {} });
    const hit = explanation.hits.find((h) => h.id === 'cat-doorstop');
    assert.equal(hit?.joined, true);
    assert.equal(hit?.learned?.shoppers, 3, 'the shoppers it led');
    assert.deepEqual([hit?.learned?.addToCarts, hit?.learned?.purchases], [2, 1]);
    assert.deepEqual(explanation.learning?.leads.map((item) => item.id), ['cat-doorstop']);
    admin.search.learning!.forgetProfiles(T, [admin.activities.findProfile(T, { sessionId: 's1' })!.id]);
    later();
    assert.deepEqual(ids(await search('kittyhome')), [], 'two shoppers left: it leaves the results');
  });

  it('takes an IPv6 /64 as one network, and gives private and loopback addresses (a proxy, a test machine) no origin', () => {
    assert.equal(networkOf('2001:db8:5::1'), networkOf('2001:0db8:0005:0000:ffff::2'));
    assert.notEqual(networkOf('2001:db8:5::1'), networkOf('2001:db8:6::1'));
    assert.equal(networkOf('::ffff:203.0.113.7'), '203.0.113.7');
    for (const address of ['127.0.0.1', '10.1.2.3', '172.20.0.5', '192.168.1.9', '::1', 'fd00::5', 'fe80::1', '::ffff:10.0.0.1', 'not an address']) assert.equal(isPublicAddress(address), false, address);
    for (const address of ['203.0.113.7', '2001:db8:5::1', '::ffff:198.51.100.9']) assert.equal(isPublicAddress(address), true, address);
  });

  it('counts many sessions behind one public address as two shoppers at most; a shopper from another address makes three', async () => {
    // A query no earlier test taught anything.
    const before = await search('towel');
    const second = ids(before)[1]!;
    const clickFrom = (shopper: string, address: string) =>
      post('/collect/tenant-a-tracker', { action: 'click', target: { product: second }, user: { sessionId: shopper }, sourceId: before.id, metadata: { query: 'towel', position: 2 } }, address);
    for (let i = 0; i < 20; i++) await clickFrom(`made-up-${i}`, '203.0.113.7');
    later();
    assert.deepEqual(ids(await search('towel')), ids(before), 'twenty sessions from one address are two shoppers: short of three');
    await clickFrom('real-shopper', '198.51.100.9');
    later();
    assert.equal(ids(await search('towel'))[0], second, 'a shopper from another address makes three: the item rises');
  });
});
