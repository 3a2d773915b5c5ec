/**
 * The older item API (`POST /items` at `{base_url}`) and the item-context API
 * (`{base_url}/items/contexts...`), both for master-realm tokens. The tenant always comes from the
 * token; a `{tenantId}` in the path, or a `tenant` query parameter, may only repeat it.
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import type * as Wire from '@discovery-kit/protocol';
import type { ApiModule, ServerDeps } from '../api-module.js';
import { requireBearer } from '../http/bearer-guard.js';
import { HttpError } from '../http/errors.js';
import { jsonBody } from '../http/body.js';
import { parseActionBatch, parseContextCreate, parseContextRename } from './legacy-item-requests.js';
import { noStore } from '../http/no-store.js';

export function createLegacyItemsApi(deps: ServerDeps): ApiModule {
  const router = new Router();
  const catalog = deps.services.catalog;
  const auth = deps.services.auth;
  const body = jsonBody({ limit: deps.config.limits.bodyBytes, shape: { maxArrayLength: 100_000 } });
  // 500 actions of realistic size (a few KB each) pass 1 MiB: item batches get the catalog API's batch limit.
  const actionsBody = jsonBody({ limit: Math.max(deps.config.limits.bodyBytes, deps.config.limits.catalogBodyBytes), shape: { maxArrayLength: 100_000, maxStringLength: 1_000_000 } });
  const guard = requireBearer(auth, { realm: 'master' });
  // The path names a tenant: it must be the token's, or the caller learns nothing about another tenant's contexts.
  const tenantPathGuard = requireBearer(auth, { realm: 'master', requestedTenant: (ctx) => ctx.params.tenantId });

  const tenantOf = (ctx: Context): string => ctx.state.auth!.tenantId;

  router.use(noStore);

  // The older API has no environment parameter; its items live in the tenant's first configured environment.
  const environmentOf = (tenantId: string): string => {
    const environment = deps.registry.findTenant(tenantId)?.environments[0];
    if (environment === undefined) throw new HttpError(404, 'unknown_tenant', `No tenant "${tenantId}" is configured.`);
    return environment.id;
  };

  router.post('/items', guard, actionsBody, async (ctx) => {
    const tenantId = tenantOf(ctx);
    ctx.body = { results: await catalog.legacy.apply(tenantId, environmentOf(tenantId), parseActionBatch(ctx.request.body, tenantId)) } satisfies Wire.LegacyItemsResponse;
  });

  // Version switching (our addition; the interface only says other versions build the next catalog): docs/catalog.md.
  router.get('/items/versions/live', guard, async (ctx) => {
    const tenantId = tenantOf(ctx);
    ctx.body = { version: await catalog.legacy.liveVersion(tenantId, environmentOf(tenantId)) } satisfies Wire.LegacyVersionResponse;
  });

  router.post('/items/versions/:version/activate', guard, async (ctx) => {
    const raw = ctx.params.version!;
    if (!/^\d{1,7}$/.test(raw) || Number(raw) > 1_000_000) {
      throw new HttpError(400, 'invalid_parameter', `version "${raw}" is not an integer between 0 and 1000000`, { field: 'version' });
    }
    const tenantId = tenantOf(ctx);
    ctx.body = (await catalog.legacy.activateVersion(tenantId, environmentOf(tenantId), Number(raw))) satisfies Wire.LegacyActivateResponse;
  });

  router.get('/items/contexts/tenant/:tenantId', tenantPathGuard, async (ctx) => {
    ctx.body = (await catalog.contexts.list(tenantOf(ctx))) satisfies Wire.ItemContext[];
  });

  // GET only: the spec's example shows DELETE here under a "get" title; a read must never delete, so DELETE is a 405.
  router.get('/items/contexts/tenant/:tenantId/name/:contextName', tenantPathGuard, async (ctx) => {
    ctx.body = (await catalog.contexts.getByName(tenantOf(ctx), ctx.params.contextName!)) satisfies Wire.ItemContext;
  });

  router.get('/items/contexts/:itemContextId', guard, async (ctx) => {
    ctx.body = (await catalog.contexts.get(tenantOf(ctx), ctx.params.itemContextId!)) satisfies Wire.ItemContext;
  });

  router.put('/items/contexts', guard, body, async (ctx) => {
    ctx.body = (await catalog.contexts.create(tenantOf(ctx), parseContextCreate(ctx.request.body))) satisfies Wire.ItemContext;
    ctx.status = 201;
  });

  router.post('/items/contexts', guard, body, async (ctx) => {
    ctx.body = (await catalog.contexts.rename(tenantOf(ctx), parseContextRename(ctx.request.body))) satisfies Wire.ItemContext;
  });

  router.delete('/items/contexts/:itemContextId', guard, async (ctx) => {
    await catalog.contexts.delete(tenantOf(ctx), ctx.params.itemContextId!);
    ctx.status = 204;
  });

  return { name: 'legacy-items', mount: 'base', router, public: false };
}
