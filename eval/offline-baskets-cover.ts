/**
 * Variants of bought-together's greedy coverage (basket-cover.ts), offline on the evaluation's split:
 * the rest of each held-out order from its first item, anonymously, HR@10 over all held-out orders and
 * the evaluation's seeded samples of 600. Each variant is a JSON object of `Cover` settings.
 * Run: `OFFLINE_SEEDS=13,7,1,2,3 npx tsx eval/offline-baskets-cover.ts '{}' '{"halfLifeDays":180}'`
 * (no argument: the coverage as served); OFFLINE_VALIDATE=1 measures on a split made inside the training
 * orders; OFFLINE_ANALYSE=1 breaks the served coverage's hits down by basket size and by the seed's orders;
 * OFFLINE_FIT=file (on the validation split) fits a logistic re-ranking of the coverage's best 30 and
 * OFFLINE_APPLY=file measures it. What these found is in docs/recommendations.md (bought-together).
 */
import { retailSplit } from './offline-split.js';
import { seededRandom, shuffle } from './seeded-shuffle.js';

const K = 10;
const DAY = 86_400_000;

interface Cover {
  /** Latest orders of the seed covered. */
  recent?: number;
  /** Share of its weight an order keeps once a pick is in it. */
  damp?: number;
  /** Half-life of an order's weight, days. */
  halfLifeDays?: number;
  /** An order of n distinct items weighs 1 / n^sizePower. */
  sizePower?: number;
  /** An order where the seed is listed first weighs this much more (the held-out seed is an order's first line). */
  firstBoost?: number;
  /** Orders where the seed sits at position p (0-based) weigh 1 + positionBoost / (p + 1). */
  positionBoost?: number;
  /** Partners listed after the seed in an order weigh this, those before it 1. */
  afterWeight?: number;
  /** Second order: gain plus `second` × (the top partners' own orders, as pseudo-orders at this share). */
  second?: number;
  /** How many top partners feed the second order. */
  secondTop?: number;
  /** Gain of a partner divided by its purchases^idf. */
  idf?: number;
  /** An order weighs 1 / (its customer's orders among the seed's covered ones)^customerPower. */
  customerPower?: number;
  /** Items of the same customer's other orders within sessionDays of the seed's order join it at weight sessionWeight. */
  sessionDays?: number;
  sessionWeight?: number;
  /** Partners of the seed's family (title's last two words) weigh this much more. */
  familyBoost?: number;
  /** A partner listed d lines from the seed weighs 1 + proximity / d. */
  proximity?: number;
  /** A partner's gain × 2^(−days since anyone last bought it / aliveDays): a line no longer sold is not in a new basket. */
  aliveDays?: number;
  depth?: number;
  /** Bagging: this many greedy covers over reweighted orders, the list by summed 1/(rank+1)^bagPower (plus bagSelf × the plain cover's). */
  bags?: number;
  bagPower?: number;
  bagSelf?: number;
  /** Orders of more than dampSize distinct items keep dampBig instead of damp. */
  dampSize?: number;
  dampBig?: number;
  /** A partner's gain × (1 + buyerShare × the share of the seed's buyers who ever bought it). */
  buyerShare?: number;
  /** At most this many of one family in the list (the widget's diversityCap), the others moved below. */
  familyCap?: number;
  secondBelow?: number;
  hitAt?: number;
}

// OFFLINE_VALIDATE=1 (2, …): the split made again inside the training orders, to choose settings on.
const { data, heldOut, training } = await retailSplit();
const end = training.at(-1)!.at;
const bought = new Map<string, number>();
for (const order of training) for (const item of order.items) bought.set(item, (bought.get(item) ?? 0) + 1);
const popular = [...bought].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([id]) => id);

/** Distinct items of each order, in listed order; orders of one item kept (they cover nothing). */
const lists = training.map((order) => [...new Set(order.items)]);
const ordersOf = new Map<string, number[]>();
lists.forEach((items, o) => {
  for (const item of items) {
    let list = ordersOf.get(item);
    if (list === undefined) ordersOf.set(item, (list = []));
    list.push(o);
  }
});

