/**
 * A straight offline EASE on the evaluation's split, without the server: binary customer × item
 * purchases, a dense inverse over every item bought by 2+ customers, scored with the customer's
 * earlier purchases left out. It says how far the live pipeline (weighted rows, capped items, pruned
 * neighbours, popularity blend) is from the plain method, and lets variants be tried in seconds.
 * Run: `npx tsx eval/offline-ease.ts [lambda=300] [maxItems=0 (all)]`; OFFLINE_SEEDS=13,7.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { readRetail, splitLastOrders } from './retail-data.js';
import { shuffle } from './seeded-shuffle.js';
import { invertSpdInPlace } from '../packages/server/src/domains/recommendations/spd-inverse.js';

const DATA = '/work/shared/data/online-retail.csv.gz';
const K = 10;
const DAY = 86_400_000;

const lambda = Number(process.argv[2] ?? 300);
const maxItems = Number(process.argv[3] ?? 0);
/** OFFLINE_STALE=0.68: the model learns only the first 68% of the replayed purchases (as one in place right after a bulk replay). */
const staleShare = Number(process.env.OFFLINE_STALE ?? 1);
if (!existsSync(DATA)) throw new Error(`${DATA} is absent`);
const data = await readRetail(DATA);
const { byCustomer, heldOut, training } = splitLastOrders(data.orders);
const end = training.at(-1)!.at;

// Items and customer rows (binary), with each item's latest purchase time per customer.
const itemNumber = new Map<string, number>();
const itemIds: string[] = [];
const number = (id: string) => {
  let n = itemNumber.get(id);
  if (n === undefined) itemNumber.set(id, (n = itemIds.push(id) - 1));
  return n;
};
const rows = new Map<string, Map<number, number>>();
for (const order of training) {
  let row = rows.get(order.customer);
  if (row === undefined) rows.set(order.customer, (row = new Map()));
  for (const item of order.items) {
    const n = number(item);
    row.delete(n);
    row.set(n, order.at);
  }
}
// The rows the model learns from: every purchase, or the first share of them.
let modelRows = rows;
if (staleShare < 1) {
  const total = training.reduce((sum, o) => sum + o.items.length, 0);
  modelRows = new Map();
  let seen = 0;
  for (const order of training) {
    if (seen >= staleShare * total) break;
    seen += order.items.length;
    let row = modelRows.get(order.customer);
    if (row === undefined) modelRows.set(order.customer, (row = new Map()));
    for (const item of order.items) row.set(itemNumber.get(item)!, order.at);
  }
}
const shoppers = new Int32Array(itemIds.length);
for (const row of modelRows.values()) for (const n of row.keys()) shoppers[n]!++;
let chosen = [...itemIds.keys()].filter((n) => shoppers[n]! >= 2).sort((a, b) => shoppers[b]! - shoppers[a]! || a - b);
if (maxItems > 0) chosen = chosen.slice(0, maxItems);
const size = chosen.length;
const column = new Int32Array(itemIds.length).fill(-1);
chosen.forEach((n, c) => (column[n] = c));

let started = performance.now();
const cache = `/tmp/offline-ease-${lambda}-${size}-${staleShare}.f32`;
let weights: Float32Array;
if (existsSync(cache)) weights = new Float32Array(readFileSync(cache).buffer.slice(0));
else {
const gram = new Float64Array(size * size);
for (const row of modelRows.values()) {
  const cols = [...row.keys()].map((n) => column[n]!).filter((c) => c >= 0);
  for (const a of cols) for (const b of cols) gram[a * size + b]! += 1;
}
for (let i = 0; i < size; i++) gram[i * size + i]! += lambda;
invertSpdInPlace(gram, size);
weights = new Float32Array(size * size);
for (let i = 0; i < size; i++) for (let j = 0; j < size; j++) weights[i * size + j] = i === j ? 0 : -gram[i * size + j]! / gram[j * size + j]!;
writeFileSync(cache, weights);
}
console.error(`EASE over ${size} items (λ ${lambda}) in ${Math.round(performance.now() - started)} ms`);

interface Case {
  customer: string;
  target: Set<string>;
  bought: Set<string>;
}
const allCases: Case[] = [];
for (const order of heldOut) {
  const bought = new Set(byCustomer.get(order.customer)!.filter((o) => o !== order).flatMap((o) => o.items));
  const fresh = order.items.filter((i) => !bought.has(i));
  if (fresh.length > 0) allCases.push({ customer: order.customer, target: new Set(fresh), bought });
}

interface Variant {
  name: string;
  popularity?: Float64Array;
  popularityWeight?: number;
  /** Latest items of the row that feed the model. */
  seeds?: number;
  /** Weights kept per row (0: all): the largest positive ones, or the largest in magnitude. */
  neighbours?: number;
  magnitude?: boolean;
  /** Live order co-occurrence of the latest `coSeeds` items, scaled so its best is this share. */
  coOccurrence?: number;
  coSeeds?: number;
  /** Halves the weight of a seed every this many days before the customer's latest purchase. */
  seedHalfLifeDays?: number;
  /** A greedy re-rank: a candidate loses this × the best score × its largest order cosine with an earlier pick. */
  diverse?: number;
}

