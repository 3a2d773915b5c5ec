/**
 * The contract between the browser toolkit's parts: the elements (`packages/elements`, Lit) announce
 * what a shopper did with a DOM event, and the tracker (`packages/tracker`, no Lit) turns it into a
 * collection-API activity. Neither package imports the other, so a shop may use either alone.
 */

/** Name of the event the elements dispatch (bubbles, composed) and the tracker listens for on `document`. */
export const ACTIVITY_EVENT = 'discovery-activity';

/** What an element saw a shopper do; the tracker adds the user, id and timestamp. */
export interface ActivityIntent {
  action: 'view' | 'click' | 'add-to-cart' | 'remove-from-cart' | 'purchase';
  /** The product acted on; absent for a page view. */
  productId?: string;
  /** A page view's path, such as `/search?q=heart` (the tracker uses `location` when absent). */
  page?: string;
  /** The search response id or recommendation id that put the product on the page. */
  sourceId?: string;
  /** Extra keys for the activity's `metadata`: `widgetId`, `query`, `position`, `price`, `currency`... */
  metadata?: Record<string, string | number | boolean>;
}

export type ActivityEvent = CustomEvent<ActivityIntent>;

/** Where the elements find the server and how they present prices; the embed fills it from its script tag. */
export interface ToolkitConfig {
  /** The Discovery Kit server's origin and base path, such as `https://discovery.shop.example`. */
  apiBase: string;
  /** Search token for search, suggest and autocomplete. */
  searchToken?: string;
  /** Tracker key for the collection API. */
  trackerKey?: string;
  /** BCP 47 locale for prices; the page's `<html lang>` when absent. */
  locale?: string;
  /** ISO 4217 currency for prices (catalog prices are integer cents); default `EUR`. */
  currency?: string;
}

declare global {
  interface DocumentEventMap {
    [ACTIVITY_EVENT]: ActivityEvent;
  }
}
