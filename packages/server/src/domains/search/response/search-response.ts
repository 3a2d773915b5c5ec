/**
 * The last step of the query pipeline: matches shaped as the search API answers them — hits with
 * their product views, suggest's groups, and a hit's JSON text.
 */
import type { SearchItem, SuggestGroup } from '@discovery-kit/protocol';
import { toProductView, type ProductView } from '../../catalog/product-view.js';
import { fold } from '../index/analyzer.js';
import type { EntryOrder } from '../order/ranking.js';
import type { SearchDoc, SearchIndex } from '../index/search-index.js';

/** A hit as the search API answers it: the protocol's wire type, so shaping cannot drift from it. */
export type SearchHit = SearchItem;

/** One of suggest's groups (the protocol's wire type). */
export type SearchGroup = SuggestGroup;

export function hitOf(tenantId: string, version: number, doc: SearchDoc, score: number): SearchHit {
  const { item } = doc;
  // Building a product view costs more than finding the item; the same items come back page after page.
  doc.view ??= toProductView(item, { tenantId, version });
  return { id: item.id, score: roundScore(score), kind: item.kind, context: item.context, product: doc.view };
}

/** What suggest groups by: one attribute's values (only `values` when given, in that order), `size` items each. */
export interface GroupBy {
  attribute: string;
  size: number;
  values: string[];
}

/** A group while the matches are visited: its count, its pinned items, and a heap of its best positions. */
interface GroupState {
  value: string;
  count: number;
  head: { doc: number; score: number }[];
  /** Positions into the match arrays, the worst of the kept ones on top (see `keep`). */
  heap: number[];
  /**
   * With `size` 0 (no items kept, so no first item to read the name from): the first member in result
   * order among the unpinned ones, and the value it holds (-1: none yet).
   */
  first: number;
  firstValue: string;
  /** Made from a pinned item, or named by `values`: its value is settled. */
  settled: boolean;
}

/**
 * Suggest's groups: the matches split by one attribute's values (only `values` when given, in that
 * order; otherwise the most frequent first), each with its full count and its first `size` items in
 * result order: the rule's pinned items (`head`, which come first), then the matches in `order`.
 *
 * Without sorting the matches: each group keeps its best `size` positions in a bounded heap, so a
 * broad query costs one pass and a comparison per member, where sorting all matches to walk them in
 * order cost a comparator call per match and level (most of a suggest request). The answer is the one
 * the sorted walk gave, group values included (a group is named as its first member in order spells it).
 */
export function groupInOrder(
  tenantId: string,
  version: number,
  index: SearchIndex,
  head: readonly { doc: number; score: number }[],
  match: {
    docs: Int32Array;
    scores: Float32Array;
    length: number;
    order: EntryOrder;
    pinned: ReadonlySet<number>;
    /** When the order compares scores first (higher first): lets a member be dropped without calling `order`. */
    leading?: Float32Array;
  },
  groupBy: GroupBy,
): SearchGroup[] {
  const { docs, scores, length, order, pinned, leading } = match;
  // The attribute's value ids per slot (16-bit, side by side): reading each slot's value list and its
  // strings instead cost three cache misses a match.
  const column = index.groupColumn(groupBy.attribute);
  const groups = new Map<string, GroupState>();
  const wanted = new Set<string>();
  const make = (value: string, settled: boolean): GroupState => ({ value, count: 0, head: [], heap: [], first: -1, firstValue: value, settled });
  for (const value of groupBy.values) {
    const key = fold(value);
    wanted.add(key);
    if (!groups.has(key)) groups.set(key, make(value, true));
  }
  const size = groupBy.size;
  if (column !== undefined) {
    const { pairs, more, labels } = column;
    const extra = more.size > 0;
    // Each value id's group (null: one `values` leaves out), found once per request: folding (Unicode
    // normalisation, a regular expression) costs more than the rest of a member's step.
    const groupOfId: (GroupState | null | undefined)[] = [];
    const groupFor = (id: number, settled: boolean): GroupState | null => {
      let group = groupOfId[id];
      if (group !== undefined) return group;
      const raw = labels[id]!;
      const key = fold(raw);
      if (wanted.size > 0 && !wanted.has(key)) group = null;
      else {
        group = groups.get(key) ?? null;
        if (group === null) groups.set(key, (group = make(raw, settled)));
      }
      groupOfId[id] = group;
      return group;
    };
    /** Counts member `i` (a position of the matches) in the group of value `id`, and offers it to the group's heap. */
    const join = (id: number, i: number): void => {
      const group = groupFor(id, false);
      if (group === null) return;
      group.count++;
      if (size > 0) keep(group.heap, size - group.head.length, i, order, leading);
      else if (!group.settled && (group.first < 0 || order(i, group.first) < 0)) {
        // No items kept: the group's first member in order is tracked for its name alone.
        group.first = i;
        group.firstValue = labels[id]!;
      }
    };
    for (const item of head) {
      for (const id of column.idsOf(item.doc)) {
        const group = groupFor(id, true);
        if (group === null) continue;
        group.count++;
        if (group.head.length < size) group.head.push(item);
      }
    }
    for (let i = 0; i < length; i++) {
      const slot = docs[i]!;
      if (pinned.size > 0 && pinned.has(slot)) continue;
      const one = pairs[2 * slot]!;
      if (one < 0) continue;
      join(one, i);
      const two = pairs[2 * slot + 1]!;
      if (two < 0) continue;
      join(two, i);
      if (extra) for (const id of more.get(slot) ?? []) join(id, i);
    }
    // Each group's kept items in order, once; a group made by matches is named as its first member in
    // order spells it: its first kept item.
    for (const group of groups.values()) {
      group.heap.sort(order);
      if (group.settled || group.heap.length === 0) continue;
      const first = docs[group.heap[0]!]!;
      const id = column.idsOf(first).find((value) => groupOfId[value] === group);
      if (id !== undefined) group.firstValue = labels[id]!;
    }
  }
  const out = [...groups.values()].map((group) => ({
    value: group.settled ? group.value : group.firstValue,
    count: group.count,
    items: [
      ...group.head.map(({ doc, score }) => hitOf(tenantId, version, index.docs[doc]!, score)),
      ...group.heap.map((i) => hitOf(tenantId, version, index.docs[docs[i]!]!, scores[i]!)),
    ],
  }));
  return wanted.size > 0 ? out : out.sort((a, b) => b.count - a.count || a.value.localeCompare(b.value));
}

