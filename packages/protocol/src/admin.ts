/**
 * Wire types of the admin API (`/admin/...`, docs/admin-api.md) that the console reads and sends:
 * sign-in, widgets and their previews, search tokens with their configurations, tracker keys, the
 * audit log, the catalog's items and search explanations. Analytics are in admin-analytics.ts.
 */
import type { RecommendationResponse } from './recommendations.js';

/** `POST /admin/session`. */
export interface SignInRequest {
  tenant: string;
  username: string;
  password: string;
}

export type AdminRole = 'read' | 'edit';

/** The answer to `POST /admin/session`; send `csrfToken` as `x-csrf-token` on every change. */
export interface SignInResponse {
  tenant: string;
  username: string;
  role: AdminRole;
  csrfToken: string;
  /** ISO time. */
  expiresAt: string;
}

/** `GET /admin/session`: who is signed in, and the tenant's environments (`?environment=` of other calls). */
export interface AdminSessionResponse {
  tenant: string;
  username: string;
  role: AdminRole;
  /** Absent for a service account's bearer token, which needs none. */
  csrfToken?: string;
  environments: Array<{ id: string; name: string }>;
}

export type WidgetFilter = { sameAs: string } | { where: string };

/** The recommendation strategies a widget can run (docs/recommendations.md). */
export type WidgetStrategy = 'popular' | 'top-sellers' | 'trending' | 'similar' | 'also-viewed' | 'bought-together' | 'personalized' | 'recently-viewed' | 'buy-again';

/** How a search configuration folds words into their other forms (docs/search.md). */
export type SearchLanguage = 'english' | 'danish' | 'dutch' | 'finnish' | 'french' | 'german' | 'italian' | 'norwegian' | 'portuguese' | 'spanish' | 'swedish';

/** A widget as `GET /admin/widgets[/{id}]` answers it and `PUT /admin/widgets/{id}` takes it (docs/configuration.md). */
export interface AdminWidget {
  id: string;
  title: string;
  attributes: Record<string, string | number | boolean>;
  minResults: number;
  maxResults: number;
  strategies: WidgetStrategy[];
  filters: WidgetFilter[];
  excludePurchased?: boolean;
  popularityWeight?: number;
  /** `personalized`: order its best candidates by the learned ranking stage (default true). */
  learnedRanking?: boolean;
  /** At most this many items of one family (a title's last two words, else its first category). */
  diversityCap?: number;
  fallback?: 'popular' | 'none';
  emailCacheMinutes: number;
  fallbackUrl?: string;
  shopUrl?: string;
}

export interface WidgetListResponse {
  widgets: AdminWidget[];
}

/** `GET /admin/widgets/{id}/preview?productId=&profileId=`: what the widget recommends, as the public API would answer. */
export type WidgetPreviewResponse = RecommendationResponse;

/** The type of a context variable a search configuration reads (the published definition's value types). */
export type ContextVariableType = 'string' | 'long' | 'double' | 'bool' | 'date' | 'stringList';

/** A condition on one context variable: a value, values one of which, or a range of numbers or ISO dates (ends included). */
export type ContextCondition = string | number | boolean | string[] | { from?: number | string; to?: number | string };

export interface MerchandisingRule {
  /** The query it applies to; none: every query, when `when` holds. */
  query?: string;
  /** Conditions on the request's context variables, every one of which must hold. */
  when?: Record<string, ContextCondition>;
  pin: string[];
  boost: string[];
  bury: string[];
  /** A filter (the search filter language) applied on top of the request's. */
  filter?: string;
}

export interface SearchRedirectConfig {
  id: string;
  name: string;
  url: string;
  queries: string[];
  when?: Record<string, ContextCondition>;
}

export interface SearchFacetConfig {
  id: string;
  title: string;
  attribute: string;
  type: 'value' | 'range';
  ranges?: Array<{ label: string; from?: number; to?: number }>;
  size: number;
}

/** One configuration of a search token; `PUT /admin/search-tokens/{token}/configurations/{id}` takes it whole. */
export interface SearchConfigurationView {
  id: string;
  fields: Array<{ attribute: string; weight: number }>;
  facets: SearchFacetConfig[];
  redirects: SearchRedirectConfig[];
  synonyms: string[][];
  rules: MerchandisingRule[];
  defaultSort: Array<{ attribute: string; order: 'asc' | 'desc' }>;
  offensiveTerms: string[];
  language: SearchLanguage;
  keepApart: string[];
  /** The languages (ISO 639-1) it serves: a search with that `locale` and no configurationId is answered by it. */
  locales: string[];
  /** The context variables the rules may name, with their types. */
  contextVariables: Record<string, ContextVariableType>;
  /** Learning from clicks, add-to-carts and purchases (docs/search.md, "Learned order"). */
  learning: SearchLearningConfig;
  /** The shopper's own interests lift matching items (docs/search.md, "Personalisation"). */
  personalization: SearchPersonalizationConfig;
}

export interface SearchPersonalizationConfig {
  enabled: boolean;
  /** Attributes whose values make an affinity; empty: the configuration's value facets. */
  attributes: string[];
  /** 0 to 100. */
  impact: number;
}

