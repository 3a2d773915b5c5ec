/**
 * Wire types of the search APIs (search, suggest, autocomplete), as a storefront or the browser
 * toolkit sees them. The server's search API declares its responses with them, so its type-check
 * fails when the two drift; the elements read answers through them. Field names follow the interface spec.
 */
import type { ProductView } from './public-apis.js';

export interface SortKey {
  attribute: string;
  order: 'asc' | 'desc';
}

/**
 * `correction`: run the words as typed, without typo corrections or word splits ("Search instead for …").
 * `learning` (Discovery Kit): leave out the order learned from what shoppers clicked and bought;
 * `personalization` (Discovery Kit): leave out the shopper's own interests.
 */
export type DisableName = 'facet' | 'item' | 'group' | 'redirect' | 'correction' | 'learning' | 'personalization';

/** `POST /search`; `GET /search/{token}?encoded=` takes the same object without `token`. */
export interface SearchRequest {
  token: string;
  query: string;
  configurationId?: string;
  /**
   * Who searches: `session` maps an identity repository to the shopper's id (the published client
   * sends `{sessionId: ...}`; the toolkit its profile cookie's id the same way); `variables` are the
   * request's variables. A known shopper's interests then lift matching items (docs/search.md).
   */
  context?: { session?: Record<string, string>; variables?: Record<string, unknown> };
  options?: {
    offset?: number;
    limit?: number;
    sortBy?: SortKey[];
    facets?: { id: string; values: string[] }[];
    filter?: string;
    customResponseMask?: string;
    disable?: { name: DisableName }[];
    /** `true` (the title) or the field names to mark: each item then carries `highlights`. */
    highlight?: true | string[];
    /** Discovery Kit: a search made while the shopper types, counted in analytics only once a result of it is clicked. */
    asYouType?: boolean;
  };
  disable?: { name: DisableName }[];
}

/** Half-open `[start, end)` UTF-16 offsets into a string as the product carries it. */
export type HighlightRange = [number, number];

export interface SearchFacet {
  id: string;
  title: string;
  attribute: string;
  count: number;
  values: { value: string; count: number; selected: boolean }[];
}

export interface SearchItem {
  id: string;
  score: number;
  kind: string;
  context: string;
  product?: ProductView;
  redirect?: { id: string; name: string; url: string };
  /** Only when `options.highlight` asked: per field, the ranges of its value that matched the query. */
  highlights?: { [field: string]: HighlightRange[] };
}

export interface SearchResponse {
  items: SearchItem[];
  metadata: {
    count: number;
    exactCount: boolean;
    time: number;
    token: string;
    url: string;
    offset: number;
    limit: number;
    facets: SearchFacet[];
    /** Send it as the `sourceId` of activities on these results. */
    id: string;
    configurationId: string;
    defaultConfigurationId: string;
    /** The query that was run, only when it differs from what was typed (a typo corrected, a word split); see docs/search.md. */
    correctedQuery?: string;
    /** Only when no item matched every word and a looser match was served instead of nothing. */
    relaxed?: true;
    /** Discovery Kit: only when the shopper's own interests (`context.session`) changed the order. */
    personalized?: true;
  };
}

/** `POST /search/autocomplete` (beta). */
export interface AutocompleteRequest {
  token: string;
  query: string;
  configurationId?: string;
  /** `categories`: also suggest "query in <facet value>" from the query's results (see docs/search.md). */
  options?: { numberOfSuggestions?: number; categories?: boolean };
}

export interface AutocompleteSuggestion {
  suggestion: string;
  /** The part of `suggestion` matching the typed prefix, as half-open UTF-16 ranges. */
  highlights?: HighlightRange[];
  /** Category suggestions only (`options.categories`): the facet and value to search within. */
  category?: { facetId: string; attribute: string; value: string; count: number };
}

export interface AutocompleteResponse {
  suggestions: AutocompleteSuggestion[];
  metadata: { time: number; token: string; id: string; configurationId: string };
}

/** `POST /search/suggest` (and `GET /search/suggest?encoded=`): the matches grouped by one attribute. */
export interface SuggestRequest {
  token: string;
  query?: string;
  configurationId?: string;
  options: {
    sortBy?: SortKey[];
    filter?: string;
    customResponseMask?: string;
    /** `values`: only these groups, in this order; otherwise the most frequent values first. */
    groupBy: { attribute: string; size?: number; values?: string[] };
  };
}

/** One value of the `groupBy` attribute: every match having it counted, its first `size` items (masked by `customResponseMask`). */
export interface SuggestGroup {
  value: string;
  count: number;
  items: SearchItem[];
}

export interface SuggestResponse {
  groups: SuggestGroup[];
  metadata: { time: number; token: string; url: string; id: string; configurationId: string };
}