const lastBought = new Map<string, number>();
for (const order of training) for (const item of order.items) lastBought.set(item, Math.max(lastBought.get(item) ?? 0, order.at));
const byCustomer = new Map<string, number[]>();
training.forEach((order, o) => {
  let list = byCustomer.get(order.customer);
  if (list === undefined) byCustomer.set(order.customer, (list = []));
  list.push(o);
});
function familyOf(item: string): string {
  const words = (data.products.get(item)?.title ?? item).trim().toLowerCase().split(/\s+/);
  return words.slice(-2).join(' ');
}

const customersOf = new Map<string, Set<string>>();
for (const order of training) for (const item of order.items) {
  let set = customersOf.get(item);
  if (set === undefined) customersOf.set(item, (set = new Set()));
  set.add(order.customer);
}
const shareCache = new Map<string, number>();
function shareOf(seed: string, item: string): number {
  const key = `${seed}\u0000${item}`;
  let v = shareCache.get(key);
  if (v === undefined) {
    const mine = customersOf.get(seed) ?? new Set<string>();
    const theirs = customersOf.get(item) ?? new Set<string>();
    let n = 0;
    for (const b of mine) if (theirs.has(b)) n++;
    shareCache.set(key, (v = n / Math.max(1, mine.size)));
  }
  return v;
}

