/**
 * Search threads (`searchThreads`, domains/search/threads/search-threads.ts): a real server with one thread, its
 * answers compared with the main thread's own for the same requests, refusals, writes, a promotion and
 * a thread that stops.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Worker } from 'node:worker_threads';
import type { SearchThreads } from '../src/domains/search/threads/search-threads.js';
import { catalogRequests } from './support/catalog-requests.js';
import { SEARCH_ENV, SEARCH_TENANT, SEARCH_TOKEN, startSearchCatalog, type SearchCatalog } from './support/search-catalog.js';

const COLOURS = ['red', 'blue', 'green', 'black', 'white'];
const NOUNS = ['lamp', 'lantern', 'bowl', 'basket', 'candle', 'mug', 'cushion', 'hook'];
const BRANDS = ['Acme', 'Nordic', 'Folk'];

function product(n: number, version: number, prefix = ''): Record<string, unknown> {
  const colour = COLOURS[n % COLOURS.length]!;
  const noun = NOUNS[(n * 7) % NOUNS.length]!;
  return {
    id: `${prefix}p${n}`,
    catalogVersion: version,
    type: 'product',
    attributes: { title: `${prefix}${colour} ${noun} ${n % 13 === 0 ? 'vintage' : 'modern'}`, brand: BRANDS[n % BRANDS.length], color: colour, description: `a ${noun} for the home, number ${n}`, price: 100 + ((n * 37) % 5000), popularity: (n * 7919) % 1000 },
  };
}

const CONFIGURATION = {
  id: 'default',
  fields: [
    { attribute: 'title', weight: 3 },
    { attribute: 'brand', weight: 2 },
    { attribute: 'description', weight: 1 },
  ],
  facets: [
    { id: 'color', title: 'Colour', attribute: 'color' },
    { id: 'brand', title: 'Brand', attribute: 'brand' },
    { id: 'price', title: 'Price', attribute: 'price', type: 'range', ranges: [{ label: 'low', to: 1000 }, { label: 'high', from: 1000 }] },
  ],
  defaultSort: [{ attribute: 'popularity', order: 'desc' }],
  contextVariables: { store: 'string' },
  rules: [{ when: { store: 'paris' }, pin: ['p7'] }],
};

/** Requests of every shape the search API takes: each is answered by the main thread and by the thread. */
const REQUESTS: Record<string, unknown>[] = [
  { query: 'red lamp' },
  { query: 'lan' },
  { query: 'lantren' },
  { query: '' },
  { query: 'vintage', options: { facets: [{ id: 'color', values: ['red', 'blue'] }], filter: 'price < 3000' } },
  { query: 'bowl', options: { facets: [{ id: 'color', values: ['green'] }, { id: 'brand', values: ['Folk'] }] } },
  { query: 'basket', options: { sortBy: [{ attribute: 'price', order: 'asc' }], offset: 5, limit: 7 } },
  { query: 'mug', options: { sortBy: [{ attribute: 'title' }], highlight: true } },
  { query: 'candle nordic', options: { highlight: ['title', 'brand'], customResponseMask: 'id,product(title,brand)' } },
  { query: 'hook', options: { disable: [{ name: 'facet' }] } },
  { query: 'the lamp of nothing' },
  { query: 'zzzz' },
  { query: 'cushion', configurationId: 'default', options: { limit: 0 } },
  // The published definition's current shape; the context's store fires the pin rule in the thread too.
  { query: 'bowl', itemOptions: { limit: 3 }, context: { session: { sessionId: 's-1' }, contextVariables: [{ name: 'store', value: { stringValue: 'paris' } }] } },
];

/** An answer without what differs between two answers of the same request (its id and time). */
function comparable(body: { metadata: Record<string, unknown> }): unknown {
  const { id, time, ...metadata } = body.metadata;
  assert.equal(typeof id, 'string');
  assert.equal(typeof time, 'number');
  return { ...body, metadata };
}

