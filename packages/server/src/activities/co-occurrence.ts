/**
 * Item-to-item co-occurrence: items seen in the same visit (same profile, less than 30 minutes
 * between activities) and items bought in the same order. Visits and orders in progress are kept
 * in bounded maps; pairs are counted the first time both items meet in one visit or order.
 */
import { BoundedMap } from './bounded-map.js';

export const VISIT_GAP_MS = 30 * 60 * 1000;
/** Items of one visit or order that pair with later ones: bounds the work per activity. */
const MAX_GROUP_ITEMS = 50;
const MAX_OPEN_GROUPS = 50_000;

/**
 * Partners kept per item: a popular item meets most of the catalog over time, and each partner costs
 * memory. Past twice this, the row keeps its MAX_RELATED strongest partners (ties: the newest first
 * kept); a pruned partner that meets the item again starts counting from one.
 */
export const MAX_RELATED = 200;

function prune(row: Map<string, number>): void {
  const kept = [...row].sort((x, y) => y[1] - x[1]).slice(0, MAX_RELATED);
  row.clear();
  for (const [partner, count] of kept) row.set(partner, count);
}

export type CoOccurrenceKind = 'visit' | 'order';

interface Group {
  lastAt: number;
  items: string[];
}

export interface RelatedItem {
  itemId: string;
  count: number;
}

class PairCounts {
  private readonly pairs = new Map<string, Map<string, number>>();
  private readonly open = new BoundedMap<string, Group>(MAX_OPEN_GROUPS);

  /** Adds `itemId` to the group `groupKey`; `startsNew` says when the group's earlier items no longer count. */
  add(groupKey: string, itemId: string, at: number, startsNew: (group: Group) => boolean): void {
    let group = this.open.get(groupKey);
    if (group === undefined || startsNew(group)) {
      group = { lastAt: at, items: [] };
      this.open.set(groupKey, group);
    }
    group.lastAt = at;
    if (group.items.includes(itemId)) return;
    for (const other of group.items) {
      this.bump(itemId, other);
      this.bump(other, itemId);
    }
    if (group.items.length < MAX_GROUP_ITEMS) group.items.push(itemId);
  }

  related(itemId: string, limit: number): RelatedItem[] {
    return [...(this.pairs.get(itemId) ?? [])]
      .map(([other, count]) => ({ itemId: other, count }))
      .sort((a, b) => b.count - a.count || a.itemId.localeCompare(b.itemId))
      .slice(0, limit);
  }

  /** Follows a profile merge: the anonymous profile's open visit continues as the nominative one's. */
  rename(fromKey: string, toKey: string): void {
    const group = this.open.get(fromKey);
    if (group === undefined || this.open.has(toKey)) return;
    this.open.delete(fromKey);
    this.open.set(toKey, group);
  }

  private bump(a: string, b: string): void {
    let row = this.pairs.get(a);
    if (row === undefined) this.pairs.set(a, (row = new Map()));
    row.set(b, (row.get(b) ?? 0) + 1);
    if (row.size > 2 * MAX_RELATED) prune(row);
  }
}

export class CoOccurrence {
  private readonly visits = new PairCounts();
  private readonly orders = new PairCounts();

  addVisitItem(profileId: string, itemId: string, at: number): void {
    this.visits.add(profileId, itemId, at, (group) => Math.abs(at - group.lastAt) >= VISIT_GAP_MS);
  }

  addOrderItem(orderKey: string, itemId: string, at: number): void {
    this.orders.add(orderKey, itemId, at, () => false);
  }

  related(kind: CoOccurrenceKind, itemId: string, limit: number): RelatedItem[] {
    return (kind === 'visit' ? this.visits : this.orders).related(itemId, limit);
  }

  mergeProfile(from: string, into: string): void {
    this.visits.rename(from, into);
  }
}
