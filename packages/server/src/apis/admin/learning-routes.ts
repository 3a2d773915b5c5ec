/**
 * Search learning for merchandisers (docs/admin-api.md): the keys it holds votes for, and resetting
 * one. A reset is a change of the search configuration (its `learning.resets`), so it is audited,
 * reaches every process as any configuration change does, and holds after a restart; switching
 * learning off is the configuration's `learning.enabled`, through the configuration routes.
 */
import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type * as Wire from '@discovery-kit/protocol';
import { z } from 'zod';
import type { ServerDeps } from '../api-module.js';
import type { SearchConfiguration, SearchTokenConfig } from '../../platform/config/schema.js';
import { resetOf } from '../../domains/search/learning/learned-signal.js';
import { MAX_KEY_CHARS } from '../../domains/search/learning/query-key.js';
import { HttpError } from '../http/errors.js';
import { singleParam } from '../http/query.js';
import { parseInput } from '../http/validate.js';
import { adminScope } from './admin-auth.js';

/** Resets kept per configuration: the oldest goes first (its votes have long decayed). */
const MAX_RESETS = 1_000;

type IntParam = (ctx: Context, name: string, min: number, max: number, fallback: number) => number;

export const learningResetSchema = z
  .strictObject({
    configurationId: z.string().min(1).max(128).optional(),
    /** A query as shoppers type it: reset under the key it is learned under. */
    query: z.string().min(1).max(1_000).optional(),
    /** A key as the learning list shows it (a browse request's `browse:...`). */
    key: z.string().min(1).max(MAX_KEY_CHARS).optional(),
  })
  .refine((body) => (body.query === undefined) !== (body.key === undefined), { message: 'give either query or key', path: ['query'] });

function configurationOf(token: SearchTokenConfig, wanted: string | undefined, field: string): SearchConfiguration {
  const id = wanted ?? token.defaultConfigurationId ?? token.configurations[0]!.id;
  const configuration = token.configurations.find((c) => c.id === id);
  if (configuration === undefined) throw new HttpError(404, 'not_found', `No configuration "${id}" in this search token.`, { field });
  return configuration;
}

export function learningRoutes(router: Router, deps: ServerDeps, guard: Middleware, body: Middleware, intParam: IntParam): void {
  const { admin, search } = deps.services;

  router.get('/search-tokens/:token/learning', guard, (ctx) => {
    const scope = adminScope(deps, ctx);
    const token = admin.searchToken(scope, ctx.params.token!);
    const configuration = configurationOf(token, singleParam(ctx.query.configurationId, 'configurationId', 'query.configurationId'), 'query.configurationId');
    const limit = intParam(ctx, 'limit', 1, 500, 100);
    const queries = (search.learning?.queries(scope.tenantId) ?? []).slice(0, limit).map((query) => {
      const resetAt = resetOf(configuration, query.key);
      return resetAt > 0 ? { ...query, resetAt } : query;
    });
    ctx.body = { configurationId: configuration.id, enabled: configuration.learning.enabled, queries } satisfies Wire.SearchLearningListResponse;
  });

  router.post('/search-tokens/:token/learning/reset', guard, body, async (ctx) => {
    const scope = adminScope(deps, ctx);
    const input = parseInput(learningResetSchema, ctx.request.body);
    const token = admin.searchToken(scope, ctx.params.token!);
    const configuration = configurationOf(token, input.configurationId, 'configurationId');
    const key = input.key ?? search.learningKey(scope.tenantId, scope.environmentId, configuration, input.query!);
    if (key === '') throw new HttpError(400, 'invalid_parameter', 'query has no words to learn under.', { field: 'query' });
    const at = deps.clock.now();
    const resets = [...configuration.learning.resets.filter((reset) => reset.key !== key), { key, at }].slice(-MAX_RESETS);
    await admin.putSearchConfiguration(ctx.state.adminActor!, scope, token.token, configuration.id, { ...configuration, learning: { ...configuration.learning, resets } });
    ctx.body = { configurationId: configuration.id, key, at } satisfies Wire.SearchLearningResetResponse;
  });
}
