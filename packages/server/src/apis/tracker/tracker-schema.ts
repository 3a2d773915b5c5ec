/** Request objects of the older tracker: `profile` for identify, `activity` (one or an array) for activity. */
import { z } from 'zod';

/** Verbs every tenant accepts, whatever its configured weights. */
export const MANDATORY_VERBS = ['view', 'add-to-cart', 'buy', 'like', 'dislike', 'click-on-reco'] as const;
export const MAX_TRACKER_BATCH = 500;
export const TRACKER_BODY_LIMIT = 256 * 1024;

const text = (max: number) => z.string().min(1).max(max);

export const identifyBodySchema = z.object({
  profile: z.object({
    id: text(128).optional(),
    datasources: z.array(z.object({ id: text(64), original_id: text(256) })).max(20).optional(),
    infos: z.record(z.string(), z.unknown()).optional(),
    segments: z.record(z.string(), z.unknown()).optional(),
  }),
});

export const trackerActivitySchema = z.object({
  /** A client-made id: the same id sent twice is counted once. */
  id: text(128).optional(),
  /** Omitted when client-side tags are used: such an activity is counted but belongs to no profile (docs/tracker.md). */
  profile: text(128).optional(),
  verb: z.string().regex(/^[a-z][a-z0-9-]{0,63}$/, 'verbs are lowercase words joined by "-"'),
  type: text(64).default('product'),
  original_id: text(256),
  price: z.int('price is an integer in cents').min(0).optional(),
  quantity: z.int('quantity is an integer').min(0).max(1_000_000).optional(),
  widgetId: text(128).optional(),
  recommendationId: text(256).optional(),
  segments: z.record(z.string(), z.unknown()).optional(),
});

export type TrackerActivity = z.output<typeof trackerActivitySchema>;

export const trackerBatchSchema = z
  .array(trackerActivitySchema)
  .min(1, 'at least one activity')
  .max(MAX_TRACKER_BATCH, `at most ${MAX_TRACKER_BATCH} activities per request`);

const pageNumber = (fallback: number, max: number) =>
  z.coerce.number().int('an integer').min(1).max(max).default(fallback);

/** A JSON:API filter value: one name or a comma list of names (`view,buy`), any of which matches. */
const filterList = z
  .string()
  .max(1000)
  .transform((value) => [...new Set(value.split(',').map((v) => v.trim()).filter((v) => v !== ''))])
  .refine((values) => values.length >= 1 && values.length <= 20, 'one to 20 comma-separated values')
  .refine((values) => values.every((v) => v.length <= 64), 'each value is at most 64 characters');

export const HISTORY_FILTERS = ['filter[type]', 'filter[verb]'] as const;

export const historyQuerySchema = z.object({
  'filter[type]': filterList.optional(),
  'filter[verb]': filterList.optional(),
  'page[number]': pageNumber(1, 1_000_000),
  'page[size]': pageNumber(20, 100),
});
