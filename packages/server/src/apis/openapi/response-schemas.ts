/** Zod schemas of the responses the OpenAPI document describes precisely; the test validates real answers against the document made from them. */
import { z } from 'zod';

export const errorResponse = z.object({
  error: z.object({
    status: z.number().int(),
    code: z.string(),
    message: z.string(),
    field: z.string().optional(),
    issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    requestId: z.string().optional(),
  }),
});

export const healthResponse = z.object({ status: z.literal('ok'), version: z.string(), uptimeSeconds: z.number().int().min(0), tenants: z.number().int().min(0) });

export const sessionResponse = z.object({
  tenant: z.string(),
  username: z.string(),
  role: z.enum(['read', 'edit']),
  csrfToken: z.string().optional(),
  expiresAt: z.string().optional(),
  environments: z.array(z.object({ id: z.string(), name: z.string() })).optional(),
});

const widgetCounts = {
  impressions: z.number().int().min(0),
  clicks: z.number().int().min(0),
  addToCarts: z.number().int().min(0),
  purchases: z.number().int().min(0),
  /** Minor currency units (cents). */
  revenue: z.number(),
  clickThrough: z.number().min(0),
};

const periodTotals = z.object({
  from: z.string(),
  to: z.string(),
  ...Object.fromEntries(['searches', 'zeroResultSearches', 'searchClicks', 'searchConversions', 'widgetImpressions', 'widgetClicks', 'widgetPurchases'].map((name) => [name, z.number().int().min(0)])),
  searchRevenue: z.number().min(0),
  widgetRevenue: z.number().min(0),
});

export const analyticsResponse = z.object({
  environment: z.string(),
  currency: z.string().length(3).optional(),
  days: z.array(
    z.object({
      date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
      activities: z.number().int().min(0),
      verbs: z.record(z.string(), z.number().int()),
      searches: z.number().int().min(0),
      zeroResultSearches: z.number().int().min(0),
      searchClicks: z.number().int().min(0),
      searchConversions: z.number().int().min(0),
      searchRevenue: z.number().min(0),
      widgets: z.record(z.string(), z.object(widgetCounts)),
    }),
  ),
  widgets: z.array(z.object({ widgetId: z.string(), ...widgetCounts, conversionRate: z.number().min(0), unverified: z.object(widgetCounts).omit({ clickThrough: true }) })),
  totals: z.object({ current: periodTotals, previous: periodTotals }),
});

const queryRow = z.object({
  query: z.string(),
  searches: z.number().int(),
  zeroResults: z.number().int(),
  corrected: z.number().int(),
  lastResultCount: z.number().int(),
  clicks: z.number().int(),
  conversions: z.number().int(),
  clickThrough: z.number(),
  conversionRate: z.number(),
});

export const queriesResponse = z.object({ days: z.number().int(), top: z.array(queryRow), zeroResult: z.array(queryRow), corrected: z.array(queryRow) });

export const perMinuteResponse = z.object({ minutes: z.array(z.object({ at: z.string(), count: z.number().int().min(0) })) });

export const auditResponse = z.object({
  entries: z.array(z.object({ at: z.string(), actor: z.string(), action: z.string(), environment: z.string(), target: z.string(), before: z.unknown(), after: z.unknown() })),
});

const learnedItem = z.object({
  id: z.string(),
  lift: z.number().min(0).max(1),
  shoppers: z.number().int(),
  clicks: z.number().int(),
  addToCarts: z.number().int(),
  purchases: z.number().int(),
  strength: z.number(),
});

export const explainResponse = z.object({
  query: z.string(),
  configurationId: z.string(),
  count: z.number().int(),
  redirect: z.object({ id: z.string(), name: z.string(), url: z.string() }).optional(),
  rule: z.object({ pin: z.array(z.string()), boost: z.array(z.string()), bury: z.array(z.string()) }).optional(),
  /** The rules and redirect that fired: their query and each context variable whose condition held. */
  fired: z.array(
    z.object({
      kind: z.enum(['rule', 'redirect']),
      index: z.number().int(),
      query: z.string().optional(),
      because: z.array(z.object({ variable: z.string(), value: z.string(), condition: z.unknown() })),
    }),
  ),
  synonyms: z.array(z.array(z.string())),
  hits: z.array(
    z.object({
      position: z.number().int(),
      id: z.string(),
      score: z.number(),
      title: z.string(),
      photo: z.string(),
      price: z.number().optional(),
      currency: z.string().optional(),
      rule: z.enum(['pinned', 'boosted', 'buried']).optional(),
      matchedFields: z.array(z.object({ attribute: z.string(), weight: z.number(), words: z.array(z.string()) })),
      textPosition: z.number().int().min(1).optional(),
      learned: learnedItem.optional(),
      joined: z.literal(true).optional().describe('The query does not match it: shoppers who searched the query went on to cart or buy it.'),
    }),
  ),
  learning: z
    .object({ key: z.string(), enabled: z.boolean(), votes: z.number().int(), shoppers: z.number().int(), resetAt: z.number().int().optional(), items: z.array(learnedItem), leads: z.array(learnedItem) })
    .optional(),
});

export const learningListResponse = z.object({
  configurationId: z.string(),
  enabled: z.boolean(),
  queries: z.array(z.object({ key: z.string(), votes: z.number().int(), shoppers: z.number().int(), lastVoteAt: z.number().int(), resetAt: z.number().int().optional() })),
});

export const learningResetResponse = z.object({ configurationId: z.string(), key: z.string(), at: z.number().int() });

export const trackerKeyResponse = z.object({ trackerKey: z.string() });
export const trackerKeysResponse = z.object({ trackerKeys: z.array(z.string()) });

export const catalogImportsResponse = z.object({
  imports: z.array(
    z.object({
      at: z.string(),
      mode: z.enum(['load', 'patch']),
      catalogVersion: z.number().int().nullable(),
      received: z.number().int().min(0),
      stored: z.number().int().min(0),
      error: z.string().optional(),
      issues: z.array(z.object({ path: z.string(), message: z.string() })),
      issueCount: z.number().int().min(0),
    }),
  ),
});

export const itemListResponse = z.object({
  catalogVersion: z.number().int(),
  q: z.string(),
  total: z.number().int().min(0),
  offset: z.number().int().min(0),
  limit: z.number().int().min(1),
  items: z.array(
    z.object({ id: z.string(), type: z.string(), parentId: z.string().optional(), title: z.string(), photo: z.string(), price: z.number().optional(), currency: z.string().optional() }),
  ),
});
