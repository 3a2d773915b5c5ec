/**
 * Contract tests: the interface's published MIT clients, unmodified, against the real server on a real
 * port. Search, suggest and autocomplete through `@attraqt/search`; single and batched activity sends
 * with the client's default user (`identities.sessionid`, empty segments and traits) and its memory
 * storage through `@attraqt/activity`. Whatever they send must be accepted and must change what a
 * shopper sees: the profile's history and the recommendations.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Activity } from '@attraqt/activity';
import { Search } from '@attraqt/search';
import { MemoryStorage } from '@attraqt/storage-memory';
import { ManualClock } from '../src/platform/clock.js';
import { ServerRoutedHttpClient } from './support/published-clients.js';
import { loadCatalog, recommendationConfig, TENANT } from './support/recommendation-fixture.js';
import { call, startTestServer, type TestServer } from './support/test-server.js';

const TRACKER_KEY = 'tenant-a-tracker';
const SEARCH_TOKEN = 'tenant-a-search';
const vars = (value: unknown) => encodeURIComponent(JSON.stringify(value));
const ids = (body: { recommendations: Array<{ product: { _id: { original_id: string } } }> }) => body.recommendations.map((r) => r.product._id.original_id);

describe('published clients, unmodified', () => {
  let server: TestServer;
  let http: ServerRoutedHttpClient;
  const clock = new ManualClock(Date.parse('2026-11-23T10:00:00Z'));

  before(async () => {
    const config = recommendationConfig() as { tenants: Array<{ environments: Array<{ searchTokens: Array<{ configurations: unknown[] }> }> }> };
    // A store variable the client's context carries pins the Paris store's bag.
    config.tenants[0]!.environments[0]!.searchTokens[0]!.configurations = [{ id: 'default', contextVariables: { store: 'string' }, rules: [{ when: { store: 'paris' }, pin: ['bag-1'] }] }];
    server = await startTestServer({ config, clock });
    await loadCatalog(server.server);
    http = new ServerRoutedHttpClient(server.url);
  });
  after(() => server.cleanup());

  function newShopper(storage = new MemoryStorage()): InstanceType<typeof Activity> {
    const client = new Activity();
    client.init({ trackerKey: TRACKER_KEY, storage }, http);
    return client;
  }

  async function history(sessionId: string, query = ''): Promise<Array<{ verb: string; originalId: string }>> {
    const profile = server.server.deps.services.activities.findProfile(TENANT, { sessionId });
    assert.ok(profile, `a profile for session ${sessionId}`);
    const res = await call(`${server.url}/tracker/${TRACKER_KEY}/profiles/${profile.id}/activities${query}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.data;
  }

  it('activity client: a single send with the default user is stored under its sessionid and shows in the history', async () => {
    const shopper = newShopper();
    const sessionId = shopper.user.identities.sessionid!;
    assert.match(sessionId, /^[0-9a-f-]{36}$/);
    const res = await shopper.send({ action: 'view', target: { product: 'shoe-1' } });
    assert.equal(res?.status, 200, res?.body);
    assert.deepEqual(JSON.parse(res!.body), { profiles: {} });
    // What the client put on the wire: a one-element array with its default user.
    const sent = JSON.parse(http.sent.at(-1)!.body!);
    assert.deepEqual(sent, [{ action: 'view', target: { product: 'shoe-1' }, user: { identities: { sessionid: sessionId }, segments: [], traits: {} } }]);
    assert.deepEqual((await history(sessionId)).map((a) => [a.verb, a.originalId]), [['view', 'shoe-1']]);
  });

  it('activity client: a batch (view, add-to-cart, purchase with metadata) is stored whole, and the same storage keeps one profile', async () => {
    const storage = new MemoryStorage();
    const first = newShopper(storage);
    const res = await first.send([
      { action: 'view', target: { product: 'sock-1' }, sourceId: 'search-1', metadata: { query: 'socks' } },
      { action: 'add-to-cart', target: { product: 'sock-1' } },
      { action: 'purchase', target: { product: 'sock-1' }, metadata: { orderId: 'o-9', price: 1000, quantity: 2, currency: 'EUR' } },
    ]);
    assert.equal(res?.status, 200, res?.body);
    // A later page load re-creates the client over the same storage: same sessionid, same profile.
    const again = newShopper(storage);
    assert.equal(again.user.identities.sessionid, first.user.identities.sessionid);
    assert.equal((await again.send({ action: 'view', target: { product: 'sock-2' } }))?.status, 200);
    const list = await history(first.user.identities.sessionid!);
    assert.deepEqual(list.map((a) => [a.verb, a.originalId]), [['view', 'sock-2'], ['purchase', 'sock-1'], ['add-to-cart', 'sock-1'], ['view', 'sock-1']]);
    assert.deepEqual(list.find((a) => a.verb === 'purchase'), { ...list.find((a) => a.verb === 'purchase'), price: 1000, quantity: 2 });
  });

  it('activity client: user segments, traits and an added identity are accepted; segments reach the activities', async () => {
    const shopper = newShopper();
    shopper.addUserSegment('vip');
    shopper.addUserTrait('tier', 'gold');
    shopper.addUserIdentity('customer-id', 'cust-77');
    const res = await shopper.send({ action: 'view', target: { product: 'bag-1' } });
    assert.equal(res?.status, 200, res?.body);
    const profile = server.server.deps.services.activities.findProfile(TENANT, { repository: 'customer-id', userId: 'cust-77' });
    assert.ok(profile);
    const page = await call(`${server.url}/tracker/${TRACKER_KEY}/profiles/${profile.id}/activities`);
    assert.deepEqual(page.body.data.map((a: { originalId: string; segments: unknown }) => [a.originalId, a.segments]), [['bag-1', ['vip']]]);
  });

  it('activity client: what it sends changes recommendations (also-viewed, recently-viewed by sessionid)', async () => {
    const alsoViewed = async () => {
      const res = await call(`${server.url}/widget/w-also-viewed/recommendations?variables=${vars({ $productId: 'shoe-3' })}`);
      return res.body.recommendations.filter((r: { strategy: string }) => r.strategy === 'also-viewed').map((r: { product: { _id: { original_id: string } } }) => r.product._id.original_id);
    };
    assert.deepEqual(await alsoViewed(), []);
    const shopper = newShopper();
    for (const product of ['shoe-3', 'bag-2']) assert.equal((await shopper.send({ action: 'view', target: { product } }))?.status, 200);
    assert.deepEqual(await alsoViewed(), ['bag-2']);
    const recent = await call(`${server.url}/widget/w-recent/recommendations/sessionid/${shopper.user.identities.sessionid}/`);
    assert.equal(recent.status, 200, JSON.stringify(recent.body));
    assert.deepEqual(ids(recent.body), ['bag-2', 'shoe-3']);
  });

  it('search client: query, suggest and autocomplete answer in the shapes the client parses', async () => {
    const search = new Search();
    search.init({ token: SEARCH_TOKEN }, http);
    const found = await search.query('running', { limit: 5, sortBy: [{ attribute: 'price', order: 'asc' }] });
    assert.deepEqual(found.items.map((i) => i.id), ['shoe-2', 'shoe-1']);
    assert.equal(found.metadata?.token, SEARCH_TOKEN);
    assert.equal(found.metadata?.count, 2);
    const grouped = await search.suggest('shoes', { groupBy: { attribute: 'brand', size: 1, values: [] } });
    const groups = (grouped as unknown as { groups: Array<{ value: string; count: number; items: unknown[] }> }).groups;
    assert.deepEqual(groups.map((g) => [g.value, g.count, g.items.length]), [['Acme', 2, 1], ['Zed', 1, 1]]);
    // Autocomplete offers earlier queries whose results pages (views sent with the activity client)
    // at least two shoppers opened, most viewed first; one shopper's query reaches nobody else.
    const [first, second] = [newShopper(), newShopper()];
    const viewResults = async (shopper: typeof first, query: string) =>
      assert.equal((await shopper.send({ action: 'view', target: { page: '/search' }, metadata: { query } }))?.status, 200);
    for (const shopper of [first, second, first]) await viewResults(shopper, 'running shoes');
    for (const shopper of [first, second]) await viewResults(shopper, 'running');
    await viewResults(first, 'running late');
    const completions = await search.autocomplete('runn', { numberOfSuggestions: 5 });
    assert.deepEqual(completions.suggestions.map((s) => s.suggestion), ['running shoes', 'running']);
  });

  it('search client: the context it sends (session, variables) is read, and a store variable fires its rule in query and suggest', async () => {
    const search = new Search();
    search.init({ token: SEARCH_TOKEN }, http);
    const context = { session: { sessionId: 'shopper-9' }, variables: { store: 'paris' } };
    const inParis = await search.query('running', { limit: 5 }, undefined, context);
    assert.deepEqual(inParis.items.map((i) => i.id), ['bag-1', 'shoe-2', 'shoe-1']);
    assert.deepEqual(JSON.parse(http.sent.at(-1)!.body!).context, context);
    const elsewhere = await search.query('running', { limit: 5 }, undefined, { session: { sessionId: 'shopper-9' }, variables: { store: 'lyon' } });
    assert.deepEqual(elsewhere.items.map((i) => i.id), ['shoe-2', 'shoe-1']);
    const grouped = await search.suggest('running', { groupBy: { attribute: 'brand', size: 1, values: [] } }, undefined, context);
    const groups = (grouped as unknown as { groups: Array<{ value: string; items: Array<{ id: string }> }> }).groups;
    // Groups come most frequent value first; the pinned bag joins the matches.
    assert.deepEqual(groups.map((g) => [g.value, g.items[0]!.id]), [['Acme', 'shoe-2'], ['Other', 'bag-1']]);
  });
});
