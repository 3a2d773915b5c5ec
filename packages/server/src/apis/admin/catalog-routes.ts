/**
 * The console's catalog: the versions with their item counts, promoting one, the latest item imports
 * with what failed and why, and a page of a version's items (searched by id or title), or one item.
 */
import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type * as Wire from '@discovery-kit/protocol';
import type { ServerDeps } from '../api-module.js';
import { itemPage } from '../../domains/catalog/item-pages.js';
import { HttpError } from '../http/errors.js';
import { singleParam } from '../http/query.js';
import { parseVersion } from '../catalog/catalog-api.js';
import { adminScope } from './admin-auth.js';

type IntParam = (ctx: Context, name: string, min: number, max: number, fallback: number) => number;

export function catalogRoutes(router: Router, deps: ServerDeps, guard: Middleware, intParam: IntParam): void {
  const { admin, catalog } = deps.services;

  /** `catalogVersion` when given (it must exist), else the active version. */
  async function versionOf(ctx: Context, tenantId: string, environmentId: string): Promise<number> {
    const raw = singleParam(ctx.query.catalogVersion, 'catalogVersion', 'query.catalogVersion');
    if (raw === undefined) {
      const active = await catalog.catalogs.active(tenantId, environmentId);
      if (active === undefined) throw new HttpError(404, 'not_found', 'No catalog is active yet: name one with catalogVersion.', { field: 'query.catalogVersion' });
      return active.version;
    }
    const version = parseVersion(raw, 'query.catalogVersion');
    if ((await catalog.catalogs.find(tenantId, environmentId, version)) === undefined) {
      throw new HttpError(404, 'not_found', `No catalog version ${version} in this environment.`, { field: 'query.catalogVersion' });
    }
    return version;
  }

  router.get('/catalogs', guard, async (ctx) => {
    const scope = adminScope(deps, ctx);
    const versions = await catalog.catalogs.list(scope.tenantId, scope.environmentId);
    // At most two versions per environment: two counts.
    const catalogs = await Promise.all(versions.map(async (c) => ({ ...c, items: await catalog.countItems(scope.tenantId, scope.environmentId, c.version) })));
    ctx.body = { catalogs } satisfies Wire.AdminCatalogListResponse;
  });
  router.post('/catalogs/:version/promote', guard, async (ctx) => {
    const actor = ctx.state.adminActor!;
    if (actor.role !== 'edit') throw new HttpError(403, 'forbidden', 'This account may read but not promote (its role is "read").');
    const scope = adminScope(deps, ctx);
    const version = parseVersion(ctx.params.version, 'version');
    const promotion = await catalog.catalogs.promote(scope.tenantId, scope.environmentId, version);
    void promotion.activation;
    await admin.audit.append(scope.tenantId, { at: new Date(deps.clock.now()).toISOString(), actor: actor.id, action: 'catalog.promote', environment: scope.environmentId, target: `catalog:${version}`, before: null, after: promotion.catalog.state });
    ctx.status = promotion.catalog.state === 'active' ? 200 : 202;
    ctx.body = promotion.catalog satisfies Wire.CatalogRecord;
  });
  router.get('/catalog-imports', guard, async (ctx) => {
    const scope = adminScope(deps, ctx);
    ctx.body = { imports: await catalog.imports.list(scope.tenantId, scope.environmentId, intParam(ctx, 'limit', 1, 20, 5)) } satisfies Wire.AdminCatalogImportsResponse;
  });
  router.get('/items', guard, async (ctx) => {
    const scope = adminScope(deps, ctx);
    const q = (singleParam(ctx.query.q, 'q', 'query.q') ?? '').trim();
    if (q.length > 200) throw new HttpError(400, 'invalid_parameter', 'query.q is longer than 200 characters.', { field: 'query.q' });
    const offset = intParam(ctx, 'offset', 0, 10_000_000, 0);
    const limit = intParam(ctx, 'limit', 1, 100, 20);
    const version = await versionOf(ctx, scope.tenantId, scope.environmentId);
    const page = itemPage(await catalog.allItems(scope.tenantId, scope.environmentId, version), { q, offset, limit });
    ctx.body = { catalogVersion: version, q, total: page.total, offset, limit, items: page.items } satisfies Wire.AdminItemListResponse;
  });
  router.get('/items/:id', guard, async (ctx) => {
    const scope = adminScope(deps, ctx);
    const version = await versionOf(ctx, scope.tenantId, scope.environmentId);
    const item = await catalog.getItem(scope.tenantId, scope.environmentId, version, ctx.params.id!);
    if (item === undefined) throw new HttpError(404, 'not_found', `No item "${ctx.params.id}" in catalog version ${version}.`, { field: 'id' });
    ctx.body = { id: item.id, catalogVersion: version, type: item.type, attributes: item.attributes } satisfies Wire.AdminItemResponse;
  });
}
