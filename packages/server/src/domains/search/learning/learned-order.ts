/**
 * From one query's votes to how far each item moves: the learned signal of the ranking formula.
 *
 * - A vote is one shopper's actions on one item of the query on one day (once ever when the search id
 *   was not verified): a click, an add-to-cart, a purchase, each weighted per configuration.
 * - A click is corrected for position bias: shoppers look at the first results far more than at the
 *   twelfth, so a click deep down says more. The default examination curve is P(seen at rank r) = 1/r
 *   (the power law with exponent 1 that Joachims et al., WSDM 2017, fitted on their search logs), so a
 *   click weighs r; the weight is clipped at scoring.ts MAX_CLICK_WEIGHT to bound the variance of one deep click.
 * - Each vote decays with its age (half-life in days).
 * - One network address (the activity's `origin`, a keyed digest) brings at most MAX_SHOPPERS_PER_ORIGIN
 *   shoppers to an item of a query: sessions made up behind one address count as that many shoppers.
 *   The first to vote count; the rest of that address's votes for the item are left out.
 * - An item moves only once `minShoppers` distinct shoppers voted for it, and its lift is shrunk toward
 *   the text order by shoppers / (shoppers + priorShoppers); the strongest item gets the configured
 *   impact times that shrinkage, the others in proportion to their weighted votes.
 */
import type { SearchConfiguration } from '../../../platform/config/schema.js';
import { ADD_TO_CART, CLICK, PURCHASE } from './search-credit.js';
import { MAX_CLICK_WEIGHT } from '../scoring.js';

export type LearningSettings = SearchConfiguration['learning'];

/** Distinct shoppers one origin (network address) may bring to one item of one query. */
export const MAX_SHOPPERS_PER_ORIGIN = 2;

export interface Vote {
  shopper: string;
  /** The activity's origin (activity-record.ts), when the API that took it knew the sender's address. */
  origin?: string;
  item: string;
  /** UTC day number (days since the epoch) of the vote's first action. */
  day: number;
  /** Bits of CLICK, ADD_TO_CART and PURCHASE. */
  actions: number;
  /** Where the clicked item was shown, when known. */
  position: number | undefined;
}

export interface LearnedItem {
  id: string;
  /** 0 to 1: the share of the query's top text score added to this item's score. */
  lift: number;
  shoppers: number;
  clicks: number;
  addToCarts: number;
  purchases: number;
  /** The weighted, position-corrected, decayed votes the lift is proportional to. */
  strength: number;
}

export function clickWeight(position: number | undefined): number {
  return position === undefined ? 1 : Math.min(MAX_CLICK_WEIGHT, Math.max(1, position));
}

/** The items `votes` lift under `settings` on day `today`, most lifted first (items short of `minShoppers` left out). */
export function learnedItems(votes: Iterable<Vote>, settings: LearningSettings, today: number): LearnedItem[] {
  const { weights, halfLifeDays, minShoppers, priorShoppers, impact } = settings;
  const items = new Map<string, LearnedItem & { who: Set<string>; origins: Map<string, Set<string>> }>();
  for (const vote of votes) {
    let item = items.get(vote.item);
    if (item === undefined) items.set(vote.item, (item = { id: vote.item, lift: 0, shoppers: 0, clicks: 0, addToCarts: 0, purchases: 0, strength: 0, who: new Set(), origins: new Map() }));
    if (vote.origin !== undefined) {
      let fromOrigin = item.origins.get(vote.origin);
      if (fromOrigin === undefined) item.origins.set(vote.origin, (fromOrigin = new Set()));
      if (!fromOrigin.has(vote.shopper)) {
        if (fromOrigin.size >= MAX_SHOPPERS_PER_ORIGIN) continue;
        fromOrigin.add(vote.shopper);
      }
    }
    const decay = 0.5 ** (Math.max(0, today - vote.day) / halfLifeDays);
    let value = 0;
    if ((vote.actions & CLICK) !== 0) {
      value += weights.click * clickWeight(vote.position);
      item.clicks++;
    }
    if ((vote.actions & ADD_TO_CART) !== 0) {
      value += weights.addToCart;
      item.addToCarts++;
    }
    if ((vote.actions & PURCHASE) !== 0) {
      value += weights.purchase;
      item.purchases++;
    }
    item.strength += value * decay;
    item.who.add(vote.shopper);
  }
  const kept = [...items.values()].filter((item) => item.who.size >= minShoppers && item.strength > 0);
  const strongest = kept.reduce((max, item) => Math.max(max, item.strength), 0);
  return kept
    .map(({ who, origins: _origins, ...item }) => {
      const shoppers = who.size;
      const lift = (impact / 100) * (shoppers / (shoppers + priorShoppers)) * (item.strength / strongest);
      return { ...item, shoppers, lift: Math.round(lift * 1e4) / 1e4, strength: Math.round(item.strength * 1e3) / 1e3 };
    })
    .filter((item) => item.lift > 0)
    .sort((a, b) => b.lift - a.lift || (a.id < b.id ? -1 : 1));
}
