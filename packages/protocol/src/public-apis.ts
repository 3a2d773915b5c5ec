/**
 * Wire types of the public search APIs (search, autocomplete) and the product view that search and
 * recommendations share, as a storefront or the browser toolkit sees them. The server validates the
 * requests with its own schemas; these types describe what travels, and the server's tests and the
 * browser packages' type-check keep the two in step. Field names follow the interface spec.
 */

/** The product as search and recommendations return it (`product`). Prices are integer cents. */
export interface ProductView {
  version: number;
  context: string;
  /** The older item API's composite id; `_id.original_id` is the shop's own id. */
  id: string;
  _id: { original_id: string; tenant: string; kind: string };
  type: string;
  title: string;
  /** An http(s) or site-relative URL; empty when the catalog gave none or an unsafe one. */
  url: string;
  recommended: boolean;
  booster: number;
  price: number;
  discount_rate: number;
  metadata: { updated: string };
  categories: string[];
  photo: string;
  /** The catalog's own attributes (strings, numbers, booleans). */
  [attribute: string]: unknown;
}

export interface SortKey {
  attribute: string;
  order: 'asc' | 'desc';
}

export type DisableName = 'facet' | 'item' | 'group' | 'redirect';

/** `POST /search`; `GET /search/{token}?encoded=` takes the same object without `token`. */
export interface SearchRequest {
  token: string;
  query: string;
  configurationId?: string;
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
