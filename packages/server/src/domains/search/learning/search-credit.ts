/**
 * Which query an activity teaches, and how much its word counts. A search's response id comes back as
 * the activity's `sourceId` and the toolkit sends the query in `metadata.query`; the published clients
 * do likewise. The key is taken from the activity's own query whenever it carries one, so that every
 * process folding the shared log files it under the same key; the search ledger of the process that
 * answered the search adds the position the shopper really saw, and the key when the query is missing.
 */
import { isVerifiedAttribution, type LoggedActivity } from '../../tracking/activity-record.js';
import { SearchLedger } from './search-ledger.js';

export const CLICK = 1;
export const ADD_TO_CART = 2;
export const PURCHASE = 4;

/** The actions learning reads, as bits of a vote (a product view after a search counts as its click). */
export const ACTION_OF: Readonly<Record<string, number>> = { click: CLICK, view: CLICK, 'add-to-cart': ADD_TO_CART, purchase: PURCHASE, buy: PURCHASE };

/** A position a client claims is believed up to here: deeper claims would weigh more without bound. */
export const MAX_CLAIMED_POSITION = 100;

export interface SearchCredit {
  key: string;
  /** Where the item was shown (1-based), when known. */
  position: number | undefined;
  /**
   * The search id verified at collect time (activity-record.ts `isVerifiedAttribution`, the one place that
   * decides): the shopper's votes count once per query, item and day. Otherwise the activity credits a
   * query only through `metadata.query`, once per shopper, query and item ever.
   */
  verified: boolean;
}

/** What `activity` teaches, or undefined when it names no search (a recommendation's click, a bare product view). */
export function creditOf(activity: LoggedActivity, ledger: SearchLedger, keyOf: (query: string) => string): SearchCredit | undefined {
  if (activity.widgetId !== undefined || activity.recommendationId !== undefined) return undefined;
  const entry = activity.sourceId === undefined ? undefined : ledger.get(activity.tenant, activity.sourceId);
  const key = activity.query !== undefined ? keyOf(activity.query) : entry?.key;
  if (key === undefined || key === '') return undefined;
  const shown = entry?.key === key ? SearchLedger.positionOf(entry, activity.itemId) : undefined;
  return { key, position: shown ?? claimedPosition(activity), verified: isVerifiedAttribution(activity) };
}

/** `metadata.position` as the client sent it: a whole number from 1, else nothing. */
function claimedPosition(activity: LoggedActivity): number | undefined {
  const metadata = activity.details?.metadata;
  if (typeof metadata !== 'object' || metadata === null) return undefined;
  const position = (metadata as Record<string, unknown>).position;
  return typeof position === 'number' && Number.isInteger(position) && position >= 1 ? Math.min(position, MAX_CLAIMED_POSITION) : undefined;
}