function hashOf(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

function recommend(seed: string, c: Cover): string[] {
  const recent = c.recent ?? 256;
  const damp = c.damp ?? 0.6;
  const halfLife = c.halfLifeDays ?? 730;
  const mine = (ordersOf.get(seed) ?? []).slice(-recent);
  const perCustomer = new Map<string, number>();
  for (const o of mine) perCustomer.set(training[o]!.customer, (perCustomer.get(training[o]!.customer) ?? 0) + 1);
  const weights: number[] = [];
  const sets: Array<Map<string, number>> = [];
  for (const o of mine) {
    const items = lists[o]!;
    const position = items.indexOf(seed);
    let w = 2 ** ((training[o]!.at - end) / (halfLife * DAY));
    w /= Math.max(1, items.length - 1) ** (c.sizePower ?? 0);
    if (position === 0) w *= 1 + (c.firstBoost ?? 0);
    w /= perCustomer.get(training[o]!.customer)! ** (c.customerPower ?? 0);
    w *= 1 + (c.positionBoost ?? 0) / (position + 1);
    const set = new Map<string, number>();
    items.forEach((item, p) => {
      if (item !== seed) set.set(item, (p > position ? (c.afterWeight ?? 1) : 1) * (1 + (c.proximity ?? 0) / Math.abs(p - position)));
    });
    if ((c.sessionWeight ?? 0) > 0) {
      for (const other of byCustomer.get(training[o]!.customer) ?? []) {
        if (other === o || Math.abs(training[other]!.at - training[o]!.at) > (c.sessionDays ?? 1) * DAY) continue;
        for (const item of lists[other]!) if (item !== seed && !set.has(item)) set.set(item, c.sessionWeight!);
      }
    }
    if ((c.familyBoost ?? 0) > 0) for (const [item, v] of set) if (familyOf(item) === familyOf(seed)) set.set(item, v * (1 + c.familyBoost!));
    weights.push(w);
    sets.push(set);
  }
  const prior = new Map<string, number>();
  if ((c.second ?? 0) > 0 && mine.length < (c.secondBelow ?? Infinity)) {
    // The seed's top partners by raw weighted count, then their own latest orders as pseudo-orders.
    const raw = new Map<string, number>();
    sets.forEach((set, j) => {
      for (const item of set.keys()) raw.set(item, (raw.get(item) ?? 0) + weights[j]!);
    });
    const top = [...raw].sort((a, b) => b[1] - a[1]).slice(0, c.secondTop ?? 5);
    const total = weights.reduce((a, b) => a + b, 0) || 1;
    for (const [partner, n] of top) {
      const theirs = (ordersOf.get(partner) ?? []).slice(-recent);
      const share = ((c.second ?? 0) * n) / total / Math.max(1, theirs.length);
      for (const o of theirs) for (const item of lists[o]!) if (item !== seed) prior.set(item, (prior.get(item) ?? 0) + share * total);
    }
  }
  const sizes = sets.map((set) => set.size);
  const greedy = (weights: number[]): string[] => {
    const chosen: string[] = [];
    const factor = weights.map(() => 1);
    while (chosen.length < (c.depth ?? K)) {
      const gain = new Map<string, number>(prior);
      sets.forEach((set, j) => {
        const w = weights[j]! * factor[j]!;
        for (const [item, s] of set) gain.set(item, (gain.get(item) ?? 0) + w * s);
      });
      let best: string | undefined;
      let bestGain = 0;
      for (const [item, g0] of gain) {
        if (chosen.includes(item) || item === seed) continue;
        let g = g0 / (bought.get(item) ?? 1) ** (c.idf ?? 0);
        if (c.buyerShare !== undefined) g *= 1 + c.buyerShare * shareOf(seed, item);
        if (c.aliveDays !== undefined) g *= 2 ** (-(end - (lastBought.get(item) ?? 0)) / (c.aliveDays * DAY));
        if (g > bestGain || (g === bestGain && best !== undefined && (bought.get(item) ?? 0) > (bought.get(best) ?? 0))) {
          best = item;
          bestGain = g;
        }
      }
      if (best === undefined) break;
      chosen.push(best);
      sets.forEach((set, j) => {
        const m = set.get(best);
        const d = c.dampSize !== undefined && sizes[j]! > c.dampSize ? (c.dampBig ?? damp) : damp;
        if (m !== undefined) factor[j]! *= 1 - (1 - d) * Math.min(1, m);
      });
    }
    return chosen;
  };
  let chosen: string[];
  if ((c.bags ?? 0) > 0) {
    // Bayesian bootstrap of the seed's orders: each bag reweighs them by Exp(1) draws; an item scores
    // 1 / (its rank + 1) in each bag's list, and the list is the best summed scores.
    const random = seededRandom(hashOf(seed));
    const score = new Map<string, number>();
    for (let b = 0; b < c.bags!; b++) {
      const list = greedy(weights.map((w) => w * -Math.log(1 - random())));
      list.forEach((id, k) => score.set(id, (score.get(id) ?? 0) + 1 / (k + 1) ** (c.bagPower ?? 1)));
    }
    const base = greedy(weights);
    base.forEach((id, k) => score.set(id, (score.get(id) ?? 0) + (c.bagSelf ?? 0) / (k + 1)));
    chosen = [...score].sort((a, b) => b[1] - a[1]).map(([id]) => id).slice(0, c.depth ?? K);
  } else chosen = greedy(weights);
  if (c.familyCap !== undefined) {
    const seen = new Map<string, number>();
    const kept: string[] = [];
    const moved: string[] = [];
    for (const id of chosen) {
      const n = seen.get(familyOf(id)) ?? 0;
      seen.set(familyOf(id), n + 1);
      (n < c.familyCap ? kept : moved).push(id);
    }
    chosen.splice(0, chosen.length, ...kept, ...moved);
  }
  for (const id of popular) {
    if (chosen.length >= K) break;
    if (id !== seed && !chosen.includes(id)) chosen.push(id);
  }
  return chosen;
}

const seeds = (process.env.OFFLINE_SEEDS ?? '13,7,1,2,3').split(',').filter(Boolean).map(Number);
const cases = [...heldOut].filter((order) => new Set(order.items).size >= 2);
const samples = seeds.map((s) => new Set(shuffle([...heldOut], s).slice(0, 600)));

function score(c: Cover): string {
  const cache = new Map<string, string[]>();
  const hitOf = new Map<object, boolean>();
  for (const order of cases) {
    const seed = order.items[0]!;
    let list = cache.get(seed);
    if (list === undefined) cache.set(seed, (list = recommend(seed, c)));
    const target = new Set(order.items.slice(1));
    target.delete(seed);
    hitOf.set(order, list.slice(0, c.hitAt ?? K).some((id) => target.has(id)));
  }
  const rate = (orders: Iterable<object>) => {
    let hits = 0;
    let n = 0;
    for (const o of orders) {
      if (!hitOf.has(o)) continue;
      n++;
      if (hitOf.get(o)) hits++;
    }
    return hits / n;
  };
  const per = samples.map((s) => rate(s));
  const mean = per.reduce((a, b) => a + b, 0) / per.length;
  return `all ${rate(cases).toFixed(3)}  mean ${mean.toFixed(4)}  [${per.map((x) => x.toFixed(3)).join(' ')}]`;
}

const args = process.argv.slice(2);
const variants: Cover[] = args.length > 0 ? args.map((a) => JSON.parse(a) as Cover) : [{}];
for (const v of variants) {
  const started = performance.now();
  console.log(JSON.stringify(v), score(v), `${Math.round(performance.now() - started)} ms`);
}

if (process.env.OFFLINE_ANALYSE === '1') {
  const rows: Record<string, [number, number]> = {};
  const add = (key: string, hit: boolean) => {
    const r = (rows[key] ??= [0, 0]);
    r[0]++;
    if (hit) r[1]++;
  };
  for (const order of cases) {
    const seed = order.items[0]!;
    const list = recommend(seed, {});
    const target = new Set(order.items.slice(1));
    target.delete(seed);
    const hit = list.some((id) => target.has(id));
    const n = target.size;
    add(`size ${n <= 1 ? '1' : n <= 3 ? '2-3' : n <= 7 ? '4-7' : n <= 15 ? '8-15' : '16+'}`, hit);
    const f = (ordersOf.get(seed) ?? []).length;
    add(`seed orders ${f < 20 ? '<20' : f < 100 ? '20-99' : f < 256 ? '100-255' : '256+'}`, hit);
    const partners = new Set<string>();
    for (const o of ordersOf.get(seed) ?? []) for (const i of lists[o]!) partners.add(i);
    const reachable = [...target].some((t) => partners.has(t));
    add(`any target co-bought with seed: ${reachable}`, hit);
    const customerSaw = training.some((t) => t.customer === order.customer && t.items.includes(seed));
    add(`customer bought seed before: ${customerSaw}`, hit);
  }
  for (const [k, [n, h]] of Object.entries(rows).sort()) console.log(k.padEnd(40), n, (h / n).toFixed(3));
}

// OFFLINE_FIT=file (with OFFLINE_VALIDATE=1): a logistic fit of "the candidate is in the rest of the basket"
// over the coverage's best 30 candidates, features below; OFFLINE_APPLY=file re-ranks them by it.
if (process.env.OFFLINE_FIT !== undefined || process.env.OFFLINE_APPLY !== undefined) {
  const { readFileSync, writeFileSync } = await import('node:fs');
  const recentBought = new Map<string, number>();
  for (const order of training) if (end - order.at < 30 * DAY) for (const item of new Set(order.items)) recentBought.set(item, (recentBought.get(item) ?? 0) + 1);
  const buyersOf = new Map<string, Set<string>>();
  for (const order of training) for (const item of order.items) {
    let set = buyersOf.get(item);
    if (set === undefined) buyersOf.set(item, (set = new Set()));
    set.add(order.customer);
  }
  const features = (seed: string): { ids: string[]; x: number[][] } => {
    const ids = recommend(seed, { depth: 30 }).slice(0, 30);
    const mine = (ordersOf.get(seed) ?? []).slice(-256);
    const co = new Map<string, number>();
    for (const o of mine) for (const item of lists[o]!) co.set(item, (co.get(item) ?? 0) + 1);
    const seedBuyers = buyersOf.get(seed) ?? new Set<string>();
    const x = ids.map((id, rank) => {
      const theirs = buyersOf.get(id) ?? new Set<string>();
      let shared = 0;
      for (const b of seedBuyers) if (theirs.has(b)) shared++;
      return [
        1,
        1 / (rank + 1),
        Math.log(rank + 1),
        (co.get(id) ?? 0) / Math.max(1, mine.length),
        Math.log1p(bought.get(id) ?? 0),
        Math.log1p(recentBought.get(id) ?? 0),
        familyOf(id) === familyOf(seed) ? 1 : 0,
        shared / Math.max(1, seedBuyers.size),
        Math.log1p(mine.length),
        Math.log1p(mine.length) / (rank + 1),
      ];
    });
    return { ids, x };
  };
  const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));
  if (process.env.OFFLINE_FIT !== undefined) {
    const xs: number[][] = [];
    const ys: number[] = [];
    for (const order of cases) {
      const seed = order.items[0]!;
      const target = new Set(order.items.slice(1));
      const { ids, x } = features(seed);
      ids.forEach((id, k) => {
        xs.push(x[k]!);
        ys.push(target.has(id) ? 1 : 0);
      });
    }
    const d = xs[0]!.length;
    const mean = Array.from({ length: d }, (_, j) => (j === 0 ? 0 : xs.reduce((a, r) => a + r[j]!, 0) / xs.length));
    const sd = Array.from({ length: d }, (_, j) => (j === 0 ? 1 : Math.sqrt(xs.reduce((a, r) => a + (r[j]! - mean[j]!) ** 2, 0) / xs.length) || 1));
    const z = xs.map((r) => r.map((v, j) => (v - mean[j]!) / sd[j]!));
    const w = new Array<number>(d).fill(0);
    for (let epoch = 0; epoch < 300; epoch++) {
      const grad = new Array<number>(d).fill(0);
      z.forEach((r, i) => {
        const err = sigmoid(r.reduce((a, v, j) => a + v * w[j]!, 0)) - ys[i]!;
        for (let j = 0; j < d; j++) grad[j]! += err * r[j]!;
      });
      for (let j = 0; j < d; j++) w[j]! -= (0.5 * grad[j]!) / z.length + 1e-4 * w[j]!;
    }
    console.log('weights', w.map((v) => v.toFixed(3)).join(' '));
    writeFileSync(process.env.OFFLINE_FIT, JSON.stringify({ w, mean, sd }));
  }
  const model = JSON.parse(readFileSync(process.env.OFFLINE_APPLY ?? process.env.OFFLINE_FIT!, 'utf8')) as { w: number[]; mean: number[]; sd: number[] };
  const hit = new Map<object, boolean>();
  for (const order of cases) {
    const seed = order.items[0]!;
    const target = new Set(order.items.slice(1));
    const { ids, x } = features(seed);
    const scored = ids.map((id, k) => [id, x[k]!.reduce((a, v, j) => a + ((v - model.mean[j]!) / model.sd[j]!) * model.w[j]!, 0)] as const);
    const list = scored.sort((a, b) => b[1] - a[1]).slice(0, K).map(([id]) => id);
    hit.set(order, list.some((id) => target.has(id)));
  }
  const rate = (orders: Iterable<object>) => {
    let h = 0;
    let n = 0;
    for (const o of orders) if (hit.has(o)) (n++, hit.get(o) && h++);
    return h / n;
  };
  const per = samples.map((s) => rate(s));
  console.log('re-ranked', `all ${rate(cases).toFixed(3)} mean ${(per.reduce((a, b) => a + b, 0) / per.length).toFixed(4)} [${per.map((v) => v.toFixed(3)).join(' ')}]`);
}
