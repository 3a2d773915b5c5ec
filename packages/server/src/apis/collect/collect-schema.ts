/** The collection API's activity object, as the storefront tracker and `sendBeacon` send it. */
import { z } from 'zod';

export const COLLECT_ACTIONS = ['click', 'view', 'add-to-cart', 'remove-from-cart', 'purchase'] as const;
/** Largest batch in one request; bigger batches are refused whole. */
export const MAX_COLLECT_BATCH = 500;

const text = (max: number) => z.string().min(1).max(max);

const target = z
  .looseObject({
    product: text(256).optional(),
    page: text(2048).optional(),
    pathToPage: text(2048).optional(),
    'search-terms': z.string().max(500).optional(),
    campaign: text(256).optional(),
    facet: z.union([z.string().max(256), z.record(z.string(), z.unknown())]).optional(),
  })
  .refine((t) => [t.product, t.page, t.pathToPage].filter((v) => v !== undefined).length === 1, {
    message: 'a target names exactly one of "product", "page" or "pathToPage"',
  });

const user = z.object({
  identities: z.record(z.string().min(1).max(64), text(256)).optional(),
  /** The anonymous id a browser keeps for the visitor until they log in. */
  sessionId: text(128).optional(),
  /** The profile id a client got from identify or a previous response (the tracker's cookie). */
  profileId: text(128).optional(),
  traits: z.record(z.string(), z.unknown()).optional(),
  segments: z.union([z.array(z.string().max(200)).max(100), z.record(z.string(), z.unknown())]).optional(),
});

const metadata = z.looseObject({
  quantity: z.int('quantity is an integer').min(0).max(1_000_000).optional(),
  orderId: text(128).optional(),
  widgetId: text(128).optional(),
  locale: text(35).optional(),
  price: z.int('price is an integer in cents (multiply a decimal price by 100)').min(0).optional(),
  currency: z.string().regex(/^[A-Z]{3}$/, 'currency is an ISO 4217 code such as "EUR"').optional(),
  query: z.string().max(500).optional(),
  variant: text(256).optional(),
});

const activityShape = {
  /** A client-made id: the same id sent twice is counted once. */
  id: text(128).optional(),
  action: z.enum(COLLECT_ACTIONS),
  target,
  /** Optional here although the spec table says mandatory: see docs/tracking.md. */
  sourceId: text(256).optional(),
  user: user.refine((u) => Object.keys(u.identities ?? {}).length > 0 || u.sessionId !== undefined || u.profileId !== undefined, {
    message: 'user needs "identities", a "sessionId" or a "profileId" so the activity can be attributed',
  }),
  metadata: metadata.optional(),
  segments: z.array(z.string().max(200)).max(100).optional(),
  timestamp: z.iso.datetime({ offset: true, message: 'timestamp is an ISO 8601 date-time such as 2026-11-21T12:00:00Z' }).optional(),
};

const collectActivitySchema = z.object(activityShape);

export type CollectActivity = z.output<typeof collectActivitySchema>;

export interface CollectSchemas {
  single: z.ZodType<CollectActivity>;
  batch: z.ZodType<CollectActivity[]>;
}

const schemasByRepositories = new Map<string, CollectSchemas>();

/**
 * The schemas for a tenant's identity repositories: an unknown repository is one more field issue,
 * reported with the others, rather than a second round of errors after the client fixed the first.
 */
export function collectSchemas(repositories: readonly string[]): CollectSchemas {
  const cacheKey = repositories.join('\u0000');
  const cached = schemasByRepositories.get(cacheKey);
  if (cached !== undefined) return cached;
  const expected = repositories.length === 0 ? 'this tenant configures none' : `expected one of ${repositories.map((r) => `"${r}"`).join(', ')}`;
  const single = collectActivitySchema.superRefine((activity, ctx) => {
    for (const name of Object.keys(activity.user.identities ?? {})) {
      if (!repositories.includes(name)) {
        ctx.addIssue({ code: 'custom', path: ['user', 'identities', name], message: `unknown identity repository "${name}"; ${expected}` });
      }
    }
  });
  const batch = z
    .array(single)
    .min(1, 'a batch holds at least one activity')
    .max(MAX_COLLECT_BATCH, `a batch holds at most ${MAX_COLLECT_BATCH} activities`);
  const schemas = { single, batch };
  schemasByRepositories.set(cacheKey, schemas);
  return schemas;
}
