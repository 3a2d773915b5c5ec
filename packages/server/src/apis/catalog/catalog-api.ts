/**
 * The catalog API (`{items_url}`): item schemas, catalog versions, items and promotion. Routes stay
 * thin: they check the token, resolve `tenant` and `environment`, read bodies with the right limit,
 * parse their shape (catalog-requests.ts, naming the bad field) and pick the status; the catalog
 * service checks what needs stored state.
 */
import Router from '@koa/router';
import type { Context, Next } from 'koa';
import type * as Wire from '@discovery-kit/protocol';
import type { ApiModule, ServerDeps } from '../api-module.js';
import { requireBearer } from '../http/bearer-guard.js';
import { singleParam } from '../http/query.js';
import { HttpError, notFound } from '../http/errors.js';
import { jsonBody } from '../http/body.js';
import { parseCatalogRequest, parseItemBatch, parseSchemaRequest } from './catalog-requests.js';
import type { StoredItem } from '../../domains/catalog/types.js';
import { noStore } from '../http/no-store.js';
import { DomainError } from '../../platform/domain-error.js';

interface CatalogScope {
  tenantId: string;
  environmentId: string;
}

declare module 'koa' {
  interface DefaultState {
    /** Set by the catalog API's scope middleware once `tenant` and `environment` name something configured. */
    catalogScope?: CatalogScope;
  }
}

/** A repeated parameter would let the guard and the handler read different values, so it is refused outright. */
function singleQuery(ctx: Context, name: string): string | undefined {
  return singleParam(ctx.query[name], name, `query.${name}`);
}

/** Versions are positive integers; anything else is a 400 rather than a 404, so a typo is told apart from a deleted catalog. */
export function parseVersion(raw: string | undefined, field: string): number {
  if (raw === undefined || !/^[1-9][0-9]{0,14}$/.test(raw)) {
    throw new HttpError(400, 'invalid_parameter', `${field} must be a positive integer${raw === undefined ? '' : `, not "${raw}"`}.`, { field });
  }
  return Number(raw);
}

/** The catalog-API view of an item: what was loaded, without the older API's fields that never apply here. */
function catalogItemView(item: StoredItem, catalogVersion: number): Wire.CatalogItemResponse {
  return {
    id: item.id,
    catalogVersion,
    type: item.type,
    ...(item.parentId !== undefined ? { parentId: item.parentId } : {}),
    attributes: item.attributes,
    updated: item.updated,
  };
}

