/**
 * Basket completion offline on the evaluation's split, without the server: the rest of each held-out
 * order from its first item, by co-occurrence counts within the replayed orders. Compares the full
 * counts with the live aggregate's bounded rows (200 partners kept once a row passes 400) and with
 * recency weights and tie-breaks, anonymously (no customer history).
 * Run: `npx tsx eval/offline-baskets.ts`; OFFLINE_SEEDS=13,7; OFFLINE_VARIANTS=name|name picks variants;
 * OFFLINE_VALIDATE=1 measures on a split made inside the training orders; OFFLINE_PRIOR=1,2 adds the
 * coverage with that many pseudo-orders of recent popularity (OFFLINE_PRIOR_EASE=0.5: and of the
 * customer-level EASE neighbours); OFFLINE_LIVE=1 adds the server's own aggregate (CoOccurrence: its
 * coverage and its bounded counts), to tell a difference of method from one of the live bookkeeping.
 */
import type { RetailOrder } from './retail-data.js';
import { retailSplit } from './offline-split.js';
import { shuffle } from './seeded-shuffle.js';
import { invertSpdInPlace } from '../packages/server/src/domains/recommendations/spd-inverse.js';
import { CoOccurrence } from '../packages/server/src/domains/recommendations/co-occurrence.js';

const K = 10;
const DAY = 86_400_000;
// OFFLINE_VALIDATE=1 (2, …): the split made again inside the training orders, to choose settings on.
const { heldOut, training } = await retailSplit();
const end = training.at(-1)!.at;
const bought = new Map<string, number>();
for (const order of training) for (const item of order.items) bought.set(item, (bought.get(item) ?? 0) + 1);

interface Counting {
  /** Partners kept per row once a row passes `pruneAt` (default twice this; 0: unbounded). */
  cap: number;
  pruneAt?: number;
  /** Half-life of a meeting's weight, days (0: raw counts). */
  halfLifeDays: number;
  /** Items of an order that pair with later ones. */
  groupItems: number;
  /** Count only pairs where the row's item came first in the order; `after` weighs the other direction. */
  after?: number;
  /** A pair from an order of n items weighs 1 / (n - 1)^sizePower: a wholesaler's 300-line order says little about any one pair. */
  sizePower?: number;
  /** Items listed near each other in an order weigh more: 1 + proximity / (distance in the order). */
  proximity?: number;
}

