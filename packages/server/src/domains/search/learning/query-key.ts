/**
 * The key learning files a search under. A text query is its words as analysed: folded case and
 * accents, spacing, plural and other inflected forms (the configuration language's stemmer), word
 * order, and the typo correction the engine made, all give one key. A browse request (no words, what
 * a category page sends) is keyed by its facet selections and filter instead.
 */
import { fold, words } from '../index/analyzer.js';
import { stemmerOf, type Language } from '../index/language.js';

/** A key is at most this long: a 1,000-character query costs no more memory than a short one. */
export const MAX_KEY_CHARS = 200;

/** Prefix of the keys of browse requests; a text key never starts with it (its words hold no colon). */
export const BROWSE_PREFIX = 'browse:';

/** The key of a text query, from its words as typed or, when the engine corrected them, as corrected. */
export function textKey(query: string, language: Language): string {
  const stem = stemmerOf(language);
  return [...new Set(words(query).map((word) => stem(word)))].sort().join(' ').slice(0, MAX_KEY_CHARS);
}

/** The key of a browse request: the ticked facet values (folded, sorted) and the filter text, spaces collapsed. */
export function browseKey(facets: readonly { id: string; values: readonly string[] }[], filter: string | undefined): string {
  const selected = facets
    .filter((facet) => facet.values.length > 0)
    .map((facet) => `${facet.id}=${[...new Set(facet.values.map(fold))].sort().join('|')}`)
    .sort();
  const text = filter?.trim().replace(/\s+/g, ' ') ?? '';
  if (text !== '') selected.push(`filter=${text}`);
  return `${BROWSE_PREFIX}${selected.join('&')}`.slice(0, MAX_KEY_CHARS);
}
