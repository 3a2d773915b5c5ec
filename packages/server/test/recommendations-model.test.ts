/**
 * The trained model behind `personalized`, through HTTP: it learns which items go together from
 * every shopper, leaves out what the shopper bought (per widget), counts a new purchase at once,
 * survives a restart without retraining, and a damaged model file is rebuilt rather than served.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { call, makeDataDir, startTestServer, testConfig, type TestServer } from './support/test-server.js';
import { loadCatalog, TENANT, type Product } from './support/recommendation-fixture.js';
import { grewWhileBusy } from '../src/domains/recommendations/model-trainer.js';
import { TRAINING_NICE } from '../src/domains/recommendations/model-worker.js';
import { readdirSync, readFileSync } from 'node:fs';

const GARDEN = ['g1', 'g2', 'g3', 'g4', 'g5', 'g6'];
const KITCHEN = ['k1', 'k2', 'k3', 'k4', 'k5', 'k6'];
const PRODUCTS: Product[] = [...GARDEN, ...KITCHEN, 'bestseller'].map((id) => ({ id, categories: id[0] === 'g' ? 'garden' : 'kitchen', brand: 'B' }));

function config(widgetExtras: Record<string, unknown> = {}): Record<string, unknown> {
  const base = testConfig() as { tenants: Array<{ environments: Array<{ widgets?: unknown[] }> }> };
  base.tenants[0]!.environments[0]!.widgets = [
    { id: 'picked', strategies: ['personalized'], minResults: 0, maxResults: 10, ...widgetExtras },
    { id: 'picked-all', strategies: ['personalized'], minResults: 0, maxResults: 10, excludePurchased: false },
  ];
  return base;
}

const ids = (body: { recommendations: Array<{ product: { _id: { original_id: string } } }> }) => body.recommendations.map((r) => r.product._id.original_id);

/** 24 shoppers, each buying four items of one department in one order; everyone also buys the bestseller. */
async function sendHistories(url: string): Promise<void> {
  const batch: unknown[] = [];
  for (let s = 0; s < 24; s++) {
    const department = s % 2 === 0 ? GARDEN : KITCHEN;
    const picks = [0, 1, 2, 3].map((k) => department[(s + k) % department.length]!);
    for (const product of [...picks, 'bestseller']) {
      batch.push({ action: 'purchase', target: { product }, user: { identities: { 'customer-id': `c${s}` } }, metadata: { orderId: `o${s}` } });
    }
  }
  batch.push(...['g1', 'g2'].map((product) => ({ action: 'purchase', target: { product }, user: { identities: { 'customer-id': 'me' } }, metadata: { orderId: 'mine-1' } })));
  const res = await call(`${url}/collect/tenant-a-tracker`, { json: batch });
  assert.equal(res.status, 200);
}

