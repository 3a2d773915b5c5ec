/**
 * Each index slot's position under a sort order (equal keys share a rank), computed once per order,
 * so a request sorts by comparing integers. Items lacking an attribute go last in either direction.
 * One per SearchIndex; the index marks its orders stale on every change and refreshes them off the
 * request path.
 */
import type { FilterValue } from '../../platform/filter-language/filter-tree.js';
import { fold } from './analyzer.js';

export interface SortKey {
  attribute: string;
  order: 'asc' | 'desc';
}

/** Sort orders whose ranks are kept; requests may name any order, so older ones are recomputed when asked again. */
const MAX_RANKED_ORDERS = 32;

/** What ranks are computed from: the index's slots and its per-slot attribute values. */
export interface RankSource {
  readonly docs: readonly unknown[];
  values(attribute: string): FilterValue[][];
}

export class SortRanks {
  private readonly ranks = new Map<string, { sortBy: readonly SortKey[]; ranks: Int32Array; stale: boolean }>();
  private readonly keys = new WeakMap<readonly SortKey[], string>();

  constructor(private readonly source: RankSource) {}

  rank(sortBy: readonly SortKey[]): Int32Array {
    // Configured orders are the same array at every request; a request's own sortBy is keyed by its text.
    let key = this.keys.get(sortBy);
    if (key === undefined) {
      key = JSON.stringify(sortBy);
      this.keys.set(sortBy, key);
    }
    let entry = this.ranks.get(key);
    if (entry === undefined) {
      // Orders come from requests: keep the most recently added few, each is a catalog-sized array.
      if (this.ranks.size >= MAX_RANKED_ORDERS) this.ranks.delete(this.ranks.keys().next().value!);
      this.ranks.set(key, (entry = { sortBy, ranks: this.compute(sortBy), stale: false }));
    } else if (entry.stale) {
      entry.ranks = this.compute(sortBy);
      entry.stale = false;
    }
    return entry.ranks;
  }

  /** The index changed: every order is recomputed at its next use or refresh. */
  markStale(): void {
    for (const entry of this.ranks.values()) entry.stale = true;
  }

  /** Recomputes the stale orders now. */
  refresh(): void {
    for (const entry of this.ranks.values()) {
      if (!entry.stale) continue;
      entry.ranks = this.compute(entry.sortBy);
      entry.stale = false;
    }
  }

  private compute(sortBy: readonly SortKey[]): Int32Array {
    const keys = sortBy.map(({ attribute, order }) => {
      const column = this.source.values(attribute);
      // Strings compare folded; folding once per slot keeps the sort from folding at every comparison.
      const folded = column.map((values) => (typeof values[0] === 'string' ? fold(values[0]) : values[0]));
      return { folded, sign: order === 'desc' ? -1 : 1 };
    });
    const compare = (a: number, b: number): number => {
      for (const { folded, sign } of keys) {
        const x = folded[a];
        const y = folded[b];
        if (x === undefined || y === undefined) {
          if (x !== y) return x === undefined ? 1 : -1;
          continue;
        }
        const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x) < String(y) ? -1 : String(x) > String(y) ? 1 : 0;
        if (c !== 0) return sign * c;
      }
      return 0;
    };
    const order = this.source.docs.map((_, slot) => slot).sort((a, b) => compare(a, b) || a - b);
    const ranks = new Int32Array(this.source.docs.length);
    let rank = 0;
    for (let i = 0; i < order.length; i++) {
      if (i > 0 && compare(order[i - 1]!, order[i]!) !== 0) rank = i;
      ranks[order[i]!] = rank;
    }
    return ranks;
  }
}
