/**
 * Basket completion offline on the evaluation's split, without the server: the rest of each held-out
 * order from its first item, by co-occurrence counts within the replayed orders. Compares the full
 * counts with the live aggregate's bounded rows (200 partners kept once a row passes 400) and with
 * recency weights and tie-breaks, anonymously (no customer history).
 * Run: `npx tsx eval/offline-baskets.ts`; OFFLINE_SEEDS=13,7.
 */
import { existsSync } from 'node:fs';
import { readRetail, splitLastOrders, type RetailOrder } from './retail-data.js';
import { shuffle } from './seeded-shuffle.js';
import { invertSpdInPlace } from '../packages/server/src/domains/recommendations/spd-inverse.js';

const DATA = '/work/shared/data/online-retail.csv.gz';
const K = 10;
const DAY = 86_400_000;
if (!existsSync(DATA)) throw new Error(`${DATA} is absent`);
const data = await readRetail(DATA);
const { byCustomer, heldOut, training } = splitLastOrders(data.orders);
const end = training.at(-1)!.at;
const bought = new Map<string, number>();
for (const order of training) for (const item of order.items) bought.set(item, (bought.get(item) ?? 0) + 1);

interface Counting {
  /** Partners kept per row once a row passes twice this (0: unbounded). */
  cap: number;
  /** Half-life of a meeting's weight, days (0: raw counts). */
  halfLifeDays: number;
  /** Items of an order that pair with later ones. */
  groupItems: number;
  /** Count only pairs where the row's item came first in the order; `after` weighs the other direction. */
  after?: number;
}

function count(options: Counting): Map<string, Map<string, number>> {
  const pairs = new Map<string, Map<string, number>>();
  const row = (id: string) => {
    let r = pairs.get(id);
    if (r === undefined) pairs.set(id, (r = new Map()));
    return r;
  };
  const prune = (r: Map<string, number>) => {
    if (options.cap === 0 || r.size <= 2 * options.cap) return;
    const kept = [...r].sort((x, y) => y[1] - x[1]).slice(0, options.cap);
    r.clear();
    for (const [k, v] of kept) r.set(k, v);
  };
  for (const order of training) {
    const weight = options.halfLifeDays > 0 ? 2 ** ((order.at - end) / (options.halfLifeDays * DAY)) : 1;
    const group: string[] = [];
    for (const item of order.items) {
      const mine = row(item);
      for (const other of group) {
        mine.set(other, (mine.get(other) ?? 0) + weight * (options.after ?? 1));
        const theirs = row(other);
        theirs.set(item, (theirs.get(item) ?? 0) + weight);
        prune(theirs);
      }
      prune(mine);
      if (group.length < options.groupItems) group.push(item);
    }
  }
  return pairs;
}

const popular = [...bought].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([id]) => id);

function run(pairs: Map<string, Map<string, number>>, orders: RetailOrder[], tie: 'bought' | 'id'): number {
  let hits = 0;
  let cases = 0;
  for (const order of orders) {
    if (order.items.length < 2) continue;
    cases++;
    const seed = order.items[0]!;
    const target = new Set(order.items.slice(1));
    const list = [...(pairs.get(seed) ?? [])]
      .sort((a, b) => b[1] - a[1] || (tie === 'bought' ? (bought.get(b[0]) ?? 0) - (bought.get(a[0]) ?? 0) : 0) || a[0].localeCompare(b[0]))
      .map(([id]) => id)
      .slice(0, K);
    for (const id of popular) {
      if (list.length >= K) break;
      if (id !== seed && !list.includes(id)) list.push(id);
    }
    if (list.some((id) => target.has(id))) hits++;
  }
  return Math.round((1000 * hits) / cases) / 1000;
}

/** EASE over orders × items (binary), every item in 2+ orders: the weights of a seed's row rank its basket companions. */
function orderEase(lambda: number): Map<string, Map<string, number>> {
  const inOrders = new Map<string, number>();
  for (const order of training) for (const item of order.items) inOrders.set(item, (inOrders.get(item) ?? 0) + 1);
  const chosen = [...inOrders].filter(([, n]) => n >= 2).map(([id]) => id);
  const column = new Map(chosen.map((id, c) => [id, c]));
  const n = chosen.length;
  const gram = new Float64Array(n * n);
  for (const order of training) {
    const cols = order.items.map((i) => column.get(i)).filter((c): c is number => c !== undefined);
    for (const a of cols) for (const b of cols) gram[a * n + b]! += 1;
  }
  for (let i = 0; i < n; i++) gram[i * n + i]! += lambda;
  invertSpdInPlace(gram, n);
  const out = new Map<string, Map<string, number>>();
  for (let i = 0; i < n; i++) {
    const row = new Map<string, number>();
    for (let j = 0; j < n; j++) if (j !== i) row.set(chosen[j]!, -gram[i * n + j]! / gram[j * n + j]!);
    out.set(chosen[i]!, row);
  }
  return out;
}