describe('personalized recommendations from the trained model', () => {
  let dataDir: string;
  let server: TestServer;
  const me = (widget = 'picked') => call(`${server.url}/widget/${widget}/recommendations/customer-id/me/`);

  before(async () => {
    dataDir = await makeDataDir();
    server = await startTestServer({ config: config(), dataDir });
    await loadCatalog(server.server, PRODUCTS);
    await sendHistories(server.url);
    await server.server.deps.services.recommendations.models.trainNow(TENANT);
  });
  after(() => server.cleanup());

  it('trains on a thread of the lowest CPU priority, the request thread keeping the default (Linux)', async () => {
    // The before hook trained once: the training thread is up.
    assert.equal(process.platform, 'linux', 'the CI machine and this check are Linux: a nice value per thread');
    const niceOf = (tid: string) => {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    };
    const threads = readdirSync('/proc/self/task');
    assert.equal(niceOf(String(process.pid)), 0, 'the main thread, which answers requests and folds activities');
    assert.ok(threads.some((tid) => niceOf(tid) === TRAINING_NICE), `a thread at nice ${TRAINING_NICE} among ${threads.length}`);
  });

  it("recommends the shopper's department first and leaves out what they bought", async () => {
    const res = await me();
    assert.equal(res.status, 200);
    const list = ids(res.body);
    assert.ok(!list.includes('g1') && !list.includes('g2'), list.join());
    // The rest of the garden ranks above every kitchen item.
    const lastGarden = Math.max(...['g3', 'g4', 'g5', 'g6'].map((id) => list.indexOf(id)));
    const firstKitchen = Math.min(...KITCHEN.map((id) => list.indexOf(id)).filter((i) => i >= 0));
    assert.ok(lastGarden >= 0 && !list.slice(0, 5).includes('-1') && lastGarden < firstKitchen, list.join());
    assert.ok(['g3', 'g4', 'g5', 'g6'].every((id) => list.includes(id)), list.join());
    assert.ok(res.body.recommendations.every((r: { strategy: string }) => r.strategy === 'personalized'));
  });

  it("seeds a brand-new visitor's first page with the session's views, not the popular list, and leaves out what they looked at", async () => {
    const collect = (product: string) => call(`${server.url}/collect/tenant-a-tracker`, { json: { action: 'view', target: { product }, user: { sessionId: 'newcomer' } } });
    const page = async () => {
      const id = server.server.deps.services.activities.findProfile(TENANT, { sessionId: 'newcomer' })?.id ?? 'never-seen';
      const res = await call(`${server.url}/widget/picked/recommendations/${id}`);
      assert.equal(res.status, 200);
      return ids(res.body);
    };
    const popular = await page();
    assert.equal(popular[0], 'bestseller', 'before any view: the popular list');
    assert.equal((await collect('k1')).status, 200);
    const first = await page();
    assert.ok(!first.includes('k1'), first.join());
    // What goes with the viewed kitchen item (the rest of the kitchen) before any garden item; the
    // bestseller, bought with everything, may stay on top.
    const kitchenFirst = (list: string[], viewed: string[]) => {
      const rest = KITCHEN.filter((id) => !viewed.includes(id));
      const lastKitchen = Math.max(...rest.map((id) => list.indexOf(id)));
      const firstGarden = Math.min(...GARDEN.map((id) => list.indexOf(id)).filter((i) => i >= 0));
      assert.ok(rest.every((id) => list.includes(id)) && lastKitchen < firstGarden, list.join());
      assert.notDeepEqual(list, popular);
    };
    kitchenFirst(first, ['k1']);
    assert.equal((await collect('k4')).status, 200);
    const second = await page();
    assert.ok(!second.includes('k1') && !second.includes('k4'), second.join());
    kitchenFirst(second, ['k1', 'k4']);
  });

  it('blends popularity into an item once, also when the model and the popular pool both hold it', async () => {
    const { createPersonalized } = await import('../src/domains/recommendations/personalized-strategy.js');
    const services = server.server.deps.services;
    const profileId = services.activities.findProfile(TENANT, { repository: 'customer-id', userId: 'me' })?.id;
    assert.ok(profileId !== undefined);
    const personalized = createPersonalized();
    // The bestseller: bought with everything (a model candidate) and the most bought (the popular pool's head, ratio 1).
    const scoreOf = (popularityWeight: number) => {
      const input = {
        tenantId: TENANT,
        activities: services.activities,
        aggregates: services.recommendations.aggregates,
        index: undefined as never,
        productIds: [],
        profileId,
        want: 20,
        model: services.recommendations.models.model(TENANT),
        widget: { popularityWeight } as never,
      };
      return [...personalized(input)].find((c) => c.itemId === 'bestseller')?.score;
    };
    const light = scoreOf(0.3);
    const heavy = scoreOf(0.6);
    assert.ok(light !== undefined && heavy !== undefined);
    // 0.3 more weight lifts the head of the pool by 0.3 × its ratio of 1, not twice that.
    assert.ok(Math.abs(heavy - light - 0.3) < 1e-9, `${light} → ${heavy}`);
  });

  it('keeps bought items when the widget says so', async () => {
    const list = ids((await me('picked-all')).body);
    assert.ok(list.includes('g1') || list.includes('g2'), list.join());
  });

  it('counts a purchase in the next response, before any retraining', async () => {
    const trainedAt = server.server.deps.services.recommendations.models.model(TENANT)!.info.trainedAt;
    await call(`${server.url}/collect/tenant-a-tracker`, { json: { action: 'purchase', target: { product: 'g3' }, user: { identities: { 'customer-id': 'me' } }, metadata: { orderId: 'mine-2' } } });
    const list = ids((await me()).body);
    assert.ok(!list.includes('g3'), list.join());
    assert.ok(list.filter((id) => id !== 'bestseller').slice(0, 3).every((id) => GARDEN.includes(id)), list.join());
    assert.equal(server.server.deps.services.recommendations.models.model(TENANT)!.info.trainedAt, trainedAt);
  });

  it('loads the saved model at start instead of retraining, and rebuilds a truncated one or one of an older version', async () => {
    await server.server.deps.services.recommendations.models.trainNow(TENANT);
    const saved = server.server.deps.services.recommendations.models.model(TENANT)!.info;
    const before = ids((await me()).body);
    await server.close();
    const file = join(dataDir, 'models', `${TENANT}.item-model`);
    assert.ok((await stat(file)).size > 0);

    server = await startTestServer({ config: config(), dataDir });
    const loaded = server.server.deps.services.recommendations.models.model(TENANT);
    assert.deepEqual(loaded?.info, saved);
    assert.deepEqual(ids((await me()).body), before);
    await server.close();

    const bytes = await readFile(file);
    await writeFile(file, bytes.subarray(0, Math.floor(bytes.length / 2)));
    server = await startTestServer({ config: config(), dataDir });
    assert.equal(server.server.deps.services.recommendations.models.model(TENANT), undefined);
    // Served meanwhile from co-occurrence, never a 5xx.
    const meanwhile = await me();
    assert.equal(meanwhile.status, 200);
    assert.ok(ids(meanwhile.body).length > 0);
    await server.server.deps.services.recommendations.models.settled();
    assert.ok(server.server.deps.services.recommendations.models.model(TENANT) !== undefined);
    assert.deepEqual(ids((await me()).body), before);

    // A file written by an older version (its weights meant something else) is retrained too, not read.
    await server.close();
    const current = await readFile(file);
    const headerEnd = current.indexOf(10);
    const header = JSON.parse(current.subarray(0, headerEnd).toString('utf8')) as { version: number };
    await writeFile(file, Buffer.concat([Buffer.from(JSON.stringify({ ...header, version: header.version - 1 })), current.subarray(headerEnd)]));
    server = await startTestServer({ config: config(), dataDir });
    assert.equal(server.server.deps.services.recommendations.models.model(TENANT), undefined);
    assert.equal((await me()).status, 200);
    await server.server.deps.services.recommendations.models.settled();
    assert.ok(server.server.deps.services.recommendations.models.model(TENANT) !== undefined);
    assert.deepEqual(ids((await me()).body), before);
  });
});