export function createCatalogApi(deps: ServerDeps): ApiModule {
  const router = new Router();
  const catalog = deps.services.catalog;
  const smallBody = jsonBody({ limit: deps.config.limits.bodyBytes });
  // Item loads are the one place large bodies are expected (batches of thousands of items).
  const itemsBody = jsonBody({ limit: deps.config.limits.catalogBodyBytes, shape: { maxArrayLength: 1_000_000, maxStringLength: 1_000_000 } });

  async function resolveScope(ctx: Context, next: Next): Promise<void> {
    const { tenant, environment } = deps.registry.environment(singleQuery(ctx, 'tenant'), singleQuery(ctx, 'environment'));
    ctx.state.catalogScope = { tenantId: tenant.id, environmentId: environment.id };
    await next();
  }

  // The guard runs before the scope, so a caller without a valid token learns nothing about which tenants exist.
  router.use(noStore, requireBearer(deps.services.auth, { realm: 'tenant' }), resolveScope);

  const scopeOf = (ctx: Context): CatalogScope => ctx.state.catalogScope!;

  router.post('/item-schemas', smallBody, async (ctx) => {
    const { tenantId, environmentId } = scopeOf(ctx);
    ctx.body = (await catalog.schemas.create(tenantId, environmentId, parseSchemaRequest(ctx.request.body))) satisfies Wire.ItemSchemaResponse;
    ctx.status = 201;
  });

  router.get('/item-schemas', async (ctx) => {
    const { tenantId, environmentId } = scopeOf(ctx);
    ctx.body = { schemas: await catalog.schemas.list(tenantId, environmentId) } satisfies Wire.ItemSchemaListResponse;
  });

  router.post('/catalogs', smallBody, async (ctx) => {
    const { tenantId, environmentId } = scopeOf(ctx);
    ctx.body = (await catalog.catalogs.create(tenantId, environmentId, parseCatalogRequest(ctx.request.body))) satisfies Wire.CatalogRecord;
    ctx.status = 201;
  });

  router.get('/catalogs', async (ctx) => {
    const { tenantId, environmentId } = scopeOf(ctx);
    ctx.body = { catalogs: await catalog.catalogs.list(tenantId, environmentId) } satisfies Wire.CatalogListResponse;
  });

  // Registered before /catalogs/:version, which would otherwise take "active" as a version and refuse it.
  router.get('/catalogs/active', async (ctx) => {
    const { tenantId, environmentId } = scopeOf(ctx);
    const active = await catalog.catalogs.active(tenantId, environmentId);
    if (active === undefined) throw notFound('not_found', 'No catalog is active yet for this tenant and environment: promote one with POST /catalogs/promote/{version}.');
    ctx.body = active satisfies Wire.CatalogRecord;
  });

  router.get('/catalogs/:version', async (ctx) => {
    const { tenantId, environmentId } = scopeOf(ctx);
    ctx.body = (await catalog.catalogs.get(tenantId, environmentId, parseVersion(ctx.params.version, 'version'))) satisfies Wire.CatalogRecord;
  });

  router.delete('/catalogs/:version', async (ctx) => {
    const { tenantId, environmentId } = scopeOf(ctx);
    await catalog.catalogs.delete(tenantId, environmentId, parseVersion(ctx.params.version, 'version'));
    ctx.status = 204;
  });

  router.post('/catalogs/promote/:version', async (ctx) => {
    const { tenantId, environmentId } = scopeOf(ctx);
    const promotion = await catalog.catalogs.promote(tenantId, environmentId, parseVersion(ctx.params.version, 'version'));
    // The build outlives the request; its outcome is read later from GET /catalogs/{version} (the promise never rejects).
    void promotion.activation;
    ctx.status = promotion.catalog.state === 'active' ? 200 : 202;
    ctx.body = promotion.catalog satisfies Wire.CatalogRecord;
  });

  /** Runs a batch and records its outcome, stored or refused for the caller's mistake, for the console's last import. */
  async function importBatch(ctx: Context, mode: 'load' | 'patch'): Promise<Wire.ItemBatchResponse> {
    const { tenantId, environmentId } = scopeOf(ctx);
    const body: unknown = ctx.request.body;
    const received = Array.isArray(body) ? body.length : 0;
    const named = Array.isArray(body) ? (body[0] as { catalogVersion?: unknown } | undefined)?.catalogVersion : undefined;
    try {
      const items = parseItemBatch(body);
      const result = await (mode === 'load' ? catalog.items.load(tenantId, environmentId, items) : catalog.items.patch(tenantId, environmentId, items));
      await catalog.imports.record(tenantId, environmentId, { mode, catalogVersion: result.catalogVersion, received, stored: result.count });
      return result;
    } catch (error) {
      const refused = (error instanceof DomainError && error.kind !== 'internal' && error.kind !== 'unavailable') || (error instanceof HttpError && error.status < 500);
      if (refused) {
        const issues = error.issues ?? (error.field !== undefined ? [{ path: error.field, message: error.message }] : []);
        const catalogVersion = typeof named === 'number' && Number.isInteger(named) ? named : null;
        await catalog.imports.record(tenantId, environmentId, { mode, catalogVersion, received, stored: 0, error: error.message, issues });
      }
      throw error;
    }
  }

  router.post('/items', itemsBody, async (ctx) => {
    ctx.body = (await importBatch(ctx, 'load')) satisfies Wire.ItemBatchResponse;
  });

  router.patch('/items', itemsBody, async (ctx) => {
    ctx.body = (await importBatch(ctx, 'patch')) satisfies Wire.ItemBatchResponse;
  });

  // Not in the spec: lets an integrator check what a load stored. Without catalogVersion, the active catalog.
  router.get('/items/:id', async (ctx) => {
    const { tenantId, environmentId } = scopeOf(ctx);
    const raw = singleQuery(ctx, 'catalogVersion');
    let version: number;
    if (raw === undefined) {
      const active = await catalog.catalogs.active(tenantId, environmentId);
      if (active === undefined) throw notFound('not_found', 'No catalog is active yet: name one with the catalogVersion query parameter.', 'query.catalogVersion');
      version = active.version;
    } else {
      version = parseVersion(raw, 'query.catalogVersion');
      if ((await catalog.catalogs.find(tenantId, environmentId, version)) === undefined) {
        throw notFound('not_found', `No catalog version ${version} exists for this tenant and environment.`, 'query.catalogVersion');
      }
    }
    const id = ctx.params.id!;
    const item = await catalog.getItem(tenantId, environmentId, version, id);
    if (item === undefined) throw notFound('not_found', `No item "${id}" in catalog version ${version}.`, 'id');
    ctx.body = catalogItemView(item, version);
  });

  return { name: 'catalog', mount: 'items', router, public: false };
}
