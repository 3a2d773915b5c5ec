/**
 * How text becomes words, shared by indexing and querying so both sides agree: FlexSearch's own
 * Encoder folds case and accents (NFKD, marks dropped) and splits on anything not a letter or digit.
 */
import { Encoder } from 'flexsearch';

/**
 * Letter deduplication ("coffee" → "cofe") and numeric triplets ("12345" → "123 45") are off: typo
 * correction works on the words as written, and a model number must stay one word. The encoder's
 * cache is off because it clears itself on a timer, which would keep a process (or a test) alive.
 */
export const encoder = new Encoder({ normalize: true, dedupe: false, numeric: false, cache: false });

/** The folded words of a text, in order, without repeats. */
export function words(text: string): string[] {
  return [...new Set(encoder.encode(text))];
}

/** Case- and accent-folded text, for comparing facet values and sorting strings. */
export function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}
