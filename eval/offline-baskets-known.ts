/**
 * `bought-together` for a named customer, offline on the evaluation's split: the rest of each held-out
 * order from its first item, where the customer's own earlier purchases bought with that item may take
 * the first places before the coverage's picks (the server's CoOccurrence over the training orders,
 * as `strategies.ts` reads it). Prints HR@10 over every held-out basket of 2+ items and over the
 * evaluation's five 600-order samples, per variant.
 * Run: `npx tsx eval/offline-baskets-known.ts`; OFFLINE_VALIDATE=1 (2, …) measures on a split made inside
 * the training orders; OFFLINE_KNOWN='served;1,1,0,7;…' picks variants: `served` is all own items first by
 * their count with the seed (as it was), `a,b,c,L[,0]` ranks them by a·log1p(count with the seed) +
 * b·log1p(the customer's purchases of it) + c·log1p(the customer's orders holding both) and lets them
 * fill at most L of the 10 places (a trailing 0: also own items never bought with the seed).
 */
import { retailSplit } from './offline-split.js';
import { shuffle } from './seeded-shuffle.js';
import { CoOccurrence } from '../packages/server/src/domains/recommendations/co-occurrence.js';

const K = 10;
const { heldOut, training } = await retailSplit();
const live = new CoOccurrence();
for (const order of training) for (const item of order.items) live.addOrderItem(order.invoice, item, order.at);
const bought = new Map<string, number>();
for (const order of training) for (const item of order.items) bought.set(item, (bought.get(item) ?? 0) + 1);
const tie = (id: string) => bought.get(id) ?? 0;
/** Per customer: how many of their orders hold each item, and their orders' item sets. */
const purchasesOf = new Map<string, Map<string, number>>();
const ordersOf = new Map<string, Array<Set<string>>>();
for (const order of training) {
  let mine = purchasesOf.get(order.customer);
  if (mine === undefined) purchasesOf.set(order.customer, (mine = new Map()));
  let orders = ordersOf.get(order.customer);
  if (orders === undefined) ordersOf.set(order.customer, (orders = []));
  const items = new Set(order.items);
  orders.push(items);
  for (const item of items) mine.set(item, (mine.get(item) ?? 0) + 1);
}
const bothIn = (customer: string, seed: string, item: string) => (ordersOf.get(customer) ?? []).filter((o) => o.has(seed) && o.has(item)).length;

/** The coverage's picks, then partners by count (the served anonymous list without the model's tail). */
function coverage(seed: string): string[] {
  const picks = live.coveringOrders([seed], K, tie).map((c) => c.itemId);
  for (const c of live.related('order', seed, 3 * K, tie)) if (!picks.includes(c.itemId)) picks.push(c.itemId);
  return picks;
}

type Recommend = (seed: string, customer: string) => string[];
function ownFirst(score: (item: string, count: number, customer: string, seed: string) => number, most: number, boughtWithSeedOnly: boolean): Recommend {
  return (seed, customer) => {
    const base = coverage(seed);
    const mine = purchasesOf.get(customer);
    if (mine === undefined) return base.slice(0, K);
    const counts = live.countsWith('order', seed, mine.keys());
    const own = [...mine.keys()]
      .filter((item) => item !== seed && (!boughtWithSeedOnly || (counts.get(item) ?? 0) > 0))
      .map((item) => ({ item, score: score(item, counts.get(item) ?? 0, customer, seed) }))
      .sort((a, b) => b.score - a.score || tie(b.item) - tie(a.item) || a.item.localeCompare(b.item))
      .map((o) => o.item);
    const first = own.slice(0, most);
    const rest = base.filter((item) => !first.includes(item));
    return [...first, ...rest].slice(0, K);
  };
}

const variants = new Map<string, Recommend>();
for (const spec of (process.env.OFFLINE_KNOWN ?? 'served;1,1,0,6;1,1,0,7;1,1,0,8;1,1,0,10;1,1,1,7').split(';')) {
  if (spec === 'served') {
    variants.set(spec, ownFirst((_, count) => count, K, true));
    continue;
  }
  const [a, b, c, most, withSeed] = spec.split(',').map(Number);
  variants.set(spec, ownFirst((item, count, customer, seed) => a! * Math.log1p(count) + b! * Math.log1p(purchasesOf.get(customer)!.get(item)!) + (c! > 0 ? c! * Math.log1p(bothIn(customer, seed, item)) : 0) + count / 1e9, most!, withSeed !== 0));
}

const casesOf = (orders: Iterable<{ customer: string; items: string[] }>) => [...orders].filter((o) => o.items.length >= 2).map((o) => ({ customer: o.customer, seed: o.items[0]!, target: new Set(o.items.slice(1)) }));
const hitRate = (recommend: Recommend, cases: ReturnType<typeof casesOf>) => Math.round((1000 * cases.filter((c) => recommend(c.seed, c.customer).some((item) => c.target.has(item))).length) / cases.length) / 1000;
const seeds = [13, 7, 1, 2, 3];
const rows = [...variants].map(([name, recommend]) => {
  const perSeed = seeds.map((s) => hitRate(recommend, casesOf(shuffle([...heldOut], s).slice(0, 600))));
  return { variant: name, all: hitRate(recommend, casesOf(heldOut)), ...Object.fromEntries(seeds.map((s, k) => [`seed ${s}`, perSeed[k]])), mean: Math.round((1000 * perSeed.reduce((x, y) => x + y, 0)) / seeds.length) / 1000 };
});
console.table(rows);
