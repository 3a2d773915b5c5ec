/**
 * Item-to-item co-occurrence: items seen in the same visit (same profile, less than 30 minutes
 * between activities) and items bought in the same order. Visits and orders in progress are kept
 * in bounded maps; pairs are counted the first time both items meet in one visit or order.
 */
import { BoundedMap } from '../../platform/collections/bounded-map.js';
import { BasketMemory, type SavedBasket } from './basket-cover.js';

export const VISIT_GAP_MS = 30 * 60 * 1000;
/** Items of one visit or order that pair with later ones: bounds the work per activity (a large order pairs its first 100 items with the rest). */
const MAX_GROUP_ITEMS = 100;
/**
 * Items an order keeps for basket completion (and for telling an item already in it): more than pair,
 * since the coverage reads whole orders. Kept to the first 100, a wholesaler's order of 300 lines
 * lost two thirds of itself and every later item lost that order from its latest ones: on the
 * evaluation's baskets that cost 0.013 / 0.008 of anonymous HR@10 (seeds 13 / 7). The evaluation's
 * largest order has 541 distinct items; 1 % have more than 104.
 */
const MAX_BASKET_ITEMS = 500;
/**
 * Orders count more the newer they are, halving in weight every this many days: a long half-life,
 * because raw counts predicted baskets best (docs/recommendations.md) and recency only tips near-ties.
 * Weights grow as 2^(t / half-life) from a fixed epoch, so they never need rescaling.
 */
const ORDER_HALF_LIFE_MS = 730 * 24 * 60 * 60 * 1000;
const RECENCY_EPOCH = Date.UTC(2020, 0, 1);
const MAX_OPEN_GROUPS = 50_000;

/**
 * Partners kept per item: a popular item meets most of the catalog over time, and each partner costs
 * memory. Past twice this, the row keeps its MAX_RELATED strongest partners (ties: the first kept);
 * a pruned partner that meets the item again starts counting afresh.
 */
export const MAX_RELATED = 200;

function prune(row: Map<number, number>): void {
  const kept = [...row].sort((x, y) => y[1] - x[1]).slice(0, MAX_RELATED);
  row.clear();
  for (const [partner, weight] of kept) row.set(partner, weight);
}

export type CoOccurrenceKind = 'visit' | 'order';

interface Group {
  lastAt: number;
  /** Item numbers (see PairCounts.numberOf). */
  items: number[];
  /** The group's number in the basket memory (orders only). */
  basket?: number;
}

export interface RelatedItem {
  itemId: string;
  /**
   * How often the items met. For orders, recency-weighted: a meeting in the newest order counts 1,
   * one a half-life (730 days) older counts 0.5.
   */
  count: number;
  /** The same as `count` (kept for callers that rank by it). */
  score: number;
}

/**
 * Pair counts keyed by interned item numbers: a large shop's orders make millions of pairs, and
 * number-keyed maps cost a fraction of string-keyed ones in time and memory.
 */
class PairCounts {
  private readonly numbers = new Map<string, number>();
  private readonly names: string[] = [];
  /** Per item number: the other items met and how often (recency-weighted when `recency`). */
  private readonly pairs: Array<Map<number, number>> = [];
  private readonly recency: boolean;
  /** The weight of a meeting now: weighted counts are divided by it so a meeting in the newest group counts 1. */
  private newestWeight = 0;
  private readonly open = new BoundedMap<string, Group>(MAX_OPEN_GROUPS);
  /** The latest groups themselves, for basket completion by coverage (orders only). */
  private readonly baskets: BasketMemory | undefined;

  constructor(options: { recency: boolean; baskets?: boolean }) {
    this.recency = options.recency;
    this.baskets = options.baskets === true ? new BasketMemory() : undefined;
  }

  /** Adds `itemId` to the group `groupKey`; `startsNew` says when the group's earlier items no longer count. */
  add(groupKey: string, itemId: string, at: number, startsNew: (group: Group) => boolean): void {
    let group = this.open.get(groupKey);
    const weight = this.recency ? 2 ** ((at - RECENCY_EPOCH) / ORDER_HALF_LIFE_MS) : 1;
    if (group === undefined || startsNew(group)) {
      group = { lastAt: at, items: [] };
      if (this.baskets !== undefined) group.basket = this.baskets.open(weight, group.items);
      this.open.set(groupKey, group);
    }
    group.lastAt = at;
    const item = this.numberOf(itemId);
    if (group.items.includes(item)) return;
    if (weight > this.newestWeight) this.newestWeight = weight;
    const row = this.pairs[item]!;
    const paired = Math.min(group.items.length, MAX_GROUP_ITEMS);
    for (let k = 0; k < paired; k++) {
      const other = group.items[k]!;
      row.set(other, (row.get(other) ?? 0) + weight);
      const otherRow = this.pairs[other]!;
      otherRow.set(item, (otherRow.get(item) ?? 0) + weight);
      if (otherRow.size > 2 * MAX_RELATED) prune(otherRow);
    }
    if (row.size > 2 * MAX_RELATED) prune(row);
    if (group.items.length < (this.baskets === undefined ? MAX_GROUP_ITEMS : MAX_BASKET_ITEMS)) {
      group.items.push(item);
      if (group.basket !== undefined) this.baskets!.addItem(group.basket, item);
    }
  }