export interface SearchLearningConfig {
  enabled: boolean;
  weights: { click: number; addToCart: number; purchase: number };
  halfLifeDays: number;
  minShoppers: number;
  priorShoppers: number;
  /** 0 to 100: how far learning may move an item. */
  impact: number;
  /** Products shoppers carted or bought after searching a query that does not match them join its results. */
  leads: boolean;
  /** Learned keys reset by a merchandiser, with when (ms): votes received before are not used. */
  resets: Array<{ key: string; at: number }>;
}

export interface AdminSearchToken {
  token: string;
  configurations: SearchConfigurationView[];
  defaultConfigurationId?: string;
  autocompleteWindowDays: number;
  autocompleteMinShoppers: number;
}

export interface SearchTokenListResponse {
  searchTokens: AdminSearchToken[];
}

export interface TrackerKeyListResponse {
  trackerKeys: string[];
}

/** `POST /admin/tracker-keys` and `.../{key}/rotate`: the new key. */
export interface TrackerKeyResponse {
  trackerKey: string;
}

export interface AuditEntry {
  /** ISO time of the change. */
  at: string;
  /** `account:<clientId>` or `console:<username>`. */
  actor: string;
  action: string;
  /** The environment changed, or `*` for a tenant-wide action (a data-subject request). */
  environment: string;
  /** The kind and id of what changed: `widget:home`, `search-token:abc`, `tracker-key:k1`. */
  target: string;
  /** The resource before and after; null when it did not exist (or no longer does). */
  before: unknown;
  after: unknown;
}

export interface AuditResponse {
  entries: AuditEntry[];
}

/** `GET /admin/items/{id}[?catalogVersion=]`: an item of the active (or named) catalog. */
export interface AdminItemResponse {
  id: string;
  catalogVersion: number;
  type: string;
  attributes: Record<string, unknown>;
}

export interface ExplainedHit {
  position: number;
  id: string;
  score: number;
  title: string;
  /** Photo URL (http(s), site-relative or an inline image), empty when the item has none. */
  photo: string;
  /** Minor units (cents), when the item has a price. */
  price?: number;
  currency?: string;
  /** Present when a rule of this query moved the item. */
  rule?: 'pinned' | 'boosted' | 'buried';
  /** Weighted fields that contain a word of the query (as typed, as a prefix, or as a synonym). */
  matchedFields: Array<{ attribute: string; weight: number; words: string[] }>;
  /** Where the text order alone (learning off) puts the item; absent when beyond the explained positions. */
  textPosition?: number;
  /** Present when learning moved the item: the votes behind it and the lift they give (for a joined item, the shoppers it led). */
  learned?: LearnedItemView;
  /** The query's words do not match it: it joined because shoppers who searched the query went on to cart or buy it. */
  joined?: true;
}

/** What shoppers taught search about one item of a query (docs/search.md, "Learned order"). */
export interface LearnedItemView {
  id: string;
  /** 0 to 1: the share of the query's best text score added to the item's score. */
  lift: number;
  /** Distinct shoppers who voted for it. */
  shoppers: number;
  clicks: number;
  addToCarts: number;
  purchases: number;
  /** Weighted, position-corrected, decayed votes: the lift is proportional to it. */
  strength: number;
}

/** A query's learning, as the explanation and the learning list show it. */
export interface QueryLearningView {
  /** The key the query is learned under (its words as analysed, or `browse:` and its selections). */
  key: string;
  enabled: boolean;
  votes: number;
  shoppers: number;
  /** When a merchandiser last reset the key (ms): votes received before are not used. */
  resetAt?: number;
  items: LearnedItemView[];
  /** Products the query leads to: shoppers searched it, then carted or bought them (docs/search.md, "Queries that lead to products"). */
  leads: LearnedItemView[];
}

/** `GET /admin/search-tokens/{token}/learning`: the keys learning holds votes for, most recently voted first. */
export interface SearchLearningListResponse {
  configurationId: string;
  enabled: boolean;
  queries: Array<{ key: string; votes: number; shoppers: number; lastVoteAt: number; resetAt?: number }>;
}

/** `POST /admin/search-tokens/{token}/learning/reset`: the key reset and when. */
export interface SearchLearningResetResponse {
  configurationId: string;
  key: string;
  at: number;
}

/** `GET /admin/search-tokens/{token}/explain?q=`: the ranked results and why each matched. */
export interface SearchExplanation {
  query: string;
  configurationId: string;
  count: number;
  redirect?: { id: string; name: string; url: string };
  rule?: { pin: string[]; boost: string[]; bury: string[] };
  /** The rules (`index` in `rules`) and redirect (in `redirects`) that fired: the query and each variable whose condition held. */
  fired: Array<{ kind: 'rule' | 'redirect'; index: number; query?: string; because: Array<{ variable: string; value: string; condition: ContextCondition }> }>;
  synonyms: string[][];
  hits: ExplainedHit[];
  /** What learning holds for this query; absent when the configuration has it off and nothing is kept. */
  learning?: QueryLearningView;
}
