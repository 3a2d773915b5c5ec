/**
 * Recommendation quality on real shopping histories, through the real server: products go in
 * through the older item API's service, every training purchase through the activity service that
 * `POST /collect/{key}` calls (customer identity, order id, the invoice's time; in large groups to
 * keep the run short), and widgets are asked over HTTP right after the replay, as a shop would.
 * Split: each customer with 3+ orders has their last order held out. Two tasks:
 * - next order: the held-out order's items the customer never bought before, asked by customer;
 * - basket: the rest of a held-out order from its first item (`$productId`).
 * Options (flags after `npm run eval -- recommendations`, or the environment): `--seed N` (EVAL_SEED,
 * default 13,7,1,2,3: one sample per seed on the same replay, and their means; `--seed 13` one) picks the seeded samples, `--customers N` (EVAL_CUSTOMERS, default 600) caps it,
 * `--original-dates` (EVAL_ORIGINAL_DATES=1) replays the 2010–2011 timestamps as they are instead of
 * shifting them to now, `--quick` (EVAL_QUICK=1) asks only the two widgets the bars are about.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EvalResult, Evaluation } from './run.js';
import { readRetail, splitLastOrders, type RetailOrder } from './retail-data.js';
import { shuffle } from './seeded-shuffle.js';
import { createDiscoveryServer, type DiscoveryServer } from '../packages/server/src/app/server.js';
import { parseActionBatch } from '../packages/server/src/apis/legacy-items/legacy-item-requests.js';
import type { NewActivity } from '../packages/server/src/domains/tracking/activity-service.js';
import { newActivity } from '../packages/server/src/domains/tracking/new-activity.js';
import { validateConfig } from '../packages/server/src/platform/config/load.js';
import { createLogger } from '../packages/server/src/platform/logger.js';
import { STRATEGIES } from '../packages/server/src/platform/config/schema.js';
import { countEnding, familyOf } from '../packages/server/src/domains/recommendations/ranker-features.js';

const DATA = fileURLToPath(new URL('../../shared/data/online-retail.csv.gz', import.meta.url));
const DATA_FILE = process.env.EVAL_DATA ?? (existsSync(DATA) ? DATA : '/work/shared/data/online-retail.csv.gz');
const DEMO_CONFIG = fileURLToPath(new URL('../apps/companion/config/demo.json', import.meta.url));
const TENANT = 'eval-shop';
const ENV = 'production';
const KEY = 'eval-tracker';
const K = 10;
/** The samples `npm run eval -- recommendations` measures unless `--seed` names others. */
const DEFAULT_SEEDS = '13,7,1,2,3';

interface TestCase {
  customer: string;
  /** What the list is scored against. */
  target: Set<string>;
  /** The customer's earlier purchases (the second baseline leaves them out). */
  bought: Set<string>;
  seed?: string;
}

