/**
 * `buy-again`: the shopper's own past purchases, ranked by how likely each is bought again: how often
 * they bought it, fading with the time since they last did, plus how often the item's buyers come back
 * for it (`buyAgainScore`). Empty without a profile or for a shopper who bought nothing (the widget's
 * fallback then decides what shows).
 */
import type { Candidate, StrategyInput } from './strategy-input.js';
import { MINUTE_MS } from './interactions.js';

/** A purchase counts half after this many days (measured on the evaluation: 90-480 days all did about as well). */
const HALF_LIFE_MINUTES = 180 * 1440;
/** Weight of the item's repeat rate (a share, 0-1) against the shopper's own faded purchase count. */
const REPEAT_WEIGHT = 2;

/**
 * Purchase count × 2^(−time since the last purchase / 180 days) + 2 × the item's repeat rate (the
 * share of its buyers who bought it more than once; Interactions.repeatRate). Among items bought as
 * often and as lately, the kind people reorder comes first: most of a shopper's items were bought once,
 * where counts and dates alone cannot tell a staple from a one-off gift.
 */
export function buyAgainScore(buys: number, lastBuy: number, now: number, repeatRate: number): number {
  return buys * 2 ** (-Math.max(0, now - lastBuy) / HALF_LIFE_MINUTES) + REPEAT_WEIGHT * repeatRate;
}

export function buyAgain(input: StrategyInput): Candidate[] {
  if (input.profileId === undefined) return [];
  const interactions = input.aggregates.interactions(input.tenantId);
  const row = interactions.row(input.activities.canonicalProfileId(input.tenantId, input.profileId));
  if (row === undefined) return [];
  // "Now", or the newest activity when the shop's data is older (as the popularity windows count).
  const now = Math.floor(input.aggregates.windowEnd(input.tenantId) / MINUTE_MS);
  const out: Candidate[] = [];
  for (let k = 0; k < row.items.length; k++) {
    if (row.buys[k]! === 0) continue;
    const item = row.items[k]!;
    out.push({ itemId: interactions.itemIds[item]!, score: buyAgainScore(row.buys[k]!, row.lastBuy[k]!, now, interactions.repeatRate(item)) });
  }
  return out.sort((a, b) => b.score - a.score || a.itemId.localeCompare(b.itemId));
}
