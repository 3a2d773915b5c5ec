/**
 * The catalog service as the API modules call it: raw bodies go through the same request parsers
 * (apis/catalog, apis/legacy-items) before the domain sees them, without an HTTP round trip, so a
 * test can send any JSON and see the refusal a client would get.
 */
import { parseCatalogRequest, parseItemBatch, parseSchemaRequest } from '../../src/apis/catalog/catalog-requests.js';
import { parseActionBatch, parseContextCreate, parseContextRename } from '../../src/apis/legacy-items/legacy-item-requests.js';
import type { CatalogService } from '../../src/domains/catalog/catalog-service.js';

export function catalogRequests(service: CatalogService) {
  return {
    schemas: {
      create: async (tenantId: string, environmentId: string, body: unknown) => service.schemas.create(tenantId, environmentId, parseSchemaRequest(body)),
    },
    catalogs: {
      create: async (tenantId: string, environmentId: string, body: unknown) => service.catalogs.create(tenantId, environmentId, parseCatalogRequest(body)),
    },
    items: {
      load: async (tenantId: string, environmentId: string, body: unknown) => service.items.load(tenantId, environmentId, parseItemBatch(body)),
      patch: async (tenantId: string, environmentId: string, body: unknown) => service.items.patch(tenantId, environmentId, parseItemBatch(body)),
    },
    legacy: {
      apply: async (tenantId: string, environmentId: string, body: unknown) => service.legacy.apply(tenantId, environmentId, parseActionBatch(body, tenantId)),
    },
    contexts: {
      create: async (tenantId: string, body: unknown) => service.contexts.create(tenantId, parseContextCreate(body)),
      rename: async (tenantId: string, body: unknown) => service.contexts.rename(tenantId, parseContextRename(body)),
    },
  };
}

export type CatalogRequests = ReturnType<typeof catalogRequests>;