const evaluation: Evaluation = async () => {
  if (!existsSync(DATA_FILE)) {
    console.log(`recommendations evaluation: ${DATA_FILE} is absent; nothing to evaluate (set EVAL_DATA to its path).`);
    return undefined;
  }
  // Five samples by default (the bars are means over five seeds); `--seed 13` asks one.
  const seeds = String(option('seed') ?? process.env.EVAL_SEED ?? DEFAULT_SEEDS).split(',').map(Number);
  const sampleSize = Number(option('customers') ?? process.env.EVAL_CUSTOMERS ?? 600);
  const originalDates = option('original-dates') !== undefined || process.env.EVAL_ORIGINAL_DATES === '1';
  const quick = option('quick') !== undefined || process.env.EVAL_QUICK === '1';
  const data = await readRetail(DATA_FILE);
  // The history ends in 2011. Shifted so its last order is now, as the demo import does; with --original-dates as it is, as an outside checker may replay it.
  const shift = originalDates ? 0 : Date.now() - data.orders.at(-1)!.at;
  for (const order of data.orders) order.at += shift;
  const { byCustomer, heldOut, training } = splitLastOrders(data.orders);
  const boughtBefore = (customer: string, order: RetailOrder) => new Set(byCustomer.get(customer)!.filter((o) => o !== order).flatMap((o) => o.items));
  const samples = seeds.map((seed) => {
    const sample = shuffle([...heldOut], seed).slice(0, sampleSize);
    const nextOrder: TestCase[] = [];
    const baskets: TestCase[] = [];
    const again: TestCase[] = [];
    for (const order of sample) {
      const bought = boughtBefore(order.customer, order);
      const fresh = order.items.filter((i) => !bought.has(i));
      if (fresh.length > 0) nextOrder.push({ customer: order.customer, target: new Set(fresh), bought });
      const repeated = order.items.filter((i) => bought.has(i));
      if (repeated.length > 0) again.push({ customer: order.customer, target: new Set(repeated), bought });
      if (order.items.length >= 2) baskets.push({ customer: order.customer, target: new Set(order.items.slice(1)), bought, seed: order.items[0] });
    }
    return { seed, sample, nextOrder, baskets, again };
  });

  const dataDir = await mkdtemp(join(tmpdir(), 'eval-recs-'));
  const demoWidgets = await demoWidgetConfigs();
  const strategyWidgets = STRATEGIES.map((s) => ({ id: `only-${s}`, title: s, strategies: [s], minResults: 0, maxResults: K }));
  // What the learned ranking and the variety cap are measured against (a cap of K is no cap).
  const comparisonWidgets = [
    { id: 'ease-alone', title: 'EASE alone', strategies: ['personalized'], popularityWeight: 0, learnedRanking: false, minResults: 0, maxResults: K },
    { id: 'blend-no-ranker', title: 'EASE + popularity blend', strategies: ['personalized'], learnedRanking: false, minResults: 0, maxResults: K },
    { id: 'personalized-no-cap', title: 'personalized without the cap', strategies: ['personalized'], diversityCap: K, minResults: 0, maxResults: K },
    { id: 'bought-together-no-cap', title: 'bought-together without the cap', strategies: ['bought-together'], diversityCap: K, minResults: 0, maxResults: K },
  ];
  // Families as the server forms them (the catalog's common title endings first: ranker-features.ts).
  const endings = new Map<string, number>();
  for (const p of data.products.values()) countEnding(endings, p.title);
  const families = new Map([...data.products].map(([id, p]) => [id, familyOf(p.title, undefined, endings)]));
  const config = validateConfig(
    {
      tenants: [{ id: TENANT, identityRepositories: ['customer-id'], environments: [{ id: ENV, trackerKeys: [KEY], widgets: [...demoWidgets, ...strategyWidgets, ...comparisonWidgets] }] }],
      // One address asks for every shopper, as fast as the server answers: the public rate limits
      // (per address and per widget) would refuse part of the run with 429.
      publicRateLimits: { enabled: false },
      // For tuning without editing code: EVAL_MODEL='{"lambda":200}' sets model options (defaults otherwise).
      ...(process.env.EVAL_MODEL === undefined ? {} : { recommendationModel: JSON.parse(process.env.EVAL_MODEL) as unknown }),
    },
    '(eval)',
    tmpdir(),
  );
  const server = await createDiscoveryServer({ config, dataDir, logger: createLogger('silent') });
  const { url } = await server.listen(0, '127.0.0.1');
  try {
    const started = performance.now();
    const actions = [...data.products].map(([id, p]) => ({ action: 'create', id, data: { title: p.title, price: p.price, url: `/p/${id}` } }));
    for (let i = 0; i < actions.length; i += 500) await server.deps.services.catalog.legacy.apply(TENANT, ENV, parseActionBatch(actions.slice(i, i + 500), TENANT));
    console.error(`  catalog loaded (${Math.round(performance.now() - started)} ms); replaying ${training.length} orders`);
    const replayed = await replay(server, training);
    const replayMs = performance.now() - started;
    console.error(`  replayed ${replayed} purchases in ${Math.round(replayMs)} ms`);

    // EVAL_QUICK=1: only the two widgets the bars are about.
    const trainedAtFirstAsk = server.deps.services.recommendations.models.model(TENANT)?.info.touches ?? 0;
    const widgetIds = quick ? ['demo-personalized', 'demo-bought-together'] : [...strategyWidgets.map((w) => w.id), ...demoWidgets.map((w) => w.id)];
    const immediate: Array<Record<string, string | number>> = [];
    for (const { seed, nextOrder, baskets } of samples) immediate.push(...(await measureAll(url, widgetIds, nextOrder, baskets, data.products.size, `seed ${seed}: `, families)));
    const settleStarted = performance.now();
    await server.deps.services.recommendations.models.settled();
    const settleMs = performance.now() - settleStarted;
    const settled: Array<Record<string, string | number>> = [];
    const compared = ['ease-alone', 'blend-no-ranker', 'demo-personalized', 'personalized-no-cap', 'demo-bought-together', 'bought-together-no-cap'];
    for (const { seed, nextOrder, baskets } of samples) settled.push(...(await measureAll(url, compared, nextOrder, baskets, data.products.size, `seed ${seed}: `, families)));
    const repurchases: Array<Record<string, string | number>> = [];
    const history = purchaseHistory(training);
    for (const { seed, again } of samples) {
      const lists = await askAll(again, (c) => `${url}/widget/demo-buy-again/recommendations/customer-id/${c.customer}/?limit=${K}`);
      const baseline = (rank: (a: { count: number; last: number }, b: { count: number; last: number }) => number) => (c: TestCase) =>
        [...history.get(c.customer)!].sort((a, b) => rank(a[1], b[1]) || a[0].localeCompare(b[0])).slice(0, K).map(([id]) => id);
      repurchases.push(
        { list: `seed ${seed}: baseline: most recently bought`, ...score(again, baseline((a, b) => b.last - a.last || b.count - a.count), data.products.size, 'again') },
        { list: `seed ${seed}: baseline: most often bought`, ...score(again, baseline((a, b) => b.count - a.count || b.last - a.last), data.products.size, 'again') },
        { list: `seed ${seed}: demo-buy-again`, ...score(again, (_, i) => lists[i]!, data.products.size, 'again') },
      );
    }
    const model = server.deps.services.recommendations.models.model(TENANT);

    const popularity = globalPopularity(training);
    const visitors: Array<Record<string, string | number>> = [];
    for (const { seed, sample } of samples) visitors.push(...(await measureNewVisitors(server, url, sample, popularity, data.products.size, `seed ${seed}: `)));

    const baselineRows = samples.flatMap(({ seed, nextOrder, baskets }) => [
      { list: `seed ${seed}: baseline: global popularity`, ...score(nextOrder, () => popularity.slice(0, K), data.products.size, 'next'), ...score(baskets, (c) => popularity.filter((i) => i !== c.seed).slice(0, K), data.products.size, 'basket') },
      {
        list: `seed ${seed}: baseline: popularity without bought`,
        ...score(nextOrder, (c) => popularity.filter((i) => !c.bought.has(i)).slice(0, K), data.products.size, 'next'),
        ...score(baskets, (c) => popularity.filter((i) => i !== c.seed && !c.bought.has(i)).slice(0, K), data.products.size, 'basket'),
      },
    ]);
    const result: EvalResult = {
      name: 'recommendations (UCI Online Retail, through HTTP)',
      setup: {
        data: `${DATA_FILE}: ${data.products.size} products, ${data.orders.length} customer orders, ${byCustomer.size} customers`,
        time: originalDates ? 'original 2010–2011 order times (popularity windows count back from the newest activity)' : 'order times shifted so the last order is now (popularity windows count back from now)',
        split: `last order of each customer with 3+ orders held out (${heldOut.size} orders); ${training.length} orders (${replayed} purchases) replayed in time order through the activity service`,
        seed: seeds.join(', '),
        sample: samples.map(({ seed, sample, nextOrder, baskets }) => `seed ${seed}: ${sample.length} held-out orders (seeded shuffle), ${nextOrder.length} next-order cases (orders with an item new to the customer), ${baskets.length} basket cases (orders of 2+ items)`).join('; '),
        'replay (s)': round(replayMs / 1000, 1),
        'model at first ask': trainedAtFirstAsk === 0 ? 'none' : `trained on ${trainedAtFirstAsk} of the ${replayed} replayed purchases (${round((100 * trainedAtFirstAsk) / replayed, 1)} %)`,
        'settle (s)': round(settleMs / 1000, 1),
        'model after settle': model === undefined ? 'none' : `${model.rows} items, trained on ${model.info.touches} touches in ${model.info.trainingMs} ms (λ ${model.info.lambda})`,
      },
      tables: [
        { title: `asked right after the replay: HR@${K}, NDCG@${K}, recall@${K}, catalog coverage`, rows: [...baselineRows, ...immediate] },
        { title: 'asked again once the model caught up with the replay (ILD: share of item pairs of a list from different families)', rows: settled },
        ...(seeds.length > 1 ? [{ title: `once caught up, the mean over the ${seeds.length} seeds' samples (each figure the mean of the rows above)`, rows: meanOverSeeds([...baselineRows, ...settled, ...repurchases]) }] : []),
        { title: `buy-again: HR@${K} on the held-out order's items the customer bought before`, rows: repurchases },
        { title: `a new visitor's first page: HR@${K} on the rest of a held-out order after viewing its first 1, 2 or 5 items in a new session`, rows: visitors },
      ],
      notes: [
        'next: the held-out order\'s items new to the customer, asked as /widget/{id}/recommendations/customer-id/{customer}/',
        'basket: the rest of the held-out order, asked with $productId = its first item, for the same customer',
        'session: a new anonymous visitor views the held-out order\'s first 1, 2 or 5 items (orders with more items than that), then asks; target: the order\'s other items; popular baselines leave the viewed items out',
        'again: the held-out order\'s items the customer had bought before, asked of demo-buy-again by customer',
        'ease-alone: personalized without popularity or the learned ranking; blend-no-ranker: EASE + popularity (the learned ranking off); demo-personalized: with it',
        'HR = share of cases with at least one hit in the top 10; recall = hits / target size; coverage = distinct items shown / products',
      ],
    };
    return result;
  } finally {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
};

export default evaluation;

/** The demo's widgets; EVAL_WIDGETS='{"demo-personalized":{"popularityWeight":0.2}}' overrides settings of some (for tuning). */
async function demoWidgetConfigs(): Promise<Array<Record<string, unknown> & { id: string }>> {
  const demo = JSON.parse(await readFile(DEMO_CONFIG, 'utf8')) as { tenants: Array<{ environments: Array<{ widgets?: Array<Record<string, unknown> & { id: string }> }> }> };
  const overrides = JSON.parse(process.env.EVAL_WIDGETS ?? '{}') as Record<string, Record<string, unknown>>;
  return (demo.tenants[0]!.environments[0]!.widgets ?? []).map((w) => ({ ...w, ...overrides[w.id] }));
}

/**
 * Every training purchase, in time order, as the collection API records it (profile resolved from
 * the customer id, one durable group per 2,000 purchases): the same services POST /collect calls,
 * without 700 HTTP round trips and fsyncs that would make the run too slow to rerun often.
 */
async function replay(server: DiscoveryServer, orders: readonly RetailOrder[]): Promise<number> {
  const activities = server.deps.services.activities;
  const profiles = new Map<string, string>();
  let batch: NewActivity[] = [];
  let count = 0;
  for (const order of orders) {
    let profileId = profiles.get(order.customer);
    if (profileId === undefined) {
      profileId = (await activities.resolveProfile(TENANT, { identities: { 'customer-id': order.customer } })).profile.id;
      profiles.set(order.customer, profileId);
    }
    for (const [i, item] of order.items.entries()) {
      batch.push(newActivity({ profileId, source: 'collect', verb: 'purchase', type: 'product', itemId: item, timestamp: order.at, orderId: order.invoice, price: order.prices[i]!, quantity: 1 }));
    }
    if (batch.length >= 2000) {
      count += batch.length;
      await activities.recordActivities(TENANT, batch);
      batch = [];
    }
  }
  count += batch.length;
  if (batch.length > 0) await activities.recordActivities(TENANT, batch);
  return count;
}

/** Session lengths of the new-visitor task: the views a brand-new visitor makes before asking. */
const SESSION_VIEWS = [1, 2, 5] as const;

/**
 * A brand-new visitor (a session id never seen, no identity) views the first 1, 2 or 5 items of a
 * held-out order, then asks `demo-personalized` and a `popular` widget: does the session seed the list?
 * Views go through the activity service that POST /collect calls; each visitor is a profile of its own.
 */
async function measureNewVisitors(server: DiscoveryServer, url: string, sample: readonly RetailOrder[], popularity: readonly string[], catalogSize: number, label: string): Promise<Array<Record<string, string | number>>> {
  const activities = server.deps.services.activities;
  const rows: Array<Record<string, string | number>> = [];
  for (const views of SESSION_VIEWS) {
    const cases: TestCase[] = [];
    const batch: NewActivity[] = [];
    for (const [i, order] of sample.entries()) {
      const seen = order.items.slice(0, views);
      const target = order.items.slice(views).filter((item) => !seen.includes(item));
      if (seen.length < views || target.length === 0) continue;
      const { profile } = await activities.resolveProfile(TENANT, { sessionId: `${label}visitor-${views}-${i}` });
      const at = Date.now();
      for (const [n, item] of seen.entries()) batch.push(newActivity({ profileId: profile.id, source: 'collect', verb: 'view', type: 'product', itemId: item, timestamp: at + n * 1000 }));
      cases.push({ customer: profile.id, target: new Set(target), bought: new Set(seen) });
    }
    await activities.recordActivities(TENANT, batch);
    const asked = async (widget: string) => askAll(cases, (c) => `${url}/widget/${widget}/recommendations/${c.customer}?limit=${K}`);
    const personalized = await asked('demo-personalized');
    const popular = await asked('only-popular');
    console.error(`  new visitors with ${views} views asked (${cases.length} cases)`);
    const tag = `${label}${views} view${views === 1 ? '' : 's'} (${cases.length}): `;
    rows.push(
      { list: `${tag}baseline: global popularity without the viewed`, ...score(cases, (c) => popularity.filter((i) => !c.bought.has(i)).slice(0, K), catalogSize, 'session') },
      { list: `${tag}popular (a widget of it alone)`, ...score(cases, (_, i) => popular[i]!, catalogSize, 'session') },
      { list: `${tag}demo-personalized`, ...score(cases, (_, i) => personalized[i]!, catalogSize, 'session') },
    );
  }
  return rows;
}

async function measureAll(url: string, widgetIds: readonly string[], nextOrder: TestCase[], baskets: TestCase[], catalogSize: number, label: string, families: ReadonlyMap<string, string | undefined>): Promise<Array<Record<string, string | number>>> {
  const rows: Array<Record<string, string | number>> = [];
  for (const widgetId of widgetIds) {
    const next = await askAll(nextOrder, (c) => `${url}/widget/${widgetId}/recommendations/customer-id/${c.customer}/?limit=${K}`);
    const basket = await askAll(baskets, (c) => `${url}/widget/${widgetId}/recommendations/customer-id/${c.customer}/?limit=${K}&variables=${encodeURIComponent(JSON.stringify({ $productId: c.seed }))}`);
    console.error(`  ${widgetId} asked (${nextOrder.length + baskets.length} requests)`);
    rows.push({ list: `${label}${widgetId}`, ...score(nextOrder, (_, i) => next[i]!, catalogSize, 'next'), 'next ILD': diversity(next, families), ...score(baskets, (_, i) => basket[i]!, catalogSize, 'basket'), 'basket ILD': diversity(basket, families) });
    if (widgetId.includes('bought-together')) {
      // An outside checker may ask without naming the customer: the same baskets, anonymously.
      const anonymous = await askAll(baskets, (c) => `${url}/widget/${widgetId}/recommendations?limit=${K}&variables=${encodeURIComponent(JSON.stringify({ $productId: c.seed }))}`);
      rows.push({ list: `${label}${widgetId}, anonymous`, ...score(baskets, (_, i) => anonymous[i]!, catalogSize, 'basket'), 'basket ILD': diversity(anonymous, families) });
    }
  }
  return rows;
}

async function askAll(cases: TestCase[], address: (c: TestCase) => string): Promise<string[][]> {
  const lists: string[][] = new Array(cases.length);
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const i = next++;
      const response = await fetchWithRetry(address(cases[i]!));
      if (!response.ok) throw new Error(`${address(cases[i]!)} answered ${response.status}`);
      const body = (await response.json()) as { recommendations: Array<{ product: { _id: { original_id: string } } }> };
      lists[i] = body.recommendations.map((r) => r.product._id.original_id).slice(0, K);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return lists;
}

/**
 * A kept-alive connection the server closed just as a request went out is retried, as a browser would;
 * on a loaded machine (load average 20+ on 2 cores) a reset came twice in a row, so up to three times.
 */
async function fetchWithRetry(address: string): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(address);
    } catch (error) {
      if (attempt >= 3) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}