async function until(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('search threads', () => {
  let shop: SearchCatalog;
  let base: string;
  let threads: SearchThreads;

  before(async () => {
    shop = await startSearchCatalog({
      configuration: CONFIGURATION,
      attributes: ['title', 'brand', 'color', 'description'],
      numbers: ['price', 'popularity'],
      items: (version) => Array.from({ length: 3_000 }, (_, n) => product(n, version)),
      settings: { searchThreads: 1 },
    });
    base = (await shop.server.listen(0)).url;
    threads = shop.server.deps.services.searchThreads!;
    assert.ok(threads !== undefined);
    await until(() => threads.inStepFor(SEARCH_TENANT, SEARCH_ENV), 'the thread holds the catalog');
  });
  after(() => shop.close());

  const post = async (body: Record<string, unknown>) => {
    const res = await fetch(`${base}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: SEARCH_TOKEN, ...body }) });
    return { status: res.status, body: (await res.json()) as { items: { id: string; product?: { title?: string } }[]; metadata: Record<string, unknown>; error?: Record<string, unknown> } };
  };

  /** The same request answered by the main thread (threads paused), then by the thread (which must answer it). */
  const bothWays = async (body: Record<string, unknown>) => {
    threads.paused = true;
    const main = await post(body);
    threads.paused = false;
    const served = threads.counts.threads;
    const thread = await post(body);
    assert.equal(threads.counts.threads, served + 1, `the thread should have answered ${JSON.stringify(body)}`);
    return { main, thread };
  };

  it('answers every request shape exactly as the main thread does', async () => {
    for (const request of REQUESTS) {
      const { main, thread } = await bothWays(request);
      assert.equal(main.status, 200, JSON.stringify(main.body));
      assert.equal(thread.status, 200);
      assert.deepEqual(comparable(thread.body), comparable(main.body), JSON.stringify(request));
    }
    const paris = await bothWays(REQUESTS.at(-1)!);
    assert.equal(paris.thread.body.items[0]?.id, 'p7');
    // The GET form reaches the thread too.
    const served = threads.counts.threads;
    const res = await fetch(`${base}/search/${SEARCH_TOKEN}?encoded=${encodeURIComponent(JSON.stringify({ query: 'red lamp' }))}`);
    assert.equal(res.status, 200);
    assert.ok(((await res.json()) as { items: unknown[] }).items.length > 0);
    assert.equal(threads.counts.threads, served + 1);
    // The operator sees who answered in /metrics.
    const metrics = await (await fetch(`${base}/metrics`)).text();
    const answered = /discovery_search_thread_answers_total\{answered_by="thread"\} (\d+)/.exec(metrics);
    assert.ok(answered !== null && Number(answered[1]) >= REQUESTS.length + 1, metrics.slice(0, 200));
  });

  it('writes its answers into buffers the main thread hands back once sent, and a page too large for one into its own', async () => {
    const made = async () => (await threads.stats())[0]!.answerBuffers;
    const start = (await made()).made;
    const served = threads.counts.threads;
    for (let i = 0; i < 30; i++) {
      const { status, body } = await post({ query: NOUNS[i % NOUNS.length]! });
      assert.equal(status, 200);
      assert.ok(body.items.length > 0);
    }
    // HEAD of the GET form: headers only, and the buffer goes back all the same.
    for (let i = 0; i < 5; i++) {
      const head = await fetch(`${base}/search/${SEARCH_TOKEN}?encoded=${encodeURIComponent(JSON.stringify({ query: 'red lamp' }))}`, { method: 'HEAD' });
      assert.equal(head.status, 200);
      assert.ok(Number(head.headers.get('content-length')) > 100);
      assert.equal(await head.text(), '');
    }
    assert.equal(threads.counts.threads, served + 35, 'the thread answered every one');
    const pool = await made();
    // One request at a time: each answer's buffer is back in the pool before the next request arrives.
    assert.ok(pool.made - start <= 2, `${pool.made - start} buffers made for 35 answers`);
    assert.ok(pool.free >= 1);
    const large = await bothWays({ query: 'lamp', options: { limit: 1000 } });
    assert.ok(large.thread.body.items.length > 300, String(large.thread.body.items.length));
    assert.deepEqual(comparable(large.thread.body), comparable(large.main.body));
  });

  it('leaves suggestions to the main thread', async () => {
    const served = threads.counts.threads;
    const res = await fetch(`${base}/search/suggest`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: SEARCH_TOKEN, query: 'lamp', options: { groupBy: { attribute: 'brand', size: 3 } } }) });
    assert.equal(res.status, 200);
    assert.ok(((await res.json()) as { groups: unknown[] }).groups.length > 0);
    assert.equal(threads.counts.threads, served);
  });

  it('refuses what the main thread refuses, with the same answer', async () => {
    for (const options of [{ filter: 'brand =' }, { filter: "price < 'x' AND" }]) {
      const { main, thread } = await bothWays({ query: 'lamp', options });
      assert.equal(main.status, 400);
      const { requestId: a, ...mainError } = main.body.error!;
      const { requestId: b, ...threadError } = thread.body.error!;
      assert.notEqual(a, b);
      assert.deepEqual(threadError, mainError);
      assert.equal(threadError.field, 'options.filter');
    }
  });

  it('serves a write once the thread has applied it, and the main thread answers until then', async () => {
    const catalog = catalogRequests(shop.server.deps.services.catalog);
    await catalog.items.load(SEARCH_TENANT, SEARCH_ENV, [{ ...product(7, shop.version), attributes: { ...(product(7, shop.version).attributes as object), title: 'quetzal lamp' } }]);
    // Whoever answers, the write is found once the main thread's index has it.
    await shop.server.deps.services.search.settled();
    const first = await post({ query: 'quetzal' });
    assert.deepEqual(first.body.items.map((item) => item.id), ['p7']);
    await until(() => threads.inStepFor(SEARCH_TENANT, SEARCH_ENV), 'the thread applied the write');
    const { main, thread } = await bothWays({ query: 'quetzal' });
    assert.deepEqual(thread.body.items.map((item) => item.id), ['p7']);
    assert.deepEqual(comparable(thread.body), comparable(main.body));
  });

  it('after a promotion, answers from the new catalog on both threads', async () => {
    const catalog = catalogRequests(shop.server.deps.services.catalog);
    const { version } = await catalog.catalogs.create(SEARCH_TENANT, SEARCH_ENV, { catalogItemSchemas: [{ name: 'product', version: 1 }] });
    await catalog.items.load(SEARCH_TENANT, SEARCH_ENV, Array.from({ length: 500 }, (_, n) => product(n, version, 'new')));
    await (await shop.server.deps.services.catalog.catalogs.promote(SEARCH_TENANT, SEARCH_ENV, version)).activation;
    // At once: the main thread's index is the new one, and no thread holding the old one answers.
    const now = await post({ query: 'newred' });
    assert.ok(now.body.items.length > 0 && now.body.items.every((item) => item.id.startsWith('newp')), JSON.stringify(now.body.items.slice(0, 3)));
    await until(() => threads.inStepFor(SEARCH_TENANT, SEARCH_ENV), 'the thread holds the new catalog');
    const { main, thread } = await bothWays({ query: 'newred lamp', options: { facets: [{ id: 'color', values: ['red'] }] } });
    assert.ok(thread.body.items.length > 0);
    assert.deepEqual(comparable(thread.body), comparable(main.body));
    // The old catalog's items are gone from both.
    const old = await post({ query: 'vintage' });
    assert.ok(old.body.items.length > 0 && old.body.items.every((item) => item.id.startsWith('newp')));
  });

  it('after a runtime configuration change that weighs a new field, answers by the new configuration on both threads', async () => {
    const before = await post({ query: 'red' });
    const { admin } = shop.server.deps.services;
    const actor = { id: 'console:test', tenantId: SEARCH_TENANT, role: 'edit' as const };
    await admin.putSearchConfiguration(actor, { tenantId: SEARCH_TENANT, environmentId: SEARCH_ENV }, SEARCH_TOKEN, 'default', { ...CONFIGURATION, fields: [...CONFIGURATION.fields, { attribute: 'color', weight: 5 }] });
    await until(() => threads.inStepFor(SEARCH_TENANT, SEARCH_ENV), 'the thread rebuilt its index with the new field');
    const { main, thread } = await bothWays({ query: 'red' });
    // The colour now weighs in: the scores changed, and the thread agrees with the main thread.
    assert.notDeepEqual(thread.body.items.map((item) => (item as { score?: number }).score), before.body.items.map((item) => (item as { score?: number }).score));
    assert.deepEqual(comparable(thread.body), comparable(main.body));
  });

  it('when a thread stops, the main thread answers meanwhile and a new thread takes over', async () => {
    const replicas = (threads as unknown as { replicas: { worker: Worker }[] }).replicas;
    await replicas[0]!.worker.terminate();
    const meanwhile = await post({ query: 'newblue' });
    assert.equal(meanwhile.status, 200);
    assert.ok(meanwhile.body.items.length > 0);
    await until(() => threads.inStepFor(SEARCH_TENANT, SEARCH_ENV), 'a new thread holds the catalog');
    const { main, thread } = await bothWays({ query: 'newblue' });
    assert.deepEqual(comparable(thread.body), comparable(main.body));
  });
});
