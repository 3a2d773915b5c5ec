/**
 * The one way an activity enters tracking: every API (collect, the older tracker, e-mail click links)
 * and every importer (the demo seed, the evaluation) reads its own wire format into an `ActivityInput`
 * and hands it here, so the stored shape and its rules live in one place:
 * - an activity without a profile is kept, unattributed (popularity and orders, no history);
 * - segments: the activity's own, else the user's sent with it, else the profile's from identify —
 *   the first that is present and not empty (an activity's own segments count even when empty);
 * - optional fields are stored only when present; an empty query is no query.
 */
import { UNATTRIBUTED, type LoggedActivity } from './activity-record.js';
import type { NewActivity } from './activity-service.js';

/** What an activity may carry: the stored fields (activity-record.ts) the sender gives, before the rules below. */
export type ActivityInput = Pick<LoggedActivity, 'source' | 'verb' | 'type' | 'itemId' | 'timestamp'> &
  Partial<Pick<LoggedActivity, (typeof OPTIONAL)[number] | 'query'>> & {
    /** The shopper's profile; absent when the activity names nobody. */
    profileId?: string;
    segments?: { activity?: unknown; user?: unknown; profile?: Record<string, unknown> };
    /** What the client sent beyond the known fields; stored only when not empty. */
    details?: Record<string, unknown>;
  };

const OPTIONAL = ['clientKey', 'price', 'quantity', 'currency', 'orderId', 'sessionId', 'datasourceId', 'widgetId', 'recommendationId', 'sourceId', 'origin'] as const;

export function newActivity(input: ActivityInput): NewActivity {
  const activity: NewActivity = {
    profileId: input.profileId ?? UNATTRIBUTED,
    source: input.source,
    verb: input.verb,
    type: input.type,
    itemId: input.itemId,
    timestamp: input.timestamp,
  };
  const optional = activity as unknown as Record<string, unknown>;
  for (const field of OPTIONAL) if (input[field] !== undefined) optional[field] = input[field];
  if (input.query !== undefined && input.query !== '') activity.query = input.query;
  const segments = segmentsOf(input.segments);
  if (segments !== undefined) activity.segments = segments;
  if (input.details !== undefined && Object.keys(input.details).length > 0) activity.details = input.details;
  return activity;
}

function segmentsOf(given: ActivityInput['segments']): unknown {
  if (given === undefined) return undefined;
  if (given.activity !== undefined) return given.activity;
  if (notEmpty(given.user)) return given.user;
  if (given.profile !== undefined && Object.keys(given.profile).length > 0) return { ...given.profile };
  return undefined;
}

function notEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  return Array.isArray(value) ? value.length > 0 : Object.keys(value).length > 0;
}
