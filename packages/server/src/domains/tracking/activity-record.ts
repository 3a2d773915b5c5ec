/** The shape of one line of the activity log, shared by the log, the aggregates and both tracking APIs. */

/**
 * The `profileId` of an activity that names no shopper (a collected activity without a usable `user`,
 * an older-tracker activity without `profile`): it counts for popularity and orders, never for a profile.
 */
export const UNATTRIBUTED = '';

/** One shopper activity as stored; both the collection API and the older tracker write this shape. */
export interface LoggedActivity {
  kind: 'activity';
  /** Server-made id, unique per tenant. */
  id: string;
  tenant: string;
  /** The profile the activity was recorded for; after a merge the profile directory maps it on. */
  profileId: string;
  /** `collect` for the collection API, `tracker` for the older tracker. */
  source: 'collect' | 'tracker';
  verb: string;
  /** `product`, `page`, or an older-tracker object type (`look`, `category`...). */
  type: string;
  itemId: string;
  /** When it happened (the client's timestamp when given), in ms since the epoch. */
  timestamp: number;
  /** When the server accepted it: retention and ordering use this, never the client's clock. */
  receivedAt: number;
  /** The client's activity id or idempotency key, so that a retried send counts once. */
  clientKey?: string;
  price?: number;
  quantity?: number;
  currency?: string;
  /** The order (or, for the older tracker's `buy`, the request batch) that groups bought items. */
  orderId?: string;
  sessionId?: string;
  datasourceId?: string;
  widgetId?: string;
  recommendationId?: string;
  sourceId?: string;
  /**
   * Set at collect time when the activity names a response (`sourceId`, `recommendationId`) or a widget:
   * `verified` only when every response id it names was issued to this tenant (response-ids.ts). Only
   * verified activities are credited to a widget, a search or anything learned; see isVerifiedAttribution.
   */
  attribution?: Attribution;
  query?: string;
  /**
   * A keyed digest of the sender's network (response-ids.ts `originOf`), set at collect time by the
   * collection and tracker APIs: search learning counts at most a few shoppers per origin, so sessions
   * made up behind one address cannot lift an item. Never the address itself; never shown by an API.
   */
  origin?: string;
  segments?: unknown;
  /** What the client sent beyond the fields above (target variants, extra metadata). */
  details?: Record<string, unknown>;
}

/** Whether an activity's named response was verified as issued to its tenant (see `LoggedActivity.attribution`). */
export type Attribution = 'verified' | 'unverified';

/**
 * Whether an activity may be credited to the response or widget it names: only when its ids verified at
 * collect time. An unverified one (made up, another tenant's, a widget id alone, or logged before ids were
 * signed) is kept and counted apart, never in click-through or experiments; search learning reads its
 * `metadata.query` only, once per shopper, query and item ever (search/learning/search-credit.ts).
 */
export function isVerifiedAttribution(activity: LoggedActivity): boolean {
  return activity.attribution === 'verified';
}

/**
 * Recommendation ids the recommendation API issued, as earlier versions logged them (a reserved block of
 * ids, `ids`, or one id with what it showed, `id` and `info`). Read from old logs and ignored: ids are
 * signed now (response-ids.ts), so nothing about them is logged.
 */
export interface LoggedRecommendation {
  kind: 'recommendation';
  tenant: string;
  receivedAt: number;
  ids?: { prefix: string; first: number; last: number };
  id?: string;
  info?: Record<string, unknown>;
}

/**
 * A response an experiment touched (experiments/experiment-ledger.ts): which experiment, which variant,
 * for which shopper, and the response id clicks name as their `sourceId`. Results are folded from these
 * and the activities after them, so they are the same after a restart and on every process.
 */
export interface LoggedExposure {
  kind: 'exposure';
  tenant: string;
  receivedAt: number;
  experiment: string;
  variant: string;
  /** The id the variant was drawn for (a profile id, a user id of the path, a search's session entry). */
  shopper: string;
  /**
   * The profile the shopper resolved to when the response was made (so later activities find their
   * exposure), else the shopper id itself (a session not seen yet): erasing the person removes the record either way.
   */
  profileId: string;
  responseId: string;
}

/**
 * An erasure's notice, on a log several processes share (PostgreSQL): the process that erased a person
 * removed their records and forgot them; every other process forgets them when it folds this. It names
 * the erased ids (the person's profiles, and the sessions their exposures were logged under) and nothing
 * else of them. It is removed again `activityLog.erasureNoticeSeconds` after it was written (by its own
 * `profileId`, an id of the notice), by when every running process has folded it and a process that
 * starts later replays a log without the person: by the process that wrote it and by every process that
 * folded it, so that a writer stopped early leaves it no longer.
 */
export interface LoggedErasure {
  kind: 'erasure';
  tenant: string;
  receivedAt: number;
  /** The notice's own id (`erasure-…`), under which it is removed. */
  profileId: string;
  profileIds: string[];
}

export type LogRecord = LoggedActivity | LoggedRecommendation | LoggedExposure | LoggedErasure;

export function isLogRecord(value: unknown): value is LogRecord {
  if (typeof value !== 'object' || value === null) return false;
  const kind = (value as { kind?: unknown }).kind;
  if (kind === 'erasure') {
    const ids = (value as { profileIds?: unknown }).profileIds;
    return Array.isArray(ids) && ids.every((id) => typeof id === 'string');
  }
  return kind === 'activity' || kind === 'recommendation' || kind === 'exposure';
}

/**
 * The idempotency key of one activity of a request: the client's own activity id when it sent one,
 * else the request's `Idempotency-Key` header with the activity's position in the batch.
 */
export function clientKeyFor(activityId: string | undefined, idempotencyKey: string | undefined, index: number): string | undefined {
  if (activityId !== undefined) return `id:${activityId}`;
  if (idempotencyKey !== undefined && idempotencyKey !== '') return `key:${idempotencyKey}#${index}`;
  return undefined;
}
