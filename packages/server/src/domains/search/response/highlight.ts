/**
 * Which parts of a product's text answered the query, as half-open [start, end) UTF-16 offsets into
 * the string the product carries. Offsets rather than markup: the element escapes the text and wraps
 * the ranges itself, so catalog text never becomes HTML.
 */
import { fold } from '../index/analyzer.js';

export interface HighlightTerms {
  /** Catalog terms the query ran (as typed, other forms, synonyms, compounds, corrections): a word starting with one is marked whole. */
  terms: string[];
  /** The last word as typed, likely unfinished: a word it only begins is marked for the typed part ("lan" in "Lantern"). */
  typing: string | undefined;
}

export type Ranges = [number, number][];

/** Letters and digits, as the analyzer splits words. */
const WORD = /[\p{L}\p{N}]+/gu;
/** Text longer than this is not scanned: a description may be long, and highlights are per request. */
const MAX_SCANNED = 5_000;

export function highlightText(text: string, query: HighlightTerms): Ranges {
  const out: Ranges = [];
  if (query.terms.length === 0 && query.typing === undefined) return out;
  const whole = new Set(query.terms);
  for (const match of text.slice(0, MAX_SCANNED).matchAll(WORD)) {
    const raw = match[0];
    const start = match.index;
    const word = fold(raw);
    let end = -1;
    if (whole.has(word) || query.terms.some((term) => word.startsWith(term) && term.length >= 2 && term !== query.typing)) end = start + raw.length;
    else if (query.typing !== undefined && word.startsWith(query.typing)) {
      // Folding kept the length (no ligature expanded): the typed part maps onto the raw text one to one.
      end = start + (word.length === raw.length ? query.typing.length : raw.length);
    }
    if (end < 0) continue;
    const previous = out[out.length - 1];
    if (previous !== undefined && previous[1] === start) previous[1] = end;
    else out.push([start, end]);
  }
  return out;
}

/** Highlights of the asked fields whose value in `product` is a string; fields without a match are left out. */
export function highlightProduct(product: Record<string, unknown>, fields: readonly string[], query: HighlightTerms): Record<string, Ranges> {
  const out: Record<string, Ranges> = {};
  for (const field of fields) {
    const value = product[field];
    if (typeof value !== 'string') continue;
    const ranges = highlightText(value, query);
    if (ranges.length > 0) out[field] = ranges;
  }
  return out;
}
