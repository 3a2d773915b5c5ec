/**
 * The admin API (`/admin/...`, docs/admin-api.md): console sign-in, and reading and changing at
 * runtime the widgets, search tokens with their configurations, and tracker keys of an environment,
 * with the audit log, analytics, search tuning, widget previews and the catalog's versions.
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import type * as Wire from '@discovery-kit/protocol';
import { z } from 'zod';
import type { ApiModule, ServerDeps } from '../api-module.js';
import { SESSION_COOKIE, SESSION_HOURS } from '../../domains/admin/console-sessions.js';
import { explainSearch } from '../../domains/admin/search-explain.js';
import { jsonBody, parseJson } from '../http/body.js';
import { declaredVariables, parseSearchContext } from '../search/search-context.js';
import { HttpError } from '../http/errors.js';
import { singleParam } from '../http/query.js';
import { parseInput } from '../http/validate.js';
import { adminScope, requireAdmin } from './admin-auth.js';
import { analyticsRoutes } from './analytics-routes.js';
import { catalogRoutes } from './catalog-routes.js';
import { learningRoutes } from './learning-routes.js';
import { privacyRoutes } from './privacy-routes.js';
import { experimentRoutes } from './experiment-routes.js';
import { noStore } from '../http/no-store.js';

export const signInSchema = z.strictObject({
  tenant: z.string().min(1).max(128),
  username: z.string().min(1).max(128),
  password: z.string().min(1).max(1024),
});

function intParam(ctx: Context, name: string, min: number, max: number, fallback: number): number {
  const raw = singleParam(ctx.query[name], name, `query.${name}`);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new HttpError(400, 'invalid_parameter', `query.${name} must be an integer from ${min} to ${max}.`, { field: `query.${name}` });
  }
  return value;
}

/** Explain's `context` parameter: JSON, refused naming the parameter (not "the request body"). */
function contextJson(text: string): unknown {
  try {
    return parseJson(text);
  } catch (error) {
    if (error instanceof HttpError) throw new HttpError(400, 'invalid_parameter', 'query.context is not valid JSON (a search request\'s context, URL-encoded).', { field: 'query.context' });
    throw error;
  }
}

