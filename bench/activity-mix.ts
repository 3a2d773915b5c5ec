/**
 * The realistic activity mix the tracking benchmarks send: SHOPPERS shoppers, most of them new to the
 * server (NEW_SHARE of activities come from a shopper never seen before), PRODUCTS products with a
 * skewed popularity (a few sell most), and the four actions in a shop's proportions: 60% product
 * views, 20% clicks, 12% add-to-carts, 8% purchases (with order, price, quantity and currency).
 * Deterministic for a seed, so two runs send the same bodies.
 */
import { seededRandom } from '../eval/seeded-shuffle.js';

export const SHOPPERS = 200_000;
export const PRODUCTS = 100_000;
export const NEW_SHARE = 0.7;

export interface MixActivity {
  action: 'view' | 'click' | 'add-to-cart' | 'purchase';
  target: { product: string };
  user: { sessionId: string };
  metadata?: Record<string, unknown>;
}

/** A generator of the mix: `next()` is one activity; `batch(n)` n of them. */
export function activityMix(seed = 11): { next(): MixActivity; batch(n: number): MixActivity[] } {
  const random = seededRandom(seed);
  let seen = 0;
  let order = 0;
  const next = (): MixActivity => {
    const fresh = seen < SHOPPERS && (seen === 0 || random() < NEW_SHARE);
    const shopper = fresh ? seen++ : Math.floor(random() * seen);
    // Popularity falls steeply: the cube of a uniform draw puts most activity on the first products.
    const product = `sku-${Math.floor(PRODUCTS * random() ** 3)}`;
    const roll = random();
    // Named per seed: two generators (two runs) play different shoppers.
    const user = { sessionId: `shopper-${seed}-${shopper}` };
    if (roll < 0.6) return { action: 'view', target: { product }, user };
    if (roll < 0.8) return { action: 'click', target: { product }, user, metadata: { query: 'gift', position: 1 + Math.floor(random() * 10) } };
    if (roll < 0.92) return { action: 'add-to-cart', target: { product }, user };
    return { action: 'purchase', target: { product }, user, metadata: { orderId: `order-${order++}`, price: 100 + Math.floor(random() * 5000), quantity: 1 + Math.floor(random() * 3), currency: 'GBP' } };
  };
  return { next, batch: (n) => Array.from({ length: n }, next) };
}