function count(options: Counting): Map<string, Map<string, number>> {
  const pairs = new Map<string, Map<string, number>>();
  const row = (id: string) => {
    let r = pairs.get(id);
    if (r === undefined) pairs.set(id, (r = new Map()));
    return r;
  };
  const prune = (r: Map<string, number>) => {
    if (options.cap === 0 || r.size <= (options.pruneAt ?? 2 * options.cap)) return;
    const kept = [...r].sort((x, y) => y[1] - x[1]).slice(0, options.cap);
    r.clear();
    for (const [k, v] of kept) r.set(k, v);
  };
  for (const order of training) {
    const weight = (options.halfLifeDays > 0 ? 2 ** ((order.at - end) / (options.halfLifeDays * DAY)) : 1) / Math.max(1, order.items.length - 1) ** (options.sizePower ?? 0);
    const group: string[] = [];
    for (const item of order.items) {
      const mine = row(item);
      for (const [at, other] of group.entries()) {
        const near = options.proximity === undefined ? 1 : 1 + options.proximity / (group.length - at);
        mine.set(other, (mine.get(other) ?? 0) + weight * near * (options.after ?? 1));
        const theirs = row(other);
        theirs.set(item, (theirs.get(item) ?? 0) + weight * near);
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
  return itemEase(training.map((order) => order.items), lambda, Infinity);
}

/** EASE over rows × items (binary): the `most` items in the most rows (at least 2). */
function itemEase(rows: string[][], lambda: number, most: number): Map<string, Map<string, number>> {
  const inRows = new Map<string, number>();
  for (const items of rows) for (const item of items) inRows.set(item, (inRows.get(item) ?? 0) + 1);
  const chosen = [...inRows].filter(([, n]) => n >= 2).sort((a, b) => b[1] - a[1]).slice(0, most).map(([id]) => id);
  const column = new Map(chosen.map((id, c) => [id, c]));
  const n = chosen.length;
  const gram = new Float64Array(n * n);
  for (const items of rows) {
    const cols = items.map((i) => column.get(i)).filter((c): c is number => c !== undefined);
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
for (const [cap, pruneAt] of [[300, 400], [350, 400], [400, 600], [500, 600], [400, 800]] as const) {
  variants.push({ name: `live but ${cap} kept past ${pruneAt}`, counting: { cap, pruneAt, halfLifeDays: 730, groupItems: 100 }, tie: 'bought' });
}
for (const proximity of [0.5, 2]) variants.push({ name: `730-day; near items weigh 1 + ${proximity}/distance`, counting: { cap: 0, halfLifeDays: 730, groupItems: 1e9, proximity }, tie: 'bought' });
for (const power of [0.1, 0.25, 0.5, 1]) variants.push({ name: `730-day; orders of n items weigh 1/(n-1)^${power}`, counting: { cap: 0, halfLifeDays: 730, groupItems: 1e9, sizePower: power }, tie: 'bought' });
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
if (process.env.OFFLINE_MORE !== undefined) {
  // A pair counts once per customer (their latest order's weight): a regular who reorders the same pair
  // every week no longer outweighs many shoppers who bought it once.
  const counts = count({ cap: 0, halfLifeDays: 730, groupItems: 1e9 });
  const perCustomer = countPerCustomer(730);
  for (const share of [0.5, 1, 2]) extra.push({ name: `orders + ${share} × customers`, pairs: () => mix(counts, perCustomer, share) });
  extra.push({ name: 'customers only', pairs: () => perCustomer });
  // Very popular partners shrunk a little: count / bought^α.
  for (const alpha of [0.05, 0.1, 0.2]) {
    extra.push({ name: `orders / bought^${alpha}`, pairs: () => shrink(counts, alpha) });
    extra.push({ name: `customers / bought^${alpha}`, pairs: () => shrink(perCustomer, alpha) });
  }
}
if (process.env.OFFLINE_CUSTOMER_EASE !== undefined) {
  // The trained model's view: customers × items (binary), λ as the server's default; its row of the seed
  // added to the seed's order counts (each scaled so the row's best is 1) at a small share.
  const lambda = Number(process.env.OFFLINE_CUSTOMER_EASE || 300);
  const started = performance.now();
  const byWho = new Map<string, Set<string>>();
  for (const order of training) {
    let set = byWho.get(order.customer);
    if (set === undefined) byWho.set(order.customer, (set = new Set()));
    for (const item of order.items) set.add(item);
  }
  const ease = itemEase([...byWho.values()].map((set) => [...set]), lambda, 2500);
  console.error(`customer EASE λ ${lambda} in ${Math.round(performance.now() - started)} ms`);
  const counts = count({ cap: 0, halfLifeDays: 730, groupItems: 1e9 });
  for (const share of [0.05, 0.1, 0.2, 0.4]) extra.push({ name: `counts + ${share} × customer EASE (λ ${lambda})`, pairs: () => blend(counts, ease, share) });
  const perCustomer = countPerCustomer(730);
  for (const share of [0.1, 0.2]) extra.push({ name: `customers + ${share} × customer EASE (λ ${lambda})`, pairs: () => blend(perCustomer, ease, share) });
}
/** Each item's training orders, each order's weight (two-year half-life) and its distinct items: what the coverage variants share. */
function orderIndex(): { ordersOf: Map<string, number[]>; weightOf: number[]; itemSets: string[][] } {
  const ordersOf = new Map<string, number[]>();
  training.forEach((order, o) => {
    for (const item of new Set(order.items)) {
      let list = ordersOf.get(item);
      if (list === undefined) ordersOf.set(item, (list = []));
      list.push(o);
    }
  });
  const weightOf = training.map((order) => 2 ** ((order.at - end) / (730 * DAY)));
  const itemSets = training.map((order) => [...new Set(order.items)]);
  return { ordersOf, weightOf, itemSets };
}

if (process.env.OFFLINE_COVER !== undefined) {
  // Greedy coverage: the seed's past orders, and each next pick the partner found in most of the orders no
  // earlier pick was in (a hit-rate list wants partners that are not all bought in the same baskets).
  // `damp` < 1 keeps a share of a covered order's weight, between raw counts (1) and pure coverage (0).
  const { ordersOf, weightOf, itemSets } = orderIndex();
  for (const damp of (process.env.OFFLINE_COVER || '0,0.1,0.3,0.5').split(',').map(Number)) {
    for (const recent of (process.env.OFFLINE_COVER_RECENT || "Infinity,300,100").split(",").map(Number)) {
      extra.push({
        name: `greedy coverage, covered orders keep ${damp}, latest ${recent} orders of the seed`,
        pairs: () => {
          const out = new Map<string, Map<string, number>>();
          for (const order of heldOut) {
            const seed = order.items[0]!;
            if (out.has(seed)) continue;
            const mine = (ordersOf.get(seed) ?? []).slice(-recent);
            const left = new Map<number, number>(mine.map((o) => [o, weightOf[o]!]));
            const chosen = new Map<string, number>();
            for (let pick = 0; pick < K + 5; pick++) {
              const gain = new Map<string, number>();
              for (const [o, w] of left) for (const item of itemSets[o]!) if (item !== seed && !chosen.has(item)) gain.set(item, (gain.get(item) ?? 0) + w);
              let best: string | undefined;
              let bestGain = 0;
              for (const [item, g] of gain) if (g > bestGain || (g === bestGain && best !== undefined && (bought.get(item) ?? 0) > (bought.get(best) ?? 0))) { best = item; bestGain = g; }
              if (best === undefined) break;
              chosen.set(best, 1000 - pick);
              for (const [o, w] of left) if (itemSets[o]!.includes(best)) left.set(o, w * damp);
            }
            out.set(seed, chosen);
          }
          return out;
        },
      });
    }
  }
}
if (process.env.OFFLINE_PRIOR !== undefined) {
  // The coverage as served (0.6, latest 256 orders), each partner's gain plus a prior: `alpha`
  // pseudo-orders in which an item appears as often as in recent orders at large (10-day half-life),
  // and `beta` pseudo-orders of the seed's customer-level EASE neighbours (best = 1). A seed with many
  // orders barely feels it; one with a handful gets what sells now, and what its buyers buy.
  const { ordersOf, weightOf, itemSets } = orderIndex();
  const halfLife = Number(process.env.OFFLINE_PRIOR_DAYS ?? 10);
  const share = new Map<string, number>();
  let total = 0;
  for (const order of training) {
    const w = 2 ** ((order.at - end) / (halfLife * DAY));
    total += w;
    for (const item of new Set(order.items)) share.set(item, (share.get(item) ?? 0) + w);
  }
  for (const [item, v] of share) share.set(item, v / total);
  const poolOf = [...share].sort((a, b) => b[1] - a[1]).slice(0, 300);
  const betas = (process.env.OFFLINE_PRIOR_EASE ?? '0').split(',').map(Number);
  let ease: Map<string, Map<string, number>> | undefined;
  if (betas.some((b) => b > 0)) {
    const byWho = new Map<string, Set<string>>();
    for (const order of training) {
      let set = byWho.get(order.customer);
      if (set === undefined) byWho.set(order.customer, (set = new Set()));
      for (const item of order.items) set.add(item);
    }
    ease = itemEase([...byWho.values()].map((set) => [...set]), 300, 2500);
  }
  for (const alpha of process.env.OFFLINE_PRIOR.split(',').map(Number)) {
    for (const beta of betas) {
      extra.push({
        name: `coverage 0.6/256 + ${alpha} popular pseudo-orders (${halfLife}-day) + ${beta} EASE`,
        pairs: () => {
          const out = new Map<string, Map<string, number>>();
          for (const order of heldOut) {
            const seed = order.items[0]!;
            if (out.has(seed)) continue;
            const mine = (ordersOf.get(seed) ?? []).slice(-256);
            const left = new Map<number, number>(mine.map((o) => [o, weightOf[o]!]));
            const prior = new Map<string, number>();
            for (const [item, p] of poolOf) prior.set(item, alpha * p);
            const row = ease?.get(seed);
            if (row !== undefined && beta > 0) {
              const best = Math.max(...row.values(), 1e-9);
              for (const [item, v] of row) if (v > 0) prior.set(item, (prior.get(item) ?? 0) + (beta * v) / best);
            }
            const chosen = new Map<string, number>();
            for (let pick = 0; pick < K + 5; pick++) {
              const gain = new Map<string, number>(prior);
              for (const [o, w] of left) for (const item of itemSets[o]!) gain.set(item, (gain.get(item) ?? 0) + w);
              let best: string | undefined;
              let bestGain = 0;
              for (const [item, g] of gain) {
                if (item === seed || chosen.has(item)) continue;
                if (g > bestGain || (g === bestGain && best !== undefined && (bought.get(item) ?? 0) > (bought.get(best) ?? 0))) { best = item; bestGain = g; }
              }
              if (best === undefined) break;
              chosen.set(best, 1000 - pick);
              for (const [o, w] of left) if (itemSets[o]!.includes(best)) left.set(o, w * 0.6);
            }
            out.set(seed, chosen);
          }
          return out;
        },
      });
    }
  }
}
if (process.env.OFFLINE_LIVE === '1') {
  const live = new CoOccurrence();
  for (const order of training) for (const item of order.items) live.addOrderItem(order.invoice, item, order.at);
  const tie = (id: string) => bought.get(id) ?? 0;
  const liveOf = (list: (seed: string) => string[]) => () => {
    const out = new Map<string, Map<string, number>>();
    for (const order of heldOut) {
      const seed = order.items[0]!;
      if (!out.has(seed)) out.set(seed, new Map(list(seed).map((id, k) => [id, 1000 - k])));
    }
    return out;
  };
  extra.push({ name: 'live aggregate: coverage', pairs: liveOf((seed) => live.coveringOrders([seed], K, tie).map((r) => r.itemId)) });
  extra.push({ name: 'live aggregate: counts', pairs: liveOf((seed) => live.related('order', seed, K, tie).map((r) => r.itemId)) });
}
for (const e of extra) {
  const pairs = e.pairs();
  console.log(e.name, run(pairs, [...heldOut], 'bought'), ...seeds.map((s) => run(pairs, shuffle([...heldOut], s).slice(0, 600), 'bought')));
}
const table = variants.filter((v) => only === undefined || only.split('|').includes(v.name)).map((v) => {
  const pairs = count(v.counting);
  return { variant: v.name, all: run(pairs, [...heldOut], v.tie), ...Object.fromEntries(seeds.map((s) => [`seed ${s}`, run(pairs, shuffle([...heldOut], s).slice(0, 600), v.tie)])) };
});
console.table(table);

function countPerCustomer(halfLifeDays: number): Map<string, Map<string, number>> {
  const pairs = new Map<string, Map<string, number>>();
  const orders = new Map<string, RetailOrder[]>();
  for (const order of training) {
    let list = orders.get(order.customer);
    if (list === undefined) orders.set(order.customer, (list = []));
    list.push(order);
  }
  for (const list of orders.values()) {
    const mine = new Map<string, Map<string, number>>();
    for (const order of list) {
      const weight = 2 ** ((order.at - end) / (halfLifeDays * DAY));
      for (const a of order.items) {
        let row = mine.get(a);
        if (row === undefined) mine.set(a, (row = new Map()));
        for (const b of order.items) if (a !== b) row.set(b, Math.max(row.get(b) ?? 0, weight));
      }
    }
    for (const [a, row] of mine) {
      let out = pairs.get(a);
      if (out === undefined) pairs.set(a, (out = new Map()));
      for (const [b, w] of row) out.set(b, (out.get(b) ?? 0) + w);
    }
  }
  return pairs;
}

function mix(a: Map<string, Map<string, number>>, b: Map<string, Map<string, number>>, share: number): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  for (const [item, row] of a) {
    const other = b.get(item) ?? new Map<string, number>();
    out.set(item, new Map([...row].map(([k, v]) => [k, v + share * (other.get(k) ?? 0)])));
  }
  return out;
}

function shrink(a: Map<string, Map<string, number>>, alpha: number): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  for (const [item, row] of a) out.set(item, new Map([...row].map(([k, v]) => [k, v / (bought.get(k) ?? 1) ** alpha])));
  return out;
}
