/** Wire types of the activity collection API (`POST {collect_url}/{trackerKey}`). */

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

/** The body: one activity or a batch, accepted or refused whole. */
export type CollectRequest = CollectActivity | CollectActivity[];

/** What a 2xx answers: the interface's shape, with no profile to report. */
export interface CollectResponse {
  profiles: Record<string, never>;
}
