/**
 * What an activity's verb means to the features that read it. A purchase has two spellings: the
 * legacy tracker API says `buy`, the collect API and the browser tracker say `purchase`.
 */

/** In the order the popularity cache keys them (`top-sellers` asks for exactly these). */
export const PURCHASE_VERBS: readonly string[] = ['buy', 'purchase'];

const purchases = new Set(PURCHASE_VERBS);

export function isPurchase(verb: string): boolean {
  return purchases.has(verb);
}

/** A search or a widget converted when the shopper put the item in the cart or bought it. */
export function isConversion(verb: string): boolean {
  return verb === 'add-to-cart' || purchases.has(verb);
}
