/**
 * Fast path of `JSON.stringify` of the answer (masked by platform/response-mask.ts): must equal it (response-text.test.ts).
 *
 * The search API's answers written as JSON text, with the pieces that repeat from answer to answer
 * made once: a cached answer's facets (the same array for every request the cache answers), and the
 * masked JSON of a product view per response mask. The text is byte for byte what `JSON.stringify`
 * gives for the same object (response-text.test.ts compares them); product views' unmasked texts are
 * search-response.ts `hitJson`'s.
 */
import type { ExperimentStamp, SearchFacet, SearchItem, SearchResponse, SuggestGroup } from '@discovery-kit/protocol';
import type { ProductView } from '../../catalog/product-view.js';
import { highlightProduct, type HighlightTerms } from './highlight.js';
import { hitJson } from './search-response.js';
import { applyMask, type MaskTree } from '../../../platform/response-mask.js';

/**
 * Where a facet list keeps its text: a cached answer hands the same list to every request it answers.
 * A property of the list, not a WeakMap entry: every uncached search makes a new list, and a WeakMap
 * grows with each until a full collection clears the dead ones.
 */
const FACETS_TEXT = Symbol('facets text');

/** A facet list's text, made once per list. */
export function facetsJson(facets: readonly SearchFacet[]): string {
  const kept = (facets as { [FACETS_TEXT]?: string })[FACETS_TEXT];
  if (kept !== undefined) return kept;
  const text = JSON.stringify(facets);
  // Not enumerable: the list compares and copies as it did.
  Reflect.defineProperty(facets, FACETS_TEXT, { value: text });
  return text;
}

/**
 * `JSON.stringify` of a search answer's metadata, in three parts around its facets' JSON (`facetsJson`),
 * given as text or as UTF-8 (a search thread's answer): search-api.ts writes the parts as they are.
 */
export function metadataParts<F extends string | Uint8Array>(metadata: Omit<SearchResponse['metadata'], 'facets'>, facets: F): [string, F, string] {
  const { count, exactCount, time, token, url, offset, limit, ...tail } = metadata;
  const head = JSON.stringify({ count, exactCount, time, token, url, offset, limit });
  const rest = JSON.stringify(tail);
  return [`${head.slice(0, -1)},"facets":`, facets, rest === '{}' ? '}' : `,${rest.slice(1)}`];
}

/**
 * A search answer's body in parts, `{"items":…,"metadata":{…}}` as `JSON.stringify` writes it: the items'
 * and the facets' JSON as text (the main thread) or as UTF-8 (a search thread, json-bytes.ts `answerBody`).
 */
export function answerParts<F extends string | Uint8Array>(items: F, metadata: Omit<SearchResponse['metadata'], 'facets'>, facets: F): (string | F)[] {
  return ['{"items":', items, ',"metadata":', ...metadataParts(metadata, facets), '}'];
}

/** What the main thread decides of a search answer's metadata before the search runs, wherever it runs. */
export interface AnswerHead {
  /** The answer's unique id (`metadata.id`), also the query analytics' search id. */
  id: string;
  url: string;
  defaultConfigurationId: string;
  /** When the request arrived, in milliseconds since the Unix epoch (`performance.timeOrigin + performance.now()`): `metadata.time` counts from it, in either thread. */
  startedAt: number;
  /** The experiment that served this answer, when one did (`metadata.experiment`). */
  experiment?: ExperimentStamp;
}

/** A search answer's metadata (without its facets), in the order the interface's examples show it. */
export function answerMetadata(
  found: { count: number; exact: boolean; corrected: string | undefined; relaxed: boolean; personalized?: boolean },
  request: { token: string; offset: number; limit: number; configurationId: string },
  head: AnswerHead,
): Omit<SearchResponse['metadata'], 'facets'> {
  return {
    count: found.count,
    exactCount: found.exact,
    time: Math.max(0, Math.round((performance.timeOrigin + performance.now() - head.startedAt) * 1000) / 1000),
    token: request.token,
    url: head.url,
    offset: request.offset,
    limit: request.limit,
    id: head.id,
    configurationId: request.configurationId,
    defaultConfigurationId: head.defaultConfigurationId,
    ...(found.corrected === undefined ? {} : { correctedQuery: found.corrected }),
    ...(found.relaxed ? { relaxed: true as const } : {}),
    ...(head.experiment === undefined ? {} : { experiment: head.experiment }),
    ...(found.personalized === true ? { personalized: true as const } : {}),
  };
}