describe('the model catching up after a bulk load', () => {
  // The limit only ends a broken rule's wait: the rule itself fires 2 s after the last purchase, but trainings are slow on a loaded machine.
  it('retrains by itself once activity goes quiet, so the model in place has seen every purchase', { timeout: 300_000 }, async () => {
    const dataDir = await makeDataDir();
    const server = await startTestServer({ config: config(), dataDir });
    try {
      await loadCatalog(server.server, PRODUCTS);
      await sendHistories(server.url);
      const models = server.server.deps.services.recommendations.models;
      await models.trainNow(TENANT);
      const first = models.model(TENANT)!.info.touches;
      // A few more purchases: less than the 10% that retrains while data keeps coming, so only the quiet rule can pick them up.
      const late = ['k1', 'k2', 'k3'].map((product) => ({ action: 'purchase', target: { product }, user: { identities: { 'customer-id': 'late' } }, metadata: { orderId: 'late-1' } }));
      assert.equal((await call(`${server.url}/collect/tenant-a-tracker`, { json: late })).status, 200);
      const total = server.server.deps.services.recommendations.aggregates.interactions(TENANT).touches;
      assert.equal(total, first + 3);
      // Nobody asks for a training: the trainer notices the log went quiet and retrains on its own.
      while (models.model(TENANT)!.info.touches < total) await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(models.model(TENANT)!.info.touches, total);
    } finally {
      await server.cleanup();
    }
  });
});