export function createAdminApi(deps: ServerDeps): ApiModule {
  const router = new Router({ prefix: '/admin' });
  const { admin, sessions, search, recommendations, activities } = deps.services;
  const body = jsonBody({ limit: deps.config.limits.bodyBytes });
  const guard = requireAdmin(deps);
  router.use(noStore);

  router.post('/session', body, async (ctx) => {
    const input = parseInput(signInSchema, ctx.request.body);
    const { cookie, session } = await sessions.signIn(input.tenant, input.username, input.password);
    ctx.cookies.set(SESSION_COOKIE, cookie, { httpOnly: true, sameSite: 'strict', path: '/', secure: ctx.secure, maxAge: SESSION_HOURS * 3_600_000, overwrite: true });
    ctx.body = { tenant: session.tenantId, username: session.username, role: session.role, csrfToken: sessions.csrfToken(session), expiresAt: new Date(session.expiresAt).toISOString() } satisfies Wire.SignInResponse;
  });

  router.get('/session', guard, (ctx) => {
    const session = ctx.state.consoleSession;
    const actor = ctx.state.adminActor!;
    const tenant = deps.registry.findTenant(actor.tenantId)!;
    ctx.body = {
      tenant: actor.tenantId,
      username: session?.username ?? actor.id,
      role: actor.role,
      csrfToken: session === undefined ? undefined : sessions.csrfToken(session),
      environments: tenant.environments.map((e) => ({ id: e.id, name: e.name ?? e.id })),
    } satisfies Wire.AdminSessionResponse;
  });

  router.delete('/session', guard, async (ctx) => {
    if (ctx.state.consoleSession !== undefined) await sessions.signOut(ctx.state.consoleSession);
    ctx.cookies.set(SESSION_COOKIE, '', { httpOnly: true, sameSite: 'strict', path: '/', maxAge: 0, overwrite: true });
    ctx.status = 204;
  });

  router.get('/widgets', guard, (ctx) => {
    ctx.body = { widgets: admin.widgets(adminScope(deps, ctx)) } satisfies Wire.WidgetListResponse;
  });
  router.get('/widgets/:widgetId', guard, (ctx) => {
    ctx.body = admin.widget(adminScope(deps, ctx), ctx.params.widgetId!) satisfies Wire.AdminWidget;
  });
  router.put('/widgets/:widgetId', guard, body, async (ctx) => {
    ctx.body = (await admin.putWidget(ctx.state.adminActor!, adminScope(deps, ctx), ctx.params.widgetId!, ctx.request.body)) satisfies Wire.AdminWidget;
  });
  router.delete('/widgets/:widgetId', guard, async (ctx) => {
    await admin.deleteWidget(ctx.state.adminActor!, adminScope(deps, ctx), ctx.params.widgetId!);
    ctx.status = 204;
  });
  router.get('/widgets/:widgetId/preview', guard, async (ctx) => {
    const scope = adminScope(deps, ctx);
    const widget = admin.widget(scope, ctx.params.widgetId!);
    const productId = singleParam(ctx.query.productId, 'productId', 'query.productId');
    const profileId = singleParam(ctx.query.profileId, 'profileId', 'query.profileId');
    const explain = singleParam(ctx.query.explain, 'explain', 'query.explain');
    if (explain !== undefined && explain !== 'true' && explain !== 'false') throw new HttpError(400, 'invalid_parameter', 'query.explain must be true or false.', { field: 'query.explain' });
    const tenant = deps.registry.findTenant(scope.tenantId)!;
    const profile = profileId === undefined ? undefined : activities.findProfile(scope.tenantId, { profileId });
    if (profileId !== undefined && profile === undefined) throw new HttpError(404, 'not_found', `No profile "${profileId}".`, { field: 'query.profileId' });
    ctx.body = (await recommendations.recommend({
      ref: { tenant, environment: admin.environment(scope), widget },
      profileId: profile?.id,
      variables: productId === undefined ? {} : { $productId: productId },
      idsToBan: [],
      offset: 0,
      limit: undefined,
      explain: explain === 'true',
    })) satisfies Wire.WidgetPreviewResponse;
  });

  router.get('/search-tokens', guard, (ctx) => {
    ctx.body = { searchTokens: admin.searchTokens(adminScope(deps, ctx)) } satisfies Wire.SearchTokenListResponse;
  });
  router.post('/search-tokens', guard, body, async (ctx) => {
    ctx.body = (await admin.createSearchToken(ctx.state.adminActor!, adminScope(deps, ctx), ctx.request.body)) satisfies Wire.AdminSearchToken;
    ctx.status = 201;
  });
  router.get('/search-tokens/:token', guard, (ctx) => {
    ctx.body = admin.searchToken(adminScope(deps, ctx), ctx.params.token!) satisfies Wire.AdminSearchToken;
  });
  router.put('/search-tokens/:token', guard, body, async (ctx) => {
    ctx.body = (await admin.putSearchToken(ctx.state.adminActor!, adminScope(deps, ctx), ctx.params.token!, ctx.request.body)) satisfies Wire.AdminSearchToken;
  });
  router.delete('/search-tokens/:token', guard, async (ctx) => {
    await admin.revokeSearchToken(ctx.state.adminActor!, adminScope(deps, ctx), ctx.params.token!);
    ctx.status = 204;
  });
  router.post('/search-tokens/:token/rotate', guard, async (ctx) => {
    ctx.body = (await admin.rotateSearchToken(ctx.state.adminActor!, adminScope(deps, ctx), ctx.params.token!)) satisfies Wire.AdminSearchToken;
  });
  router.put('/search-tokens/:token/configurations/:configurationId', guard, body, async (ctx) => {
    ctx.body = (await admin.putSearchConfiguration(ctx.state.adminActor!, adminScope(deps, ctx), ctx.params.token!, ctx.params.configurationId!, ctx.request.body)) satisfies Wire.SearchConfigurationView;
  });
  router.get('/search-tokens/:token/explain', guard, (ctx) => {
    const scope = adminScope(deps, ctx);
    const token = admin.searchToken(scope, ctx.params.token!);
    const query = singleParam(ctx.query.q, 'q', 'query.q') ?? '';
    if (query.length > 500) throw new HttpError(400, 'invalid_parameter', 'query.q is longer than 500 characters.', { field: 'query.q' });
    const wanted = singleParam(ctx.query.configurationId, 'configurationId', 'query.configurationId') ?? token.defaultConfigurationId ?? token.configurations[0]!.id;
    const configuration = token.configurations.find((c) => c.id === wanted);
    if (configuration === undefined) throw new HttpError(404, 'not_found', `No configuration "${wanted}" in this search token.`, { field: 'query.configurationId' });
    // `context`: the search request's context as URL-encoded JSON, to explain what a shopper in it sees.
    const contextText = singleParam(ctx.query.context, 'context', 'query.context');
    const context = parseSearchContext(contextText === undefined || contextText === '' ? undefined : contextJson(contextText));
    const variables = declaredVariables(context, configuration.contextVariables);
    ctx.body = explainSearch({ search, tenantId: scope.tenantId, environmentId: scope.environmentId, configuration, query, limit: intParam(ctx, 'limit', 1, 100, 20), variables }) satisfies Wire.SearchExplanation;
  });

  router.get('/tracker-keys', guard, (ctx) => {
    ctx.body = { trackerKeys: admin.trackerKeys(adminScope(deps, ctx)) } satisfies Wire.TrackerKeyListResponse;
  });
  router.post('/tracker-keys', guard, async (ctx) => {
    ctx.body = { trackerKey: await admin.createTrackerKey(ctx.state.adminActor!, adminScope(deps, ctx)) } satisfies Wire.TrackerKeyResponse;
    ctx.status = 201;
  });
  router.post('/tracker-keys/:trackerKey/rotate', guard, async (ctx) => {
    ctx.body = { trackerKey: await admin.rotateTrackerKey(ctx.state.adminActor!, adminScope(deps, ctx), ctx.params.trackerKey!) } satisfies Wire.TrackerKeyResponse;
  });
  router.delete('/tracker-keys/:trackerKey', guard, async (ctx) => {
    await admin.revokeTrackerKey(ctx.state.adminActor!, adminScope(deps, ctx), ctx.params.trackerKey!);
    ctx.status = 204;
  });

  router.get('/audit', guard, async (ctx) => {
    const actor = ctx.state.adminActor!;
    const environment = singleParam(ctx.query.environment, 'environment', 'query.environment');
    ctx.body = { entries: await admin.audit.list(actor.tenantId, { limit: intParam(ctx, 'limit', 1, 500, 100), environment }) } satisfies Wire.AuditResponse;
  });

  catalogRoutes(router, deps, guard, intParam);
  analyticsRoutes(router, deps, guard, intParam);
  learningRoutes(router, deps, guard, body, intParam);
  privacyRoutes(router, deps, guard);
  experimentRoutes(router, deps, guard);
  return { name: 'admin', mount: 'base', router, public: false };
}
