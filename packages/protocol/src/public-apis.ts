/**
 * Wire types of the public browser APIs (search, autocomplete, recommendations, collection, older
 * tracker identify), as a storefront or the browser toolkit sees them. The server validates the
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

/** `GET /widget/{widgetId}/recommendations[...]`. */
export interface RecommendationResponse {
  /** The recommendation id: `sourceId` of activities, `recommendationId` of click-on-reco. */
  id: string;
  recommendations: { id: string; strategy: string; score: number; distribution: number; product: ProductView }[];
  pagination: { total: number };
  widget: { title: string; attributes: Record<string, unknown>; minResults: number };
}

export type CollectAction = 'click' | 'view' | 'add-to-cart' | 'remove-from-cart' | 'purchase';

/** One activity of `POST /collect/{trackerKey}` (one, or an array of up to 500). */
export interface CollectActivity {
  /** A client-made id: the same id sent twice is counted once. */
  id?: string;
  action: CollectAction;
  /** Exactly one of `product`, `page` or `pathToPage`; other keys are kept. */
  target: { product?: string | number; page?: string; pathToPage?: string; 'search-terms'?: string; campaign?: string; [key: string]: unknown };
  sourceId?: string;
  /** Optional: without it the activity counts in the aggregates but belongs to no profile. `identities.sessionid` is an anonymous id. */
  user?: {
    identities?: Record<string, string>;
    sessionId?: string;
    profileId?: string;
    traits?: Record<string, unknown>;
    segments?: string[] | Record<string, unknown>;
  };
  /** `price` is integer cents, `currency` ISO 4217; extra keys are kept. A string is read as JSON, or kept as sent. */
  metadata?: string | { quantity?: number; orderId?: string; widgetId?: string; locale?: string; price?: number; currency?: string; query?: string; variant?: string; [key: string]: unknown };
  segments?: string[];
  /** ISO 8601 (without an offset it is read as UTC); the server's time when absent. */
  timestamp?: string;
  opposite?: boolean;
}

/** `POST /tracker/{trackerKey}/identify`. */
export interface IdentifyRequest {
  profile: { id?: string; datasources?: { id: string; original_id: string }[]; infos?: Record<string, unknown>; segments?: Record<string, unknown> };
}

export interface IdentifyResponse {
  profile: { id: string; datasources: { id: string; original_id: string }[]; infos: Record<string, unknown>; segments: Record<string, unknown> };
  created: boolean;
}
