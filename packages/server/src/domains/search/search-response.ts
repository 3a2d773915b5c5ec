/**
 * The last step of the query pipeline: matches shaped as the search API answers them — hits with
 * their product views, suggest's groups, and a hit's JSON text.
 */
import type { SearchItem, SuggestGroup } from '@discovery-kit/protocol';
import { toProductView, type ProductView } from '../catalog/product-view.js';
import type { StoredItem } from '../catalog/types.js';
import { fold } from './analyzer.js';
import { attributeValues } from './attribute-values.js';
import type { SearchDoc } from './search-index.js';

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

/**
 * Suggest's groups: the matches split by one attribute's values (only `values` when given, in that
 * order; otherwise the most frequent first), each with its full count and its first `size` items.
 */
export function groupMatches(
  tenantId: string,
  version: number,
  ordered: readonly { doc: SearchDoc; item: StoredItem; score: number }[],
  groupBy: { attribute: string; size: number; values: string[] },
): SearchGroup[] {
  const groups = new Map<string, SearchGroup>();
  const wanted = new Map(groupBy.values.map((v) => [fold(v), v]));
  for (const value of groupBy.values) groups.set(fold(value), { value, count: 0, items: [] });
  // Folding (Unicode normalisation, a regular expression) costs more than the rest of an item's step,
  // and a grouping attribute has few distinct values over thousands of matches: each is folded once.
  const folded = new Map<string, string>();
  for (const { doc, item, score } of ordered) {
    const values = attributeValues(item, groupBy.attribute);
    for (let v = 0; v < values.length; v++) {
      const raw = String(values[v]);
      // A value an item lists twice counts once.
      if (v > 0 && values.slice(0, v).some((earlier) => String(earlier) === raw)) continue;
      let k = folded.get(raw);
      if (k === undefined) folded.set(raw, (k = fold(raw)));
      if (wanted.size > 0 && !wanted.has(k)) continue;
      let group = groups.get(k);
      if (group === undefined) groups.set(k, (group = { value: raw, count: 0, items: [] }));
      group.count++;
      if (group.items.length < groupBy.size) group.items.push(hitOf(tenantId, version, doc, score));
    }
  }
  const out = [...groups.values()];
  return wanted.size > 0 ? out : out.sort((a, b) => b.count - a.count || a.value.localeCompare(b.value));
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
  const { product } = hit;
  // A product hit is exactly hitOf's shape: four keys (strings, a finite score) and then `product`.
  if (product === undefined || hit.redirect !== undefined || typeof hit.id !== 'string' || typeof hit.kind !== 'string' || typeof hit.context !== 'string' || !Number.isFinite(hit.score)) {
    return JSON.stringify(hit);
  }
  let text = viewTexts.get(product);
  if (text === undefined) viewTexts.set(product, (text = JSON.stringify(product)));
  const highlights = hit.highlights === undefined ? '' : `,"highlights":${JSON.stringify(hit.highlights)}`;
  return `{"id":${JSON.stringify(hit.id)},"score":${JSON.stringify(hit.score)},"kind":${JSON.stringify(hit.kind)},"context":${JSON.stringify(hit.context)},"product":${text}${highlights}}`;
}

/** Scores travel with three decimals. */
export function roundScore(score: number): number {
  return Math.round(score * 1000) / 1000;
}
