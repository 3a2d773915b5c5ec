/**
 * Queries that lead to products. A shopper searches "kittyhome", finds nothing they want, searches
 * again ("cat") and puts a cat-shaped doorstop in the basket: the doorstop is a lead of "kittyhome".
 * Once enough distinct shoppers made the same journey, the product joins the first query's results,
 * even though its text does not match that query (the pipeline adds only what the query did not match;
 * what it matched is the learned order's business, learned-order.ts).
 *
 * The method is query-to-product association from sessions, counted as learning counts votes:
 * - a shopper's searches are read from the log: a results-page view carries `metadata.query`, and so
 *   does a click on a result; the last RECENT_QUERIES of each shopper are kept, at most RECENT_SHOPPERS
 *   shoppers per tenant (the least recently active go first);
 * - an add-to-cart or a purchase within SESSION_MS of an earlier search of another query is one lead
 *   vote for that query's key, once per shopper, item and day (the votes of learned-order.ts: decayed,
 *   shrunk toward nothing until `minShoppers` distinct shoppers agree, weighted per configuration);
 * - a click teaches a lead only when the request asks for AI Search (`aiSearch`), which widens recall
 *   with the weaker signal (learned-signal.ts reads both kinds of vote).
 * No model is downloaded or trained ahead: every number comes from the shop's own sessions.
 */
import { DAY_MS } from '../../../platform/clock.js';
import type { LogRecord } from '../../tracking/activity-record.js';
import type { Vote } from './learned-order.js';
import { CLICK } from './search-credit.js';

/** Searches remembered per shopper. */
export const RECENT_QUERIES = 5;
/** Shoppers whose recent searches are remembered, per tenant. */
export const RECENT_SHOPPERS = 20_000;
/** A cart or a purchase this long after a search still counts as leading from it. */
export const SESSION_MS = 30 * 60_000;

/** One shopper's recent searches, oldest first: the key and when (ms, the log's receiving time). */
export type RecentSearches = { key: string; at: number }[];

/**
 * What one activity teaches about leads: `searched` when it names a query (remember it), `votes` for
 * each earlier search of another query this activity's item now leads from.
 */
export function leadsOf(recent: RecentSearches | undefined, record: LogRecord & { kind: 'activity' }, creditedKey: string | undefined, action: number | undefined): { key: string; at: number }[] {
  if (recent === undefined || action === undefined || record.type !== 'product') return [];
  const out: { key: string; at: number }[] = [];
  const seen = new Set<string>();
  for (let i = recent.length - 1; i >= 0; i--) {
    const search = recent[i]!;
    if (record.receivedAt - search.at > SESSION_MS) break;
    // The query the item was found from votes for it through the learned order, not as a lead.
    if (search.key === creditedKey || seen.has(search.key)) continue;
    seen.add(search.key);
    out.push(search);
  }
  return out;
}

/** Adds `key` as the shopper's newest search (once: a repeated search moves to the end). */
export function rememberSearch(recent: RecentSearches, key: string, at: number): void {
  const known = recent.findIndex((search) => search.key === key);
  if (known >= 0) recent.splice(known, 1);
  recent.push({ key, at });
  if (recent.length > RECENT_QUERIES) recent.shift();
}

/** The vote key of a lead: once per shopper, item and day. */
export function leadVoteKey(shopper: string, item: string, at: number): string {
  return `${shopper}\u0000${item}\u0000${Math.floor(at / DAY_MS)}`;
}

/**
 * Only carts and purchases lead, unless `clicks` (AI Search) lets a click lead too: a lead vote whose
 * `actions` hold CLICK alone is a shopper who merely clicked the product.
 */
export function leadVotes(votes: Iterable<Vote>, clicks: boolean): Vote[] {
  const out: Vote[] = [];
  for (const vote of votes) {
    const actions = clicks ? vote.actions : vote.actions & ~CLICK;
    if (actions !== 0) out.push({ ...vote, actions, position: undefined });
  }
  return out;
}