  /**
   * Partners of the seeds by greedy coverage of their latest groups (BasketMemory.cover), scaled as
   * `related` scales counts; undefined without a basket memory. Equal gains go to the item `tieBreak`
   * rates higher.
   */
  covering(seedIds: readonly string[], limit: number, tieBreak?: (itemId: string) => number): RelatedItem[] | undefined {
    if (this.baskets === undefined) return undefined;
    const seeds = seedIds.map((id) => this.numbers.get(id)).filter((n): n is number => n !== undefined);
    if (seeds.length === 0 || limit <= 0) return [];
    const scale = this.recency && this.newestWeight > 0 ? this.newestWeight : 1;
    const tie = tieBreak === undefined ? () => 0 : (item: number) => tieBreak(this.names[item]!);
    return this.baskets.cover(seeds, limit, this.names.length, tie).map(({ item, gain }) => {
      const count = Math.round((gain / scale) * 1e6) / 1e6;
      return { itemId: this.names[item]!, count, score: count };
    });
  }

  /**
   * Best first by score; `tieBreak` (higher first) orders equal scores before the id does. Keeps a
   * running top `limit` rather than sorting every partner: a bestseller meets thousands of items.
   */
  related(itemId: string, limit: number, tieBreak?: (itemId: string) => number): RelatedItem[] {
    const item = this.numbers.get(itemId);
    if (item === undefined || limit <= 0) return [];
    // Orders dated before the recency epoch weigh less than 1: still scaled to the newest of them.
    const scale = this.recency && this.newestWeight > 0 ? this.newestWeight : 1;
    const best: Array<{ itemId: string; weight: number; tie: number }> = [];
    const before = (a: { itemId: string; weight: number; tie: number }, b: { itemId: string; weight: number; tie: number }) =>
      a.weight > b.weight || (a.weight === b.weight && (a.tie > b.tie || (a.tie === b.tie && a.itemId < b.itemId)));
    for (const [other, weight] of this.pairs[item]!) {
      const last = best[best.length - 1];
      if (best.length >= limit && weight < last!.weight) continue;
      const id = this.names[other]!;
      const candidate = { itemId: id, weight, tie: tieBreak?.(id) ?? 0 };
      if (best.length >= limit && !before(candidate, last!)) continue;
      let at = best.length;
      while (at > 0 && before(candidate, best[at - 1]!)) at--;
      best.splice(at, 0, candidate);
      if (best.length > limit) best.pop();
    }
    return best.map((b) => {
      const count = Math.round((b.weight / scale) * 1e6) / 1e6;
      return { itemId: b.itemId, count, score: count };
    });
  }

  /** The counts (as `related` scales them) of `itemId` with each of `others` it was met with; others are left out. */
  countsWith(itemId: string, others: Iterable<string>): Map<string, number> {
    const out = new Map<string, number>();
    const item = this.numbers.get(itemId);
    if (item === undefined) return out;
    const scale = this.recency && this.newestWeight > 0 ? this.newestWeight : 1;
    const row = this.pairs[item]!;
    for (const id of others) {
      const other = this.numbers.get(id);
      const weight = other === undefined ? undefined : row.get(other);
      if (weight !== undefined && weight > 0) out.set(id, Math.round((weight / scale) * 1e6) / 1e6);
    }
    return out;
  }

  /** Erasure: a group still open under this key is let go (pairs it already counted stay, without a person). */
  forget(groupKey: string): void {
    this.open.delete(groupKey);
  }

  /** Follows a profile merge: the anonymous profile's open visit continues as the nominative one's. */
  rename(fromKey: string, toKey: string): void {
    const group = this.open.get(fromKey);
    if (group === undefined || this.open.has(toKey)) return;
    this.open.delete(fromKey);
    this.open.set(toKey, group);
  }