/** Intra-list diversity: the share of pairs of items of a list whose families differ, averaged over lists of 2+ items. */
function diversity(lists: readonly string[][], families: ReadonlyMap<string, string | undefined>): number {
  let sum = 0;
  let counted = 0;
  for (const list of lists) {
    if (list.length < 2) continue;
    let differ = 0;
    let pairs = 0;
    for (let a = 0; a < list.length; a++) {
      for (let b = a + 1; b < list.length; b++) {
        pairs++;
        const fa = families.get(list[a]!);
        if (fa === undefined || fa !== families.get(list[b]!)) differ++;
      }
    }
    sum += differ / pairs;
    counted++;
  }
  return counted === 0 ? 0 : round(sum / counted, 3);
}

/** Per customer, per item bought in the training orders: how many orders held it and the latest one's time. */
function purchaseHistory(orders: readonly RetailOrder[]): Map<string, Map<string, { count: number; last: number }>> {
  const out = new Map<string, Map<string, { count: number; last: number }>>();
  for (const order of orders) {
    let items = out.get(order.customer);
    if (items === undefined) out.set(order.customer, (items = new Map()));
    for (const item of order.items) {
      const seen = items.get(item);
      items.set(item, { count: (seen?.count ?? 0) + 1, last: Math.max(seen?.last ?? 0, order.at) });
    }
  }
  return out;
}