/** Adds position `i` to a bounded heap of at most `k` positions, the worst in `order` on top. */
function keep(heap: number[], k: number, i: number, order: EntryOrder, leading: Float32Array | undefined): void {
  if (k <= 0) return;
  if (heap.length < k) {
    heap.push(i);
    for (let at = heap.length - 1; at > 0; ) {
      const parent = (at - 1) >> 1;
      if (order(heap[at]!, heap[parent]!) <= 0) break;
      [heap[at], heap[parent]] = [heap[parent]!, heap[at]!];
      at = parent;
    }
    return;
  }
  // A lower score than the worst kept one is dropped on that number alone when scores lead the order.
  if (leading !== undefined && leading[i]! < leading[heap[0]!]!) return;
  if (order(i, heap[0]!) >= 0) return;
  heap[0] = i;
  for (let at = 0; ; ) {
    const left = 2 * at + 1;
    const right = left + 1;
    let worst = at;
    if (left < heap.length && order(heap[left]!, heap[worst]!) > 0) worst = left;
    if (right < heap.length && order(heap[right]!, heap[worst]!) > 0) worst = right;
    if (worst === at) break;
    [heap[at], heap[worst]] = [heap[worst]!, heap[at]!];
    at = worst;
  }
}

/**
 * Each product view's JSON text, made at its first answer. A memo, not state: a view is never modified
 * once built (a changed item gets a new view object), so its text stays right, and the WeakMap lets it
 * go with the view. Shared by every search service of the process, which is what makes it pay.
 */
const viewTexts = new WeakMap<ProductView, string>();

/**
 * A hit as JSON text, the same text `JSON.stringify(hit)` gives: its product view's text is made once and
 * spliced in, since the same views come back request after request and are most of a response's bytes.
 */
export function hitJson(hit: SearchHit): string {
  const view = hitView(hit);
  if (view === undefined) return JSON.stringify(hit);
  return `${hitHead(hit)}${view}${hitTail(hit)}`;
}

/**
 * The kept text of a hit's product view, or undefined when the hit is not exactly hitOf's shape (four
 * keys: strings and a finite score, then `product`), whose text is then `JSON.stringify(hit)`.
 */
export function hitView(hit: SearchHit): string | undefined {
  const { product } = hit;
  if (product === undefined || hit.redirect !== undefined || typeof hit.id !== 'string' || typeof hit.kind !== 'string' || typeof hit.context !== 'string' || !Number.isFinite(hit.score)) {
    return undefined;
  }
  let text = viewTexts.get(product);
  if (text === undefined) viewTexts.set(product, (text = JSON.stringify(product)));
  return text;
}

/** A hitOf-shaped hit's text before its product view's (`hitView`). */
export function hitHead(hit: SearchHit): string {
  return `{"id":${JSON.stringify(hit.id)},"score":${JSON.stringify(hit.score)},"kind":${JSON.stringify(hit.kind)},"context":${JSON.stringify(hit.context)},"product":`;
}

/** A hitOf-shaped hit's text after its product view's. */
export function hitTail(hit: SearchHit): string {
  const learned = hit.learned === true ? ',"learned":true' : '';
  return hit.highlights === undefined ? `${learned}}` : `,"highlights":${JSON.stringify(hit.highlights)}${learned}}`;
}

/** Scores travel with three decimals. */
export function roundScore(score: number): number {
  return Math.round(score * 1000) / 1000;
}
