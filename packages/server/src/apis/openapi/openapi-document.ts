/**
 * The OpenAPI 3.1 document, generated from what the server really mounts: every route of every API
 * module (at its configured prefix), described by ROUTE_DOCS, with request and response schemas
 * converted from the zod schemas the routes validate with (`z.toJSONSchema`).
 */
import { z } from 'zod';
import type { ApiModule } from '../api-module.js';
import type { LoadedConfig } from '../../platform/config/load.js';
import { VERSION } from '../../platform/version.js';
import { errorResponse } from './response-schemas.js';
import { ROUTE_DOCS, type RouteDoc, type Security } from './route-docs.js';

export interface MountedRoute {
  api: ApiModule;
  method: string;
  /** As the router has it (`/widget/:widgetId/recommendations{/*rest}`), prefix included. */
  routerPath: string;
  /** OpenAPI paths it stands for: optional groups give one path with and one without. */
  paths: string[];
  /** The ROUTE_DOCS key of each path. */
  keys: string[];
}

/** `:name` → `{name}`, `*name` → `{name}`; each optional `{...}` group doubles the variants. */
export function openApiPaths(routerPath: string): string[] {
  let variants = [''];
  const parts = routerPath.split(/(\{[^}]*\})/).filter((p) => p !== '');
  for (const part of parts) {
    const isGroup = part.startsWith('{') && part.endsWith('}') && !/^\{[A-Za-z0-9_]+\}$/.test(part);
    const text = (isGroup ? part.slice(1, -1) : part).replace(/[:*]([A-Za-z0-9_]+)/g, '{$1}');
    variants = isGroup ? variants.flatMap((v) => [v, v + text]) : variants.map((v) => v + text);
  }
  return variants;
}

interface Layer {
  path: string;
  methods: string[];
}

/** Every route the modules mount, HEAD folded into GET (Koa answers HEAD for every GET). */
export function mountedRoutes(apis: readonly ApiModule[], config: LoadedConfig): MountedRoute[] {
  const routes: MountedRoute[] = [];
  for (const api of apis) {
    const prefix = config.mounts[api.mount];
    for (const layer of (api.router as unknown as { stack: Layer[] }).stack) {
      for (const method of layer.methods) {
        if (method === 'HEAD') continue;
        const paths = openApiPaths(layer.path);
        const local = (path: string) => (prefix !== '/' && path.startsWith(prefix) ? path.slice(prefix.length) || '/' : path);
        routes.push({ api, method, routerPath: layer.path, paths, keys: paths.map((p) => `${api.name} ${method} ${local(p)}`) });
      }
    }
  }
  return routes;
}

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
};

const SECURITY: Record<Exclude<Security, 'none'>, Array<Record<string, string[]>>> = {
  tenantBearer: [{ tenantBearer: [] }],
  masterBearer: [{ masterBearer: [] }],
  admin: [{ adminBearer: [] }, { consoleSession: [] }],
};

function operation(route: MountedRoute, path: string, doc: RouteDoc | undefined): Record<string, unknown> {
  const parameters: Array<Record<string, unknown>> = [...path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
  for (const [name, description] of Object.entries(doc?.query ?? {})) parameters.push({ name, in: 'query', required: false, description, schema: { type: 'string' } });
  if (route.method === 'OPTIONS') {
    return { tags: [route.api.name], summary: 'CORS preflight of a public browser API.', parameters, responses: { '204': { description: 'Allowed methods and headers.' } } };
  }
  const ok = doc?.ok ?? { description: 'Success.' };
  const okContent = ok.schema !== undefined ? { 'application/json': { schema: jsonSchema(ok.schema, 'output') } } : ok.type !== undefined ? { [ok.type]: {} } : { 'application/json': {} };
  const responses: Record<string, unknown> = {
    [String(ok.status ?? 200)]: { description: ok.description, ...(ok.status === 204 || ok.status === 302 ? {} : { content: okContent }) },
    '4XX': { description: 'Refused: the error names the field when one is at fault.', content: { 'application/json': { schema: jsonSchema(errorResponse, 'output') } } },
  };
  const op: Record<string, unknown> = {
    tags: [route.api.name],
    summary: doc?.summary ?? `${route.method} ${path}`,
    operationId: `${route.method.toLowerCase()}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`,
    parameters,
    responses,
  };
  if (doc === undefined) op['x-undocumented'] = true;
  if (doc?.description !== undefined) op.description = doc.description;
  if (doc?.security !== undefined && doc.security !== 'none') op.security = SECURITY[doc.security];
  if (doc?.bodyType !== undefined) op.requestBody = { required: true, content: { [doc.bodyType]: {} } };
  else if (doc?.body !== undefined) op.requestBody = { required: true, content: { 'application/json': { schema: jsonSchema(doc.body, 'input') } } };
  return op;
}

export function buildOpenApiDocument(apis: readonly ApiModule[], config: LoadedConfig): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of mountedRoutes(apis, config)) {
    route.paths.forEach((path, i) => {
      (paths[path] ??= {})[route.method.toLowerCase()] = operation(route, path, ROUTE_DOCS[route.keys[i]!]);
    });
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Discovery Kit',
      version: VERSION,
      description: 'Search, recommendations, activity tracking, catalog and admin APIs of one Discovery Kit server. Generated from the routes it mounts and the schemas that validate them.',
    },
    servers: config.publicUrl !== undefined ? [{ url: config.publicUrl }] : [{ url: '/' }],
    components: {
      securitySchemes: {
        tenantBearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: "Access token of the tenant's realm (client credentials)." },
        masterBearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Access token of the master realm (older APIs).' },
        adminBearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Tenant-realm token of a service account with an adminRole.' },
        consoleSession: { type: 'apiKey', in: 'cookie', name: 'dk_console', description: 'Console session cookie; changes also need the X-CSRF-Token header.' },
      },
    },
    paths,
  };
}