function score(cases: TestCase[], listOf: (c: TestCase, i: number) => readonly string[], catalogSize: number, task: 'next' | 'basket' | 'again' | 'session'): Record<string, number> {
  let hits = 0;
  let ndcg = 0;
  let recall = 0;
  const shown = new Set<string>();
  cases.forEach((c, i) => {
    const list = listOf(c, i);
    let dcg = 0;
    let found = 0;
    list.forEach((item, rank) => {
      shown.add(item);
      if (!c.target.has(item)) return;
      found++;
      dcg += 1 / Math.log2(rank + 2);
    });
    let ideal = 0;
    for (let r = 0; r < Math.min(K, c.target.size); r++) ideal += 1 / Math.log2(r + 2);
    if (found > 0) hits++;
    ndcg += dcg / ideal;
    recall += found / c.target.size;
  });
  const n = Math.max(cases.length, 1);
  return { [`${task} HR`]: round(hits / n, 3), [`${task} NDCG`]: round(ndcg / n, 3), [`${task} recall`]: round(recall / n, 3), [`${task} cover`]: round(shown.size / catalogSize, 3) };
}

/** Rows labelled `seed N: <list>` averaged per list over the seeds (numbers only; a list missing a figure in some seed averages the others). */
function meanOverSeeds(rows: ReadonlyArray<Record<string, string | number>>): Array<Record<string, string | number>> {
  const byList = new Map<string, Map<string, number[]>>();
  for (const row of rows) {
    const list = String(row.list).replace(/^seed [^:]+: /, '');
    const figures = byList.get(list) ?? new Map<string, number[]>();
    byList.set(list, figures);
    for (const [name, value] of Object.entries(row)) if (typeof value === 'number') figures.set(name, [...(figures.get(name) ?? []), value]);
  }
  return [...byList].map(([list, figures]) => ({ list: `mean: ${list}`, ...Object.fromEntries([...figures].map(([name, values]) => [name, round(values.reduce((a, b) => a + b, 0) / values.length, 3)])) }));
}

function globalPopularity(orders: readonly RetailOrder[]): string[] {
  const counts = new Map<string, number>();
  for (const order of orders) for (const item of order.items) counts.set(item, (counts.get(item) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([id]) => id).slice(0, 1000);
}

/** `--name value`, `--name=value` or a bare `--name` (then ''); undefined when absent. */
function option(name: string): string | undefined {
  const args = process.argv.slice(2);
  for (const [i, arg] of args.entries()) {
    if (arg === `--${name}`) return args[i + 1] !== undefined && !args[i + 1]!.startsWith('--') && /^\d/.test(args[i + 1]!) ? args[i + 1] : '';
    if (arg.startsWith(`--${name}=`)) return arg.slice(name.length + 3);
  }
  return undefined;
}


function round(n: number, digits: number): number {
  return Math.round(n * 10 ** digits) / 10 ** digits;
}
