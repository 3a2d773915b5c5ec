/** Collection-API activities built from intents and orders. No DOM here, so Node can run it too. */
import type { ActivityIntent, CollectActivity } from '@discovery-kit/protocol';

export type Action = ActivityIntent['action'];
export type Metadata = NonNullable<ActivityIntent['metadata']>;

/** Who did it: the cookie's profile id and, once the shop calls `login`, the customer's identities. */
export type ActivityUser = Pick<NonNullable<CollectActivity['user']>, 'profileId' | 'identities'>;

/**
 * A collection-API activity (docs/tracking.md) as this tracker makes it: the id is made here once, so
 * the server counts it once however often a retry or a beacon repeats it, and the timestamp is when
 * it happened, not when it was sent. `user` is absent while the first identify is under way: the sender adds it.
 */
export type TrackedActivity = CollectActivity & { id: string; timestamp: string };

export interface PurchaseItem {
  productId: string;
  /** Decimal unit price as shown to the shopper, such as 2.95; sent as integer cents. */
  price?: number;
  quantity?: number;
}

export interface PurchaseOrder {
  orderId: string;
  currency?: string;
  items: PurchaseItem[];
}

// Page-wide on purpose: ids made in one tab must sort in creation order, whichever tracker instance made them.
let sequence = 0;

/**
 * A unique id that starts with the creation time and a counter, in base 36, so that the queue's key
 * order is the creation order (within a tab, even in one millisecond) and "drop the oldest" is
 * "drop the first keys"; 16 random characters keep ids from different tabs apart.
 */
export function newActivityId(now = Date.now()): string {
  const random = crypto.getRandomValues(new Uint8Array(16));
  const count = (sequence++ % 36 ** 4).toString(36).padStart(4, '0');
  return `${now.toString(36).padStart(9, '0')}${count}-${Array.from(random, (byte) => (byte & 31).toString(32)).join('')}`;
}

/** The collection activity for an intent; a page view without a page gets `fallbackPage` (the current location). */
export function activityFromIntent(intent: ActivityIntent, fallbackPage: string, now = Date.now()): TrackedActivity {
  const activity: TrackedActivity = {
    id: newActivityId(now),
    action: intent.action,
    target: intent.productId ? { product: intent.productId } : { page: intent.page || fallbackPage },
    timestamp: new Date(now).toISOString(),
  };
  if (intent.sourceId) activity.sourceId = intent.sourceId;
  if (intent.metadata && Object.keys(intent.metadata).length > 0) activity.metadata = { ...intent.metadata };
  return activity;
}

/** A decimal price (2.95) in integer cents (295), as the collection API wants it; undefined when not a price. */
export function toCents(price: unknown): number | undefined {
  const value = typeof price === 'string' ? Number(price) : price;
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value * 100) : undefined;
}

/** One `purchase` intent per product of the order, each carrying the order id. */
export function purchaseIntents(order: PurchaseOrder): ActivityIntent[] {
  return order.items
    .filter((item) => item && item.productId)
    .map((item) => {
      const metadata: Metadata = { orderId: String(order.orderId) };
      const cents = toCents(item.price);
      if (cents !== undefined) metadata.price = cents;
      if (Number.isInteger(item.quantity)) metadata.quantity = item.quantity!;
      if (order.currency) metadata.currency = order.currency;
      return { action: 'purchase', productId: String(item.productId), metadata };
    });
}