const pruned = new Map<string, Float32Array>();
function prunedWeights(keep: number, magnitude: boolean): Float32Array {
  const key = `${keep}${magnitude}`;
  let out = pruned.get(key);
  if (out !== undefined) return out;
  out = new Float32Array(size * size);
  for (let i = 0; i < size; i++) {
    const row = weights.subarray(i * size, (i + 1) * size);
    const value = (x: number) => (magnitude ? Math.abs(x) : x);
    const sorted = Float32Array.from(row, value).sort().reverse();
    const threshold = Math.max(sorted[Math.min(keep, size) - 1]!, Number.MIN_VALUE);
    for (let j = 0; j < size; j++) if (value(row[j]!) >= threshold) out[i * size + j] = row[j]!;
  }
  pruned.set(key, out);
  return out;
}

function windowed(days: number): Float64Array {
  const out = new Float64Array(itemIds.length);
  for (const order of training) if (order.at > end - days * DAY) for (const item of order.items) out[itemNumber.get(item)!]! += 1;
  return out;
}
function halfLife(days: number): Float64Array {
  const out = new Float64Array(itemIds.length);
  for (const order of training) for (const item of order.items) out[itemNumber.get(item)!]! += 2 ** ((order.at - end) / (days * DAY));
  return out;
}

function run(variant: Variant, cases: Case[]): number {
  const w = variant.neighbours ? prunedWeights(variant.neighbours, variant.magnitude === true) : weights;
  const sparse = variant.neighbours ? Array.from({ length: size }, (_, i) => [...Array(size).keys()].filter((j) => w[i * size + j] !== 0)) : undefined;
  const scores = new Float64Array(itemIds.length);
  const co = new Float64Array(itemIds.length);
  let hits = 0;
  for (const c of cases) {
    scores.fill(0);
    const entries = [...rows.get(c.customer)!];
    const latest = entries.at(-1)![1];
    const seeds = variant.seeds ? entries.slice(-variant.seeds) : entries;
    for (const [n, at] of seeds) {
      const i = column[n]!;
      if (i < 0) continue;
      const weight = variant.seedHalfLifeDays ? 2 ** ((at - latest) / (variant.seedHalfLifeDays * DAY)) : 1;
      if (sparse !== undefined) for (const j of sparse[i]!) scores[chosen[j]!]! += weight * w[i * size + j]!;
      else for (let j = 0; j < size; j++) scores[chosen[j]!]! += weight * w[i * size + j]!;
    }
    let best = 0;
    for (const s of scores) best = Math.max(best, s);
    if (variant.coOccurrence) {
      co.fill(0);
      for (const [n] of entries.slice(-(variant.coSeeds ?? 20))) {
        const row = pairs[n]!;
        let top = 0;
        for (const v of row.values()) top = Math.max(top, v);
        for (const [m, v] of row) co[m]! += v / top;
      }
      let coBest = 0;
      for (const v of co) coBest = Math.max(coBest, v);
      if (best <= 0) best = 1;
      if (coBest > 0) for (let n = 0; n < co.length; n++) scores[n]! += (variant.coOccurrence * best * co[n]!) / coBest;
    }
    const popularity = variant.popularity;
    if (popularity !== undefined && variant.popularityWeight) {
      let top = 0;
      for (const p of popularity) top = Math.max(top, p);
      for (let n = 0; n < itemIds.length; n++) scores[n] = (best > 0 ? scores[n]! / best : 0) + (variant.popularityWeight * popularity[n]!) / top;
    }
    const list = variant.diverse ? diverseTopK(scores, c.bought, variant.diverse) : topK(scores, c.bought);
    if (list.some((n) => c.target.has(itemIds[n]!))) hits++;
  }
  return Math.round((1000 * hits) / cases.length) / 1000;
}

/** The K best item numbers (ties: lower number), skipping bought ones. */
function topK(scores: Float64Array, bought: Set<string>): number[] {
  return topKOf(scores, bought, K);
}

/**
 * The K best after a greedy re-rank over the best 5K: each next pick's score loses `beta` × (the list's
 * best score) × its largest cosine (orders in common) with an earlier pick, so near-twins of a pick wait.
 */
function diverseTopK(scores: Float64Array, bought: Set<string>, beta: number): number[] {
  const pool = topKOf(scores, bought, 5 * K);
  if (pool.length === 0) return pool;
  const top = Math.abs(scores[pool[0]!]!) || 1;
  const picked: number[] = [];
  const penalty = new Float64Array(pool.length);
  const taken = new Uint8Array(pool.length);
  while (picked.length < K && picked.length < pool.length) {
    let best = -1;
    let bestScore = -Infinity;
    for (let k = 0; k < pool.length; k++) {
      if (taken[k]) continue;
      const v = scores[pool[k]!]! - beta * top * penalty[k]!;
      if (v > bestScore) { best = k; bestScore = v; }
    }
    taken[best] = 1;
    const n = pool[best]!;
    picked.push(n);
    for (let k = 0; k < pool.length; k++) {
      if (taken[k]) continue;
      const m = pool[k]!;
      const both = pairs[n]!.get(m) ?? 0;
      const cos = both / Math.sqrt(Math.max(1, orderCount[n]!) * Math.max(1, orderCount[m]!));
      if (cos > penalty[k]!) penalty[k] = cos;
    }
  }
  return picked;
}