/** Masked product texts kept at most, in bytes of text: past it the least recently added views' go first. */
const MASKED_BUDGET = 8 * 1024 * 1024;

/**
 * Product views' masked JSON, per view and mask text (the same text always parses to the same mask).
 * Bounded by bytes, not entries: a caller cycling masks over the whole catalog makes the oldest go.
 */
export class MaskedTexts {
  private readonly views = new Map<ProductView, Map<string, string>>();
  private bytes = 0;

  constructor(private readonly budget = MASKED_BUDGET) {}

  get(view: ProductView, maskText: string, make: () => string): string {
    let texts = this.views.get(view);
    const known = texts?.get(maskText);
    if (known !== undefined) return known;
    const text = make();
    if (texts === undefined) this.views.set(view, (texts = new Map()));
    texts.set(maskText, text);
    this.bytes += 2 * (text.length + maskText.length);
    for (const [oldest, kept] of this.views) {
      if (this.bytes <= this.budget || oldest === view) break;
      for (const [mask, value] of kept) this.bytes -= 2 * (value.length + mask.length);
      this.views.delete(oldest);
    }
    return text;
  }

  /** Bytes of text kept (tests). */
  get size(): number {
    return this.bytes;
  }
}

/** `JSON.stringify(applyMask(hit, mask))`, the masked product view's text made once per view and mask. */
export function maskedHitJson(hit: SearchItem, mask: MaskTree, maskText: string, memo: MaskedTexts): string {
  if (hit.product === undefined || hit.redirect !== undefined) return JSON.stringify(applyMask(hit, mask));
  const wildcard = mask.get('*');
  const parts: string[] = [];
  for (const [name, value] of Object.entries(hit)) {
    const sub = mask.get(name) ?? wildcard;
    if (sub === undefined) continue;
    let text: string | undefined;
    if (name === 'product') text = memo.get(value as ProductView, maskText, () => JSON.stringify(applyMask(value, sub)));
    else {
      const masked = applyMask(value, sub);
      text = masked === undefined ? undefined : JSON.stringify(masked);
    }
    if (text !== undefined) parts.push(`${JSON.stringify(name)}:${text}`);
  }
  return `{${parts.join(',')}}`;
}

/**
 * A search answer's `items` array as text: each item with its highlights (`fields`: the product fields
 * asked for, none for no highlighting), unmasked through each view's kept JSON or masked per mask.
 * Highlights are per request (cached answers are shared), and only for the page's items.
 */
export function itemsJson(items: readonly SearchItem[], fields: readonly string[], terms: HighlightTerms, mask: MaskTree | undefined, maskText: string, memo: MaskedTexts): string {
  const shown = highlighted(items, fields, terms);
  const texts = mask === undefined ? shown.map(hitJson) : shown.map((item) => maskedHitJson(item, mask, maskText, memo));
  return `[${texts.join(',')}]`;
}

/** Suggest's `groups` array as text, each item unmasked through its view's kept JSON or masked per mask. */
export function groupsJson(groups: readonly SuggestGroup[], mask: MaskTree | undefined, maskText: string, memo: MaskedTexts): string {
  const itemText = mask === undefined ? hitJson : (item: SearchItem) => maskedHitJson(item, mask, maskText, memo);
  return `[${groups.map((g) => `{"value":${JSON.stringify(g.value)},"count":${g.count},"items":[${g.items.map(itemText).join(',')}]}`).join(',')}]`;
}

/** The page's items with the highlights of `fields` (none: the items as they are). */
export function highlighted(items: readonly SearchItem[], fields: readonly string[], terms: HighlightTerms): readonly SearchItem[] {
  return fields.length === 0 ? items : items.map((item) => (item.product === undefined ? item : { ...item, highlights: highlightProduct(item.product, fields, terms) }));
}
