/** The search API as the search box and results use it: POST /search and POST /search/autocomplete, answers read defensively. */
import type { AutocompleteRequest, AutocompleteResponse, AutocompleteSuggestion, HighlightRange, SearchFacet, SearchItem, SearchRequest, SearchResponse } from '@discovery-kit/protocol';
import { asArray, asRecord, asText, requestJson } from './api.js';
import { apiUrl, toolkitConfig } from './config.js';
import { toProductCard } from './product-card.js';
import type { ProductCard } from './product-card.js';
import { safeLinkUrl } from './safe-url.js';
import { cleanRanges } from './highlight.js';
import { readProfileCookie } from '@discovery-kit/tracker';
import { pageLang } from './page-lang.js';

/** Only what a card shows travels; the redirect item is kept whole, and the title's matched words. */
const CARD_MASK = 'id,product(title,url,photo,price,currency),redirect,highlights(title)';

export interface SearchEndpoint {
  apiBase?: string | null;
  /** The element's `search-token`, else the configured one. */
  searchToken?: string | null;
}

/** What the elements ask of a search (the wire request's options), and whether to leave facet counts out. */
export type SearchOptions = Pick<NonNullable<SearchRequest['options']>, 'offset' | 'limit' | 'sortBy' | 'facets' | 'filter' | 'asYouType'> & {
  /** Leave out facet counts (the search box does not show them). */
  withoutFacets?: boolean;
  /** Run the words as typed, without typo correction or word splits. */
  asTyped?: boolean;
};

export type FacetValue = SearchFacet['values'][number];

/** A facet as the results show it: the wire facet's id, title (its id when the server sent none) and values. */
export type Facet = Pick<SearchFacet, 'id' | 'title' | 'values'>;

/** A wire type as read from an untrusted answer: its field names are checked, each value still has to be. */
type Unchecked<T> = { [K in keyof T]?: unknown };

export interface SearchAnswer {
  /** Send as `sourceId` of the activities it leads to. */
  id: string;
  count: number;
  cards: ProductCard[];
  /** A merchandising redirect for this query (its URL already checked). */
  redirect?: { name: string; url: string };
  facets: Facet[];
  /** The query the server ran instead of the typed one (a corrected typo, split or joined words). */
  correctedQuery?: string;
  /** No product matched every word: these match some of them. */
  relaxed: boolean;
}

export interface Suggestion {
  text: string;
  /** The part matching what was typed. */
  marks: HighlightRange[];
}

/**
 * The shopper (the profile cookie, as `session.sessionId`, the published client's shape) and the page's
 * language (the `locale` variable), when known. A running experiment then serves this shopper the same
 * variant in search as in widgets (docs/experiments.md), and their own interests shape the order (docs/search.md).
 */
function shopperContext(locale?: string): Pick<SearchRequest, 'context'> {
  const profileId = readProfileCookie();
  const context: NonNullable<SearchRequest['context']> = {
    ...(profileId ? { session: { sessionId: profileId } } : {}),
    ...(locale === undefined ? {} : { contextVariables: [{ name: 'locale', value: { stringValue: locale } }] }),
  };
  return Object.keys(context).length > 0 ? { context } : {};
}

function tokenOf(endpoint: SearchEndpoint): string {
  const token = endpoint.searchToken || toolkitConfig().searchToken;
  if (!token) throw new Error('No search token: set search-token or configureToolkit({searchToken})');
  return token;
}

export async function search(endpoint: SearchEndpoint, query: string, options: SearchOptions, signal?: AbortSignal): Promise<SearchAnswer> {
  const { withoutFacets, asTyped, ...rest } = options;
  const disable = [...(withoutFacets ? [{ name: 'facet' as const }] : []), ...(asTyped ? [{ name: 'correction' as const }] : [])];
  // The page's language as the `locale` context variable: a shop serving it answers in it (docs/search.md).
  const locale = endpoint instanceof Element ? pageLang(endpoint) : undefined;
  const body: SearchRequest = {
    token: tokenOf(endpoint),
    query,
    options: { ...rest, highlight: true, customResponseMask: CARD_MASK, ...(disable.length > 0 ? { disable } : {}) },
    ...shopperContext(locale),
  };
  const answer: Unchecked<SearchResponse> = asRecord(await requestJson(apiUrl(endpoint.apiBase, '/search'), { body, signal }));
  const metadata: Unchecked<SearchResponse['metadata']> = asRecord(answer.metadata);
  const cards: ProductCard[] = [];
  let redirect: SearchAnswer['redirect'];
  for (const entry of asArray(answer.items)) {
    const item: Unchecked<SearchItem> = asRecord(entry);
    const target: Unchecked<NonNullable<SearchItem['redirect']>> = asRecord(item.redirect);
    const url = safeLinkUrl(target.url);
    if (url && !redirect) redirect = { name: asText(target.name) || url, url };
    const card = item.product === undefined ? undefined : toProductCard(item.product, asText(item.id));
    if (card) {
      const marks = cleanRanges(asRecord(item.highlights).title, card.title.length);
      cards.push(marks.length > 0 ? { ...card, titleMarks: marks } : card);
    }
  }
  const facets = asArray(metadata.facets).map((entry) => {
    const facet: Unchecked<SearchFacet> = asRecord(entry);
    const values = asArray(facet.values).map((value): FacetValue => {
      const { value: text, count, selected }: Unchecked<FacetValue> = asRecord(value);
      return { value: asText(text), count: typeof count === 'number' ? count : 0, selected: selected === true };
    });
    return { id: asText(facet.id), title: asText(facet.title) || asText(facet.id), values };
  });
  const count = typeof metadata.count === 'number' ? metadata.count : cards.length;
  const corrected = asText(metadata.correctedQuery).trim();
  return {
    id: asText(metadata.id),
    count,
    cards,
    facets,
    relaxed: metadata.relaxed === true,
    ...(corrected && corrected !== query.trim() ? { correctedQuery: corrected } : {}),
    ...(redirect ? { redirect } : {}),
  };
}

/** Earlier shoppers' queries that start with `query`, most frequent first. */
export async function autocomplete(endpoint: SearchEndpoint, query: string, count: number, signal?: AbortSignal): Promise<Suggestion[]> {
  const body: AutocompleteRequest = { token: tokenOf(endpoint), query, options: { numberOfSuggestions: Math.min(20, Math.max(1, count)) }, ...shopperContext() };
  const answer: Unchecked<AutocompleteResponse> = asRecord(await requestJson(apiUrl(endpoint.apiBase, '/search/autocomplete'), { body, signal }));
  return asArray(answer.suggestions)
    .map((entry) => {
      const suggestion: Unchecked<AutocompleteSuggestion> = asRecord(entry);
      const text = asText(suggestion.suggestion);
      return { text, marks: cleanRanges(suggestion.highlights, text.length) };
    })
    .filter((suggestion) => suggestion.text !== '');
}