describe('recommendation configuration', () => {
  it('leaves the CPU to requests while activity keeps coming: a training waits four times the last one\'s length', () => {
    // 10% growth since the last model is due only once 4 × its 2 s training have passed since it ended.
    assert.equal(grewWhileBusy(1_000, 10_000, 7_999, 2_000), false);
    assert.equal(grewWhileBusy(1_000, 10_000, 8_000, 2_000), true);
    assert.equal(grewWhileBusy(999, 10_000, 60_000, 2_000), false, 'less than 10% new is not worth a model while busy');
    assert.equal(grewWhileBusy(50, 100, 0, 0), true, 'the first trainings of a small shop are quick: no wait');
  });

  it('refuses an unknown strategy or an out-of-range weight at start, naming the field', async () => {
    const unknown = testConfig() as { tenants: Array<{ environments: Array<{ widgets?: unknown[] }> }> };
    unknown.tenants[0]!.environments[0]!.widgets = [{ id: 'w', strategies: ['telepathy'] }];
    await assert.rejects(startTestServer({ config: unknown }), (error: Error) => /widgets\[0\]\.strategies\[0\]/.test(error.message));
    await assert.rejects(startTestServer({ config: config({ popularityWeight: 11 }) }), (error: Error) => /widgets\[0\]\.popularityWeight/.test(error.message));
    await assert.rejects(startTestServer({ config: { ...config(), recommendationModel: { lambda: 0 } } }), (error: Error) => /recommendationModel\.lambda/.test(error.message));
  });
});



describe('EASE training', () => {
  it('inverts the regularised Gram matrix exactly (A · A⁻¹ = I), at odd and even sizes', async () => {
    const { invertSpdInPlace } = await import('../src/domains/recommendations/spd-inverse.js');
    // Odd and even sizes: the factorisation works on pairs of rows and finishes an odd one alone.
    for (const n of [1, 2, 7, 40, 41]) {
      let seed = 7;
      const bit = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % 5 === 0 ? 1 : 0);
      const rows = Array.from({ length: 150 }, () => Array.from({ length: n }, bit));
      const a = new Float64Array(n * n);
      for (const row of rows) for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) a[i * n + j]! += row[i]! * row[j]!;
      for (let i = 0; i < n; i++) a[i * n + i]! += 2;
      const original = a.slice();
      invertSpdInPlace(a, n);
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) {
          let sum = 0;
          for (let k = 0; k < n; k++) sum += original[i * n + k]! * a[k * n + j]!;
          assert.ok(Math.abs(sum - (i === j ? 1 : 0)) < 1e-9, `n ${n} (${i}, ${j}): ${sum}`);
        }
      }
    }
  });

  it('refuses a matrix that is not positive definite instead of answering nonsense', async () => {
    const { invertSpdInPlace } = await import('../src/domains/recommendations/spd-inverse.js');
    assert.throws(() => invertSpdInPlace(Float64Array.from([1, 2, 2, 1]), 2), /not positive definite/);
  });
});

