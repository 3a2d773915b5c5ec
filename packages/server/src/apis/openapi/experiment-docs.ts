/** The OpenAPI entries of the admin API's experiments (apis/admin/experiment-routes.ts), merged into ROUTE_DOCS. */
import { z } from 'zod';
import { EXPERIMENT_METRICS, experimentRequestSchema } from '../../domains/experiments/experiment-definitions.js';

const env = { tenant: "The caller's tenant (optional; another tenant's is refused with 403).", environment: 'Environment id (optional when the tenant has one).' };
/** The shape of a ROUTE_DOCS entry (route-docs.ts), the fields used here. */
interface AdminRouteDoc {
  summary: string;
  security: 'admin';
  query: Record<string, string>;
  body?: z.ZodType;
  ok?: { status?: number; description: string; schema?: z.ZodType };
}

const admin = (summary: string, extra: Partial<AdminRouteDoc> = {}): AdminRouteDoc => ({ summary, security: 'admin', query: env, ...extra });

const experiment = experimentRequestSchema.omit({ id: true }).extend({
  id: z.string(),
  status: z.enum(['draft', 'running', 'stopped']),
  createdAt: z.string(),
  updatedAt: z.string(),
  startedAt: z.string().optional(),
  stoppedAt: z.string().optional(),
  appliedVariant: z.string().optional(),
});

const rate = z.number();
const results = z.object({
  id: z.string(),
  status: z.enum(['draft', 'running', 'stopped']),
  primaryMetric: z.enum(EXPERIMENT_METRICS),
  from: z.string().optional(),
  to: z.string().optional(),
  variants: z.array(z.object({ variant: z.string(), weight: z.number(), users: z.number(), exposures: z.number(), clicks: z.number(), clickThroughRate: rate, addToCarts: z.number(), addToCartRate: rate, conversions: z.number(), conversionRate: rate, revenue: z.number(), revenuePerUser: z.number() })),
  comparisons: z.array(z.object({ variant: z.string(), metric: z.enum(EXPERIMENT_METRICS), difference: z.number(), lift: z.number(), ci95: z.tuple([z.number(), z.number()]), pValue: z.number(), adjustedPValue: z.number(), significant: z.boolean() })),
  outliers: z.object({ users: z.number(), threshold: z.number() }),
  srm: z.object({ pValue: z.number(), flagged: z.boolean() }),
  estimate: z.object({ lift: z.number(), usersPerVariant: z.number().nullable(), daysRemaining: z.number().nullable() }),
  days: z.array(z.object({ date: z.string(), variants: z.record(z.string(), z.object({ users: z.number(), exposures: z.number(), clicks: z.number(), conversions: z.number(), revenue: z.number() })) })),
  capped: z.boolean(),
});

export const EXPERIMENT_ROUTE_DOCS: Record<string, AdminRouteDoc> = {
  'admin GET /admin/experiments': admin('List the environment’s experiments (drafts, running, stopped).', { ok: { description: 'Experiments.', schema: z.object({ experiments: z.array(experiment) }) } }),
  'admin GET /admin/experiments/{experimentId}': admin('One experiment.', { ok: { description: 'The experiment.', schema: experiment } }),
  'admin PUT /admin/experiments/{experimentId}': admin('Define or replace a draft: a widget or search token, 2 to 5 variants with integer weights summing to 100, the first the control; each other variant overrides fields of the widget or search configuration. Once started, only the name and primary metric change.', { body: experimentRequestSchema, ok: { description: 'The stored experiment.', schema: experiment } }),
  'admin DELETE /admin/experiments/{experimentId}': admin('Delete a draft or stopped experiment (and its results); a running one is refused (409).', { ok: { status: 204, description: 'Deleted.' } }),
  'admin POST /admin/experiments/{experimentId}/start': admin('Start a draft: shoppers are drawn into variants from now on. One running experiment per surface (409).', { ok: { description: 'The running experiment.', schema: experiment } }),
  'admin POST /admin/experiments/{experimentId}/stop': admin('Stop a running experiment: every shopper gets the surface as it is again; results stay.', { ok: { description: 'The stopped experiment.', schema: experiment } }),
  'admin POST /admin/experiments/{experimentId}/apply': admin('Write a stopped experiment’s variant into its widget or search configuration (audited).', { body: z.strictObject({ variant: z.string() }), ok: { description: 'The experiment, with appliedVariant.', schema: experiment } }),
  'admin GET /admin/experiments/{experimentId}/results': admin('Per variant users, exposures, click-through, add-to-cart and conversion rates, revenue; each variant against the control with lift, 95% interval, p-value (Benjamini–Hochberg adjusted); outliers, sample ratio mismatch, days to detect a 5% lift.', { ok: { description: 'Results, folded from the activity log.', schema: results } }),
};
