/**
 * Wire types of the search APIs (search, suggest, autocomplete), as a storefront or the browser
 * toolkit sees them. The server's search API declares its responses with them, so its type-check
 * fails when the two drift; the elements read answers through them. Field names follow the interface spec.
 */
import type { ProductView } from './public-apis.js';
import type { ExperimentStamp } from './experiments.js';

export interface SortKey {
  attribute: string;
  order: 'asc' | 'desc';
}

/**
 * `correction`: run the words as typed, without typo corrections or word splits ("Search instead for …").
 * `learning` (Discovery Kit): leave out the order learned from what shoppers clicked and bought;
 * `personalization` (Discovery Kit): leave out the shopper's own interests.
 */
export type DisableName = 'facet' | 'item' | 'group' | 'redirect' | 'correction' | 'learning' | 'leads' | 'personalization';

/** The items' options of a search: `itemOptions`, or its older name `options`. */
export interface SearchItemOptions {
  offset?: number;
  limit?: number;
  sortBy?: SortKey[];
  /** `id` names the configured facet; the 2.0 definition's `attribute` names it when `id` is empty. */
  facets?: { id?: string; attribute?: string; values: string[] }[];
  filter?: string;
  customResponseMask?: string;
  disable?: { name: DisableName }[];
  /** `true` (the title) or the field names to mark: each item then carries `highlights`. */
  highlight?: true | string[];
  /**
   * The definition's AI Search toggle: widens the products a query leads to (shoppers who only clicked
   * them after searching it count too) beside full-text search (docs/search.md, "Queries that lead to products").
   */
  aiSearch?: boolean;
  /** Discovery Kit: a search made while the shopper types, counted in analytics only once a result of it is clicked. */
  asYouType?: boolean;
}

/** A context variable's value: exactly one of these set. */
export interface ContextVariableValue {
  stringValue?: string;
  /** A number, or a decimal string (protocol buffers' JSON form of 64-bit integers). */
  longValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
  /** An ISO 8601 date. */
  dateValue?: string;
  stringListValue?: { values: string[] };
}

/** Who searches and in which context: rules' `when` conditions read the variables (docs/search.md). */
/** Who is searching and where: `session` names the shopper (its `sessionId` entry, else its first; experiments draw by it), the variables fire rules. */
export interface SearchContext {
  /** Identity repository → id, such as `{sessionId: "…"}`. */
  session?: Record<string, string>;
  /** The 2.0 form: name → plain value (string, number, boolean, list of strings) or typed value. */
  variables?: Record<string, string | number | boolean | string[] | ContextVariableValue> | { name: string; value: ContextVariableValue }[];
  /** The 3.0 form. */
  contextVariables?: { name: string; value: ContextVariableValue }[];
}

/** `POST /search`; `GET /search/{token}?encoded=` takes the same object without `token`. */
export interface SearchRequest {
  token: string;
  query: string;
  configurationId?: string;
  /** Deprecated in the definition for `itemOptions`; when both are sent, `itemOptions` is read. */
  options?: SearchItemOptions;
  itemOptions?: SearchItemOptions;
  /** Groups of the matches in the same answer (`groups`), when `groupBy` is given. */
  groupOptions?: { sortBy?: SortKey[]; filter?: string; customResponseMask?: string; groupBy?: { attribute: string; size?: number; values?: string[] } };
  context?: SearchContext;
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
  /** Discovery Kit: the query's words do not match it; shoppers who searched the query went on to buy or cart it. */
  learned?: true;
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
    /** Only when a running experiment served this response (the shopper named by `context.session`). */
    experiment?: ExperimentStamp;
    /** Discovery Kit: only when the shopper's own interests (`context.session`) changed the order. */
    personalized?: true;
  };
  /** Only when the request sent `groupOptions`. */
  groups?: SuggestGroup[];
}

/** `POST /search/autocomplete` (beta). */
export interface AutocompleteRequest {
  token: string;
  query: string;
  configurationId?: string;
  /** `categories`: also suggest "query in <facet value>" from the query's results; `filter`: only suggest what finds items under it (see docs/search.md). */
  options?: { numberOfSuggestions?: number; categories?: boolean; filter?: string };
  /** `facet`: no category suggestions; `item`: no counts. */
  disable?: { name: DisableName }[];
  context?: SearchContext;
}

export interface AutocompleteSuggestion {
  suggestion: string;
  /** The part of `suggestion` matching the typed prefix, as half-open UTF-16 ranges. */
  highlights?: HighlightRange[];
  /** How many items the suggestion finds (under `options.filter`); left out when `item` is disabled. */
  count?: number;
  /** Category suggestions only (`options.categories`): the facet and value to search within. */
  category?: { facetId: string; attribute: string; value: string; count: number };
}

export interface AutocompleteResponse {
  suggestions: AutocompleteSuggestion[];
  metadata: { count: number; time: number; token: string; id: string; configurationId: string; defaultConfigurationId: string; experiment?: ExperimentStamp };
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
  context?: SearchContext;
}

/** One value of the `groupBy` attribute: every match having it counted, its first `size` items (masked by `customResponseMask`). */
export interface SuggestGroup {
  value: string;
  count: number;
  items: SearchItem[];
}

export interface SuggestResponse {
  groups: SuggestGroup[];
  metadata: { time: number; token: string; url: string; id: string; configurationId: string; experiment?: ExperimentStamp };
}