/** The k best item numbers (ties: lower number), skipping bought ones. */
function topKOf(scores: Float64Array, bought: Set<string>, k: number): number[] {
  const best: number[] = [];
  for (let n = 0; n < scores.length; n++) {
    const s = scores[n]!;
    if (best.length === k && !(s > scores[best[k - 1]!]!)) continue;
    if (bought.has(itemIds[n]!)) continue;
    let at = best.length;
    while (at > 0 && s > scores[best[at - 1]!]!) at--;
    best.splice(at, 0, n);
    if (best.length > k) best.pop();
  }
  return best;
}

// Order co-occurrence over every replayed purchase, as the live aggregate counts it (raw).
const pairs: Array<Map<number, number>> = itemIds.map(() => new Map());
const orderCount = new Float64Array(itemIds.length);
for (const order of training) {
  const ns = order.items.map((i) => itemNumber.get(i)!);
  for (const a of new Set(ns)) orderCount[a]!++;
  for (const a of ns) for (const b of ns) if (a !== b) pairs[a]!.set(b, (pairs[a]!.get(b) ?? 0) + 1);
}

const w90 = windowed(90);
const groups: Record<string, Variant[]> = {
  base: [
    { name: 'EASE, full rows, all weights' },
    { name: 'EASE + 90-day popularity 0.15', popularity: w90, popularityWeight: 0.15 },
    { name: 'EASE + 45-day half-life 0.15', popularity: halfLife(45), popularityWeight: 0.15 },
    { name: 'live-like: top 200, 300 seeds, half-life 0.15', neighbours: 200, seeds: 300, popularity: halfLife(45), popularityWeight: 0.15 },
  ],
  prune: [
    { name: 'positive top 200', neighbours: 200 },
    { name: 'positive top 1000', neighbours: 1000 },
    { name: 'positive all', neighbours: size },
    { name: 'magnitude top 200', neighbours: 200, magnitude: true },
    { name: 'magnitude top 500', neighbours: 500, magnitude: true },
  ],
  popularity: [
    ...[30, 60, 90, 180].flatMap((d) => [0.15, 0.3].map((p) => ({ name: `${d}-day window ${p}`, popularity: windowed(d), popularityWeight: p }))),
    ...[20, 90].map((d) => ({ name: `${d}-day half-life 0.2`, popularity: halfLife(d), popularityWeight: 0.2 })),
  ],
  sharp: [
    ...[7, 10, 15].flatMap((d) => [0.2, 0.3, 0.5].map((p) => ({ name: `${d}-day half-life ${p}`, popularity: halfLife(d), popularityWeight: p, neighbours: 200, magnitude: true }))),
    ...[14, 30].flatMap((d) => [0.4, 0.6].map((p) => ({ name: `${d}-day window ${p}`, popularity: windowed(d), popularityWeight: p, neighbours: 200, magnitude: true }))),
  ],
  co: [0, 0.1, 0.2, 0.4].flatMap((share) => [10, 50].map((coSeeds) => ({ name: `co-occurrence ${share} of latest ${coSeeds}, 10-day 0.3`, coOccurrence: share, coSeeds, popularity: halfLife(10), popularityWeight: 0.3, neighbours: 200, magnitude: true }))),
  diverse: [0, 0.1, 0.2, 0.4, 0.8].map((beta) => ({ name: `diverse re-rank ${beta}, 10-day 0.3`, diverse: beta, popularity: halfLife(10), popularityWeight: 0.3, neighbours: 200, magnitude: true })),
  recency: [90, 180, 365, 730].map((d) => ({ name: `seed half-life ${d} d, 10-day half-life 0.3`, seedHalfLifeDays: d, popularity: halfLife(10), popularityWeight: 0.3, neighbours: 200, magnitude: true })),
};
const seeds = (process.env.OFFLINE_SEEDS ?? '').split(',').filter(Boolean).map(Number);
started = performance.now();
const variants = (process.env.OFFLINE_GROUPS ?? 'base').split(',').flatMap((g) => groups[g] ?? []);
const table = variants.map((v) => ({ variant: v.name, 'all cases': run(v, allCases), ...Object.fromEntries(seeds.map((s) => [`seed ${s}`, run(v, sample(allCases, s))])) }));
console.log(`${allCases.length} next-order cases; ${size} items modelled of ${itemIds.length}; λ ${lambda}`);
console.table(table);
console.error(`scored in ${Math.round(performance.now() - started)} ms`);

/** The eval's sample: the same seeded shuffle of held-out orders, cut at 600, then cases with new items. */
function sample(cases: Case[], seed: number): Case[] {
  const orders = shuffle([...heldOut], seed).slice(0, 600);
  const customers = new Set(orders.map((o) => o.customer));
  return cases.filter((c) => customers.has(c.customer));
}
