/**
 * Automatic tags: what the page is (a product page, a search-results page) and what the shopper
 * clicks, read from `data-discovery-*` attributes, schema.org JSON-LD and the elements'
 * `discovery-activity` events. Each becomes an ActivityIntent for the tracker.
 */
import { ACTIVITY_EVENT, type ActivityIntent } from '@discovery-kit/protocol';
import { toCents, type Metadata } from './activity.js';

const PRODUCT = 'data-discovery-product-id';
const WIDGET = 'data-discovery-widget-id';
const SOURCE = 'data-discovery-source-id';
const ADD = 'data-discovery-add-to-cart';
const REMOVE = 'data-discovery-remove-from-cart';
const PAGE = 'data-discovery-page';

/** A click the elements reported is not counted again from the attributes on their cards. */
const SAME_CLICK_MS = 500;

/** The page-view intents of this document: its product, or its search query. */
export function pageIntents(doc: Document = document): ActivityIntent[] {
  const marked = doc.querySelector(`[${PAGE}="product"][${PRODUCT}]`);
  const productId = marked?.getAttribute(PRODUCT) || jsonLdProductId(doc);
  if (productId) return [{ action: 'view', productId }];
  const search = doc.querySelector('[data-discovery-search-query]');
  if (search) {
    const intent: ActivityIntent = { action: 'view', metadata: { query: search.getAttribute('data-discovery-search-query') ?? '' } };
    const sourceId = search.getAttribute(SOURCE);
    if (sourceId) intent.sourceId = sourceId;
    return [intent];
  }
  return [];
}

/** The id of the first schema.org Product in the page's JSON-LD (`productID`, else `sku`). */
export function jsonLdProductId(doc: Document = document): string | undefined {
  for (const script of doc.querySelectorAll('script[type="application/ld+json"]')) {
    let data: unknown;
    try {
      data = JSON.parse(script.textContent ?? '');
    } catch {
      continue;
    }
    const found = findProduct(data);
    if (found !== undefined) return found;
  }
  return undefined;
}

function findProduct(node: unknown): string | undefined {
  if (Array.isArray(node)) {
    for (const item of node) {
      const found = findProduct(item);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof node !== 'object' || node === null) return undefined;
  const record = node as Record<string, unknown>;
  const type = record['@type'];
  if (type === 'Product' || (Array.isArray(type) && type.includes('Product'))) {
    const id = record.productID ?? record.sku;
    if (typeof id === 'string' || typeof id === 'number') return String(id);
  }
  return findProduct(record['@graph']);
}

/**
 * Listens on `doc` for the elements' events and for clicks on tagged elements; returns the function
 * that stops listening. Clicks are read from `composedPath()`, so tags inside shadow roots count.
 */
export function listenForTags(doc: Document, track: (intent: ActivityIntent) => void): () => void {
  let reported: { productId?: string; at: number } | undefined;

  const onActivity = (event: CustomEvent<ActivityIntent>) => {
    const intent = event.detail;
    if (!intent || typeof intent.action !== 'string') return;
    if (intent.action === 'click') reported = { productId: intent.productId, at: performance.now() };
    track(intent);
  };

  const onClick = (event: Event) => {
    const intent = clickIntent(event.composedPath());
    if (!intent) return;
    const sameClick = intent.action === 'click' && reported !== undefined && reported.productId === intent.productId && performance.now() - reported.at < SAME_CLICK_MS;
    if (!sameClick) track(intent);
  };

  doc.addEventListener(ACTIVITY_EVENT, onActivity);
  doc.addEventListener('click', onClick);
  return () => {
    doc.removeEventListener(ACTIVITY_EVENT, onActivity);
    doc.removeEventListener('click', onClick);
  };
}

/** The intent of a click: the nearest cart button or product (but not the page's own product marker). */
export function clickIntent(path: EventTarget[]): ActivityIntent | undefined {
  let intent: ActivityIntent | undefined;
  const metadata: Metadata = {};
  for (const target of path) {
    if (!(target instanceof Element)) continue;
    const attribute = (name: string) => target.getAttribute(name) ?? undefined;
    if (!intent) {
      const add = attribute(ADD);
      const remove = attribute(REMOVE);
      const product = attribute(PRODUCT);
      if (add !== undefined || remove !== undefined) {
        intent = { action: add !== undefined ? 'add-to-cart' : 'remove-from-cart', productId: add || remove || attribute(PRODUCT) };
        const quantity = Number(attribute('data-discovery-quantity'));
        if (Number.isInteger(quantity) && quantity > 0) metadata.quantity = quantity;
        const price = toCents(attribute('data-discovery-price'));
        if (price !== undefined) metadata.price = price;
        const currency = attribute('data-discovery-currency');
        if (currency) metadata.currency = currency;
      } else if (product && attribute(PAGE) === undefined) {
        intent = { action: 'click', productId: product };
      }
    }
    if (!intent) continue;
    // A cart button inside a product card without its own id takes the card's.
    intent.productId ||= attribute(PRODUCT);
    if (metadata.widgetId === undefined && attribute(WIDGET)) metadata.widgetId = attribute(WIDGET)!;
    if (intent.sourceId === undefined && attribute(SOURCE)) intent.sourceId = attribute(SOURCE);
  }
  if (!intent?.productId) return undefined;
  if (Object.keys(metadata).length > 0) intent.metadata = metadata;
  return intent;
}