describe('recent popularity behind personalized', () => {
  it('gives the first items of a full sort by recent weight, ties by item number, when many more are touched', async () => {
    const { Interactions } = await import('../src/domains/recommendations/interactions.js');
    const interactions = new Interactions();
    const at = Date.UTC(2026, 10, 1);
    const day = 24 * 60 * 60 * 1000;
    let seed = 3;
    const rand = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    // 600 items, few distinct weights (many ties): touched 1-4 times, on one of three days.
    for (let i = 0; i < 600; i++) {
      const times = 1 + Math.floor(rand() * 4);
      const when = at - Math.floor(rand() * 3) * day;
      for (let t = 0; t < times; t++) interactions.add(`p${i}-${t}`, 'purchase', `item-${i}`, when);
    }
    const all = interactions.itemIds.map((_, n) => n);
    const ratio = (n: number) => interactions.recentRatio(n, 0);
    const expected = all.sort((a, b) => ratio(b) - ratio(a) || a - b).slice(0, 25);
    assert.deepEqual(interactions.topRecent(25), expected);
  });

  it('ranks by recency-weighted touches decades ahead, where the plain weights would have overflowed', async () => {
    const { Interactions } = await import('../src/domains/recommendations/interactions.js');
    const interactions = new Interactions();
    const at = Date.UTC(2090, 0, 1);
    const day = 24 * 60 * 60 * 1000;
    // Two purchases of "old" 30 days ago weigh 2 × 2^-3 = 0.25; one of "new" today weighs 1; a view of "seen" today 0.3.
    interactions.add('p1', 'purchase', 'old', at - 30 * day);
    interactions.add('p2', 'purchase', 'old', at - 30 * day);
    interactions.add('p3', 'purchase', 'new', at);
    interactions.add('p4', 'view', 'seen', at);
    const top = interactions.topRecent(10).map((n) => interactions.itemIds[n]);
    assert.deepEqual(top, ['new', 'seen', 'old']);
    const ratio = (id: string) => interactions.recentRatio(interactions.numberOf(id)!, interactions.numberOf('new')!);
    assert.ok(Math.abs(ratio('old') - 0.25) < 1e-9, String(ratio('old')));
    assert.ok(Math.abs(ratio('seen') - 0.3) < 1e-9, String(ratio('seen')));
  });
});

