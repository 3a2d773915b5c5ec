/**
 * The collection API's activity object, as the storefront tracker, `sendBeacon` and the interface's
 * published activity client send it. Lenient where the interface is (see docs/tracking.md,
 * "What collect accepts"), bounded everywhere.
 */
import { z } from 'zod';

export const COLLECT_ACTIONS = ['click', 'view', 'add-to-cart', 'remove-from-cart', 'purchase'] as const;
/** Largest batch in one request; bigger batches are refused whole. */
export const MAX_COLLECT_BATCH = 500;
/** Identity names one user may carry: enough for any shop, small enough that a user object stays small. */
export const MAX_IDENTITIES = 16;
/** The identity name the published activity client puts on every activity: an anonymous id it keeps in storage. */
export const SESSION_IDENTITY = 'sessionid';
/** A `metadata` string that is not a JSON object is kept as sent, up to this length. */
const MAX_METADATA_STRING = 4096;

const text = (max: number) => z.string().min(1).max(max);
/** Product ids may come as numbers (shops whose ids are integers); they are stored as strings. */
const productId = z.union([text(256), z.number().int().safe().transform(String)]);

const target = z
  .looseObject({
    product: productId.optional(),
    page: text(2048).optional(),
    pathToPage: text(2048).optional(),
    'search-terms': z.string().max(500).optional(),
    campaign: text(256).optional(),
    facet: z.union([z.string().max(256), z.record(z.string(), z.unknown())]).optional(),
  })
  .refine((t) => [t.product, t.page, t.pathToPage].filter((v) => v !== undefined).length === 1, {
    message: 'a target names exactly one of "product", "page" or "pathToPage"',
  });

const identityName = z.string().regex(/^[A-Za-z0-9_.:@-]{1,64}$/, 'identity names are 1 to 64 letters, digits or "_.:@-"');

const user = z.object({
  identities: z
    .record(identityName, text(256))
    .refine((ids) => Object.keys(ids).length <= MAX_IDENTITIES, `at most ${MAX_IDENTITIES} identities`)
    .optional(),
  /** The anonymous id a browser keeps for the visitor until they log in. */
  sessionId: text(128).optional(),
  /** The profile id a client got from identify or a previous response (the tracker's cookie). */
  profileId: text(128).optional(),
  traits: z.record(z.string(), z.unknown()).optional(),
  segments: z.union([z.array(z.string().max(200)).max(100), z.record(z.string(), z.unknown())]).optional(),
});

const metadataObject = z.looseObject({
  quantity: z.int('quantity is an integer').min(0).max(1_000_000).optional(),
  orderId: text(128).optional(),
  widgetId: text(128).optional(),
  locale: text(35).optional(),
  price: z.int('price is an integer in cents (multiply a decimal price by 100)').min(0).optional(),
  currency: z.string().regex(/^[A-Z]{3}$/, 'currency is an ISO 4217 code such as "EUR"').optional(),
  query: z.string().max(500).optional(),
  variant: text(256).optional(),
});
type MetadataObject = z.output<typeof metadataObject>;

/**
 * The parameter table declares `metadata` a string, every example sends an object: an object, or a
 * string holding a JSON object, is read as metadata; any other string is kept verbatim (`raw`).
 */
const metadata = z.unknown().transform((value, ctx): { fields: MetadataObject; raw?: string } => {
  let candidate = value;
  if (typeof value === 'string') {
    if (value.length > MAX_METADATA_STRING) {
      ctx.addIssue({ code: 'custom', message: `a metadata string is at most ${MAX_METADATA_STRING} characters` });
      return z.NEVER;
    }
    candidate = jsonObjectOrUndefined(value);
    if (candidate === undefined) return { fields: {}, raw: value };
  }
  const parsed = metadataObject.safeParse(candidate);
  if (parsed.success) return { fields: parsed.data };
  for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  return z.NEVER;
});

function jsonObjectOrUndefined(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** ISO 8601 with or without an offset; without one, the time is read as UTC (see docs/tracking.md). */
const timestamp = z.iso
  .datetime({ offset: true, local: true, message: 'timestamp is an ISO 8601 date-time such as 2026-11-21T12:00:00Z' })
  .transform((value) => Date.parse(/(Z|[+-]\d{2}(:?\d{2})?)$/i.test(value) ? value : `${value}Z`));

const activityShape = {
  /** A client-made id: the same id sent twice is counted once. */
  id: text(128).optional(),
  action: z.enum(COLLECT_ACTIONS),
  target,
  /** Optional here although the spec table says mandatory: see docs/tracking.md. */
  sourceId: text(256).optional(),
  /** Optional: the interface does not make it mandatory; an activity without one is counted but attributed to no profile. */
  user: user.optional(),
  metadata: metadata.optional(),
  segments: z.array(z.string().max(200)).max(100).optional(),
  timestamp: timestamp.optional(),
  /** Sent by the published client's schema (`opposite`: an undo of the action); kept with the activity. */
  opposite: z.boolean().optional(),
};

export const collectActivitySchema = z.object(activityShape);

export type CollectActivity = z.output<typeof collectActivitySchema>;
export type CollectActivityInput = z.input<typeof collectActivitySchema>;

export const collectBatchSchema = z
  .array(collectActivitySchema)
  .min(1, 'a batch holds at least one activity')
  .max(MAX_COLLECT_BATCH, `a batch holds at most ${MAX_COLLECT_BATCH} activities`);