  /** Snapshot chunks: item names (in number order), rows of partner counts, kept baskets, the newest weight, open groups. */
  *save(): Iterable<PairChunk> {
    for (let at = 0; at < this.names.length; at += 5_000) yield { names: this.names.slice(at, at + 5_000) };
    let rows: number[][] = [];
    let entries = 0;
    for (let item = 0; item < this.pairs.length; item++) {
      const row = this.pairs[item]!;
      if (row.size === 0) continue;
      const flat = [item];
      for (const [partner, weight] of row) flat.push(partner, weight);
      rows.push(flat);
      entries += row.size;
      if (entries >= 10_000) {
        yield { rows };
        rows = [];
        entries = 0;
      }
    }
    if (rows.length > 0) yield { rows };
    if (this.baskets !== undefined) {
      let baskets: SavedBasket[] = [];
      let size = 0;
      for (const basket of this.baskets.saved()) {
        baskets.push(basket);
        size += basket[2].length;
        if (size >= 10_000) {
          yield { baskets };
          baskets = [];
          size = 0;
        }
      }
      if (baskets.length > 0) yield { baskets };
    }
    let open: OpenChunk = [];
    for (const [key, group] of this.open.entries()) {
      open.push(group.basket === undefined ? [key, group.lastAt, group.items] : [key, group.lastAt, group.items, group.basket]);
      if (open.length >= 2_000) {
        yield { open, newestWeight: this.newestWeight };
        open = [];
      }
    }
    yield { open, newestWeight: this.newestWeight };
  }

  restore(chunk: PairChunk): void {
    if ('names' in chunk) {
      for (const name of chunk.names) this.numberOf(name);
    } else if ('rows' in chunk) {
      for (const [item, ...flat] of chunk.rows) {
        const row = this.pairs[item!]!;
        for (let at = 0; at < flat.length; at += 2) row.set(flat[at]!, flat[at + 1]!);
      }
    } else if ('baskets' in chunk) {
      this.baskets?.restore(chunk.baskets);
    } else {
      this.newestWeight = chunk.newestWeight;
      for (const [key, lastAt, items, basket] of chunk.open) {
        // An open order keeps growing its basket: the group and the kept basket share one list.
        const shared = basket === undefined ? undefined : this.baskets?.itemsOf(basket);
        this.open.set(key, shared === undefined ? { lastAt, items } : { lastAt, items: shared, basket });
      }
    }
  }

  private numberOf(itemId: string): number {
    let n = this.numbers.get(itemId);
    if (n !== undefined) return n;
    n = this.names.length;
    this.numbers.set(itemId, n);
    this.names.push(itemId);
    this.pairs.push(new Map());
    return n;
  }
}

/** One chunk of a snapshot of pair counts (PairCounts.save). */
export type PairChunk = { names: string[] } | { rows: number[][] } | { baskets: SavedBasket[] } | { open: OpenChunk; newestWeight: number };
type OpenChunk = Array<[key: string, lastAt: number, items: number[], basket?: number]>;

export class CoOccurrence {
  private readonly visits = new PairCounts({ recency: false });
  private readonly orders = new PairCounts({ recency: true, baskets: true });

  /** Snapshot chunks, visits first. */
  *save(): Iterable<[CoOccurrenceKind, PairChunk]> {
    for (const chunk of this.visits.save()) yield ['visit', chunk];
    for (const chunk of this.orders.save()) yield ['order', chunk];
  }

  restore([kind, chunk]: [CoOccurrenceKind, PairChunk]): void {
    (kind === 'visit' ? this.visits : this.orders).restore(chunk);
  }

  addVisitItem(profileId: string, itemId: string, at: number): void {
    this.visits.add(profileId, itemId, at, (group) => Math.abs(at - group.lastAt) >= VISIT_GAP_MS);
  }

  addOrderItem(orderKey: string, itemId: string, at: number): void {
    this.orders.add(orderKey, itemId, at, () => false);
  }

  /** A purchase sent without an order id: the shopper's purchases less than 30 minutes apart make one order. */
  addPurchaseWithoutOrder(profileId: string, itemId: string, at: number): void {
    this.orders.add(`\u0000profile:${profileId}`, itemId, at, (group) => Math.abs(at - group.lastAt) >= VISIT_GAP_MS);
  }

  related(kind: CoOccurrenceKind, itemId: string, limit: number, tieBreak?: (itemId: string) => number): RelatedItem[] {
    return (kind === 'visit' ? this.visits : this.orders).related(itemId, limit, tieBreak);
  }

  /** Items bought with the seeds, by greedy coverage of their latest orders (see basket-cover.ts). */
  coveringOrders(seedIds: readonly string[], limit: number, tieBreak?: (itemId: string) => number): RelatedItem[] {
    return this.orders.covering(seedIds, limit, tieBreak) ?? [];
  }

  countsWith(kind: CoOccurrenceKind, itemId: string, others: Iterable<string>): Map<string, number> {
    return (kind === 'visit' ? this.visits : this.orders).countsWith(itemId, others);
  }

  mergeProfile(from: string, into: string): void {
    this.visits.rename(from, into);
    this.orders.rename(`\u0000profile:${from}`, `\u0000profile:${into}`);
  }

  /** Erasure: the profile's open visit and open order-without-id are let go. */
  forgetProfile(profileId: string): void {
    this.visits.forget(profileId);
    this.orders.forget(`\u0000profile:${profileId}`);
  }
}