/** Counts scaled so a row's best is 1, plus `share` × the EASE row scaled the same way. */
function blend(counts: Map<string, Map<string, number>>, ease: Map<string, Map<string, number>>, share: number): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  for (const [item, row] of counts) {
    const top = Math.max(...row.values(), 1e-9);
    const mixed = new Map([...row].map(([k, v]) => [k, v / top]));
    const model = ease.get(item);
    if (model !== undefined && share > 0) {
      const best = Math.max(...model.values(), 1e-9);
      for (const [k, v] of model) mixed.set(k, (mixed.get(k) ?? 0) + (share * v) / best);
    }
    out.set(item, mixed);
  }
  return out;
}

const seeds = (process.env.OFFLINE_SEEDS ?? '13,7').split(',').filter(Boolean).map(Number);
const variants: Array<{ name: string; counting: Counting; tie: 'bought' | 'id' }> = [
  { name: 'raw counts, unbounded', counting: { cap: 0, halfLifeDays: 0, groupItems: 1e9 }, tie: 'bought' },
  { name: 'raw counts, unbounded, ties by id', counting: { cap: 0, halfLifeDays: 0, groupItems: 1e9 }, tie: 'id' },
  { name: '730-day half-life, unbounded', counting: { cap: 0, halfLifeDays: 730, groupItems: 1e9 }, tie: 'bought' },
  { name: '180-day half-life, unbounded', counting: { cap: 0, halfLifeDays: 180, groupItems: 1e9 }, tie: 'bought' },
  { name: 'live: 730-day, 200 kept past 400, 100 per order', counting: { cap: 200, halfLifeDays: 730, groupItems: 100 }, tie: 'bought' },
  { name: '730-day, 1000 kept past 2000, 100 per order', counting: { cap: 1000, halfLifeDays: 730, groupItems: 100 }, tie: 'bought' },
];
variants.push(
  { name: 'later items only (after 0)', counting: { cap: 0, halfLifeDays: 730, groupItems: 1e9, after: 0 }, tie: 'bought' },
  { name: 'earlier items weigh 0.5', counting: { cap: 0, halfLifeDays: 730, groupItems: 1e9, after: 0.5 }, tie: 'bought' },
  { name: 'earlier items weigh 0.25', counting: { cap: 0, halfLifeDays: 730, groupItems: 1e9, after: 0.25 }, tie: 'bought' },
);
const only = process.env.OFFLINE_VARIANTS;
const extra: Array<{ name: string; pairs: () => Map<string, Map<string, number>> }> = [];
if (process.env.OFFLINE_EASE !== undefined) {
  const lambda = Number(process.env.OFFLINE_EASE || 50);
  const started = performance.now();
  const ease = orderEase(lambda);
  console.error(`order EASE λ ${lambda} in ${Math.round(performance.now() - started)} ms`);
  const counts = count({ cap: 0, halfLifeDays: 730, groupItems: 1e9 });
  for (const share of [0, 0.1, 0.3, 1, 1e6]) extra.push({ name: `counts + ${share} × order EASE (λ ${lambda})`, pairs: () => blend(counts, ease, share) });
}
if (process.env.OFFLINE_POPULAR !== undefined) {
  const halfLife = Number(process.env.OFFLINE_POPULAR || 10);
  const recent = new Map<string, number>();
  for (const order of training) for (const item of order.items) recent.set(item, (recent.get(item) ?? 0) + 2 ** ((order.at - end) / (halfLife * DAY)));
  const top = Math.max(...recent.values());
  const counts = count({ cap: 0, halfLifeDays: 730, groupItems: 1e9 });
  for (const share of [0, 0.02, 0.05, 0.1, 0.2, 0.4]) {
    extra.push({
      name: `counts + ${share} × ${halfLife}-day popularity (co-occurring only)`,
      pairs: () => {
        const out = new Map<string, Map<string, number>>();
        for (const [item, row] of counts) {
          const best = Math.max(...row.values(), 1e-9);
          out.set(item, new Map([...row].map(([k, v]) => [k, v / best + (share * (recent.get(k) ?? 0)) / top])));
        }
        return out;
      },
    });
  }
}
for (const e of extra) {
  const pairs = e.pairs();
  console.log(e.name, run(pairs, [...heldOut], 'bought'), ...seeds.map((s) => run(pairs, shuffle([...heldOut], s).slice(0, 600), 'bought')));
}
const table = variants.filter((v) => only === undefined || only.split(',').includes(v.name)).map((v) => {
  const pairs = count(v.counting);
  return { variant: v.name, all: run(pairs, [...heldOut], v.tie), ...Object.fromEntries(seeds.map((s) => [`seed ${s}`, run(pairs, shuffle([...heldOut], s).slice(0, 600), v.tie)])) };
});
console.table(table);