describe("a shopper's row of touches", () => {
  it('keeps the strongest touch, first and last minutes and purchases per item as it grows, through a merge and a snapshot', async () => {
    const { Interactions, MINUTE_MS } = await import('../src/domains/recommendations/interactions.js');
    const interactions = new Interactions();
    const at = Date.UTC(2026, 10, 1);
    // Nine items (the row grows twice past its first four places), the third viewed, carted, bought twice.
    for (let i = 0; i < 9; i++) interactions.add('ann', 'view', `item-${i}`, at + i * MINUTE_MS);
    interactions.add('ann', 'add-to-cart', 'item-2', at + 20 * MINUTE_MS);
    interactions.add('ann', 'purchase', 'item-2', at + 30 * MINUTE_MS);
    interactions.add('ann', 'purchase', 'item-2', at + 90 * MINUTE_MS);
    // A session bought item-9 and viewed item-0 earlier than ann first did: merged into ann.
    interactions.add('session', 'purchase', 'item-9', at + 100 * MINUTE_MS);
    interactions.add('session', 'view', 'item-0', at - 5 * MINUTE_MS);
    interactions.merge('session', 'ann');
    const minute = at / MINUTE_MS;
    const expected = {
      items: ['item-0', 'item-1', 'item-2', 'item-3', 'item-4', 'item-5', 'item-6', 'item-7', 'item-8', 'item-9'],
      weights: [0.3, 0.3, 1, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 1],
      first: [minute - 5, minute + 1, minute + 2, minute + 3, minute + 4, minute + 5, minute + 6, minute + 7, minute + 8, minute + 100],
      last: [minute, minute + 1, minute + 90, minute + 3, minute + 4, minute + 5, minute + 6, minute + 7, minute + 8, minute + 100],
      buys: [0, 0, 2, 0, 0, 0, 0, 0, 0, 1],
      firstBuy: [0, 0, minute + 30, 0, 0, 0, 0, 0, 0, minute + 100],
      lastBuy: [0, 0, minute + 90, 0, 0, 0, 0, 0, 0, minute + 100],
    };
    const read = (from: InstanceType<typeof Interactions>) => {
      const row = from.row('ann')!;
      return {
        items: [...row.items].map((n) => from.itemIds[n]),
        weights: [...row.weights].map((w) => Math.round(w * 100) / 100),
        first: [...row.first],
        last: [...row.last],
        buys: [...row.buys],
        firstBuy: [...row.firstBuy],
        lastBuy: [...row.lastBuy],
      };
    };
    assert.deepEqual(read(interactions), expected);
    assert.equal(interactions.row('session'), undefined);
    assert.deepEqual([...interactions.boughtBy('ann')].sort(), ['item-2', 'item-9']);
    // The activity snapshot's chunks give the same row back, and it keeps growing from there.
    const restored = new Interactions();
    for (const chunk of interactions.save()) restored.restore(chunk);
    assert.deepEqual(read(restored), expected);
    restored.add('ann', 'purchase', 'item-10', at + 200 * MINUTE_MS);
    restored.add('ann', 'purchase', 'item-0', at + 210 * MINUTE_MS);
    const grown = read(restored);
    assert.deepEqual(grown.items, [...expected.items, 'item-10']);
    assert.deepEqual([grown.weights[0], grown.buys[0], grown.firstBuy[0], grown.last[0]], [1, 1, minute + 210, minute + 210]);
    assert.deepEqual(grown.first.slice(0, 10), expected.first);
    const model = restored.snapshot();
    assert.deepEqual([...model.offsets], [0, 11]);
    assert.deepEqual([...model.first].slice(0, 10), expected.first);
  });

  it('keeps thousands of shoppers apart in shared pages: rows that grow, a heavy shopper, an erased one whose place is reused', async () => {
    const { Interactions, MINUTE_MS } = await import('../src/domains/recommendations/interactions.js');
    const interactions = new Interactions();
    const at = Date.UTC(2026, 10, 1);
    // 3,000 shoppers, shopper k touching k % 40 + 1 items (rows of 1 to 40 entries, so blocks of 4 to 64),
    // added in turns so that rows grow while others are placed after them.
    const touched = (k: number) => (k % 40) + 1;
    for (let round = 0; round < 40; round++) {
      for (let k = 0; k < 3_000; k++) if (round < touched(k)) interactions.add(`s${k}`, round % 7 === 0 ? 'purchase' : 'view', `item-${(k + round * 13) % 500}`, at + (k + round) * MINUTE_MS);
    }
    // A heavy shopper past the pages' largest block (64) and an array of its own.
    for (let i = 0; i < 300; i++) interactions.add('heavy', 'view', `item-${i}`, at + i * MINUTE_MS);
    const itemsOf = (from: InstanceType<typeof Interactions>, id: string) => [...(from.row(id)?.items ?? [])].map((n) => from.itemIds[n]);
    const expectedItems = (k: number) => Array.from({ length: touched(k) }, (_, round) => `item-${(k + round * 13) % 500}`);
    for (let k = 0; k < 3_000; k += 7) assert.deepEqual(itemsOf(interactions, `s${k}`), expectedItems(k), `shopper s${k}`);
    assert.equal(itemsOf(interactions, 'heavy').length, 300);
    // A row read out stays the shopper's own after what is folded next (its block may be reused).
    const before = interactions.row('s39')!;
    const copy = [...before.items];
    interactions.forget('s39');
    for (let i = 0; i < 40; i++) interactions.add('newcomer', 'purchase', `item-${499 - i}`, at);
    assert.deepEqual([...before.items], copy);
    assert.equal(interactions.row('s39'), undefined);
    // The newcomer (perhaps in the erased shopper's place) has only its own touches, bought.
    assert.deepEqual(itemsOf(interactions, 'newcomer'), Array.from({ length: 40 }, (_, i) => `item-${499 - i}`));
    assert.deepEqual([...interactions.row('newcomer')!.buys], new Array(40).fill(1));
    assert.deepEqual([...interactions.boughtBy('newcomer')].length, 40);
    // A snapshot gives every row back, and the model's snapshot counts every entry once.
    const restored = new Interactions();
    for (const chunk of interactions.save()) restored.restore(chunk);
    for (let k = 1; k < 3_000; k += 7) if (k !== 39) assert.deepEqual(itemsOf(restored, `s${k}`), expectedItems(k), `restored s${k}`);
    assert.deepEqual(itemsOf(restored, 'newcomer'), itemsOf(interactions, 'newcomer'));
    let entries = 300 + 40;
    for (let k = 0; k < 3_000; k++) if (k !== 39) entries += touched(k);
    assert.equal(restored.snapshot().items.length, entries);
    assert.equal(interactions.snapshot().items.length, entries);
  });
});
