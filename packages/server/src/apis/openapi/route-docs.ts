/**
 * What the OpenAPI document says about each route, keyed by `<api module> <METHOD> <path inside the
 * mount>`. Request bodies and queries point at the very zod schemas the routes validate with, so
 * the document cannot drift from the validation; a route missing here fails the OpenAPI test.
 */
import { z } from 'zod';
import { signInSchema } from '../admin/admin-api.js';
import { collectActivitySchema, collectBatchSchema } from '../collect/collect-schema.js';
import { autocompleteSchema, searchSchema, suggestSchema } from '../search/search-api.js';
import { historyQuerySchema, identifyBodySchema, trackerActivitySchema, trackerBatchSchema } from '../tracker/tracker-schema.js';
import { catalogInput, itemInput, schemaInput } from '../catalog/catalog-requests.js';
import { actionInput, createInput, renameInput } from '../legacy-items/legacy-item-requests.js';
import { searchConfigurationSchema, searchTokenSchema, widgetSchema } from '../../platform/config/schema.js';
import { learningResetSchema } from '../admin/learning-routes.js';
import * as responses from './response-schemas.js';
import { EXPERIMENT_ROUTE_DOCS } from './experiment-docs.js';

export type Security = 'none' | 'tenantBearer' | 'masterBearer' | 'admin';

export interface RouteDoc {
  summary: string;
  description?: string;
  security?: Security;
  body?: z.ZodType;
  /** The body's media type when it is not JSON (the token endpoint's form). */
  bodyType?: string;
  query?: Record<string, string>;
  /** 200 (or the first success status) answer. */
  ok?: { status?: number; description: string; schema?: z.ZodType; type?: string };
}

const env = { tenant: "The caller's tenant (optional; another tenant's is refused with 403).", environment: 'Environment id (optional when the tenant has one).' };
const person = { tenant: env.tenant, profileId: 'The profile id (or name the person by identity: repository or datasource, with userId).', repository: 'Identity repository of the collection API (e.g. customer-id).', datasource: "Datasource of the older tracker.", userId: 'The id within the repository or datasource.', sessionId: "A browser's session id: a visitor who never logged in (instead of the others)." };
const admin = (summary: string, extra: Partial<RouteDoc> = {}): RouteDoc => ({ summary, security: 'admin', query: env, ...extra });

export const ROUTE_DOCS: Record<string, RouteDoc> = {
  'health GET /health': { summary: 'Liveness and version.', ok: { description: 'The server is up.', schema: responses.healthResponse } },
  'health GET /ready': { summary: 'Readiness: 503 until the catalog indexes and aggregates are loaded, then 200 (distinct from /health).', ok: { description: 'Ready to serve.' } },
  'metrics GET /metrics': { summary: 'Prometheus metrics: requests by route and status with latencies, activities collected, log append and index build durations, process memory.', ok: { description: 'Prometheus text exposition format.', type: 'text/plain' } },

  'auth POST /auth/realms/{realm}/protocol/openid-connect/token': { summary: 'OAuth 2.0 client credentials: exchange a signed JWT assertion (or client secret) for an access token.', bodyType: 'application/x-www-form-urlencoded', ok: { description: 'An access token.' } },
  'auth GET /auth/realms/{realm}/.well-known/openid-configuration': { summary: "The realm's OpenID configuration.", ok: { description: 'OpenID provider metadata.' } },
  'auth GET /auth/realms/{realm}/protocol/openid-connect/certs': { summary: "The realm's public signing keys (JWKS).", ok: { description: 'A JSON Web Key Set.' } },
  'auth GET /auth/realms/{realm}/token-info': { summary: 'Describes the bearer token sent (who, which tenant, when it expires).', security: 'tenantBearer', ok: { description: 'Token details.' } },

  'catalog POST /item-schemas': { summary: 'Create an item schema (a new version when the name exists).', security: 'tenantBearer', query: env, body: schemaInput, ok: { status: 201, description: 'The stored schema.' } },
  'catalog GET /item-schemas': { summary: 'List item schemas.', security: 'tenantBearer', query: env, ok: { description: 'Every schema version.' } },
  'catalog POST /catalogs': { summary: 'Create a catalog version from item schemas.', security: 'tenantBearer', query: env, body: catalogInput, ok: { status: 201, description: 'The new catalog version.' } },
  'catalog GET /catalogs': { summary: 'List catalog versions and their states.', security: 'tenantBearer', query: env, ok: { description: 'Catalog versions.' } },
  'catalog GET /catalogs/active': { summary: 'The active catalog version.', security: 'tenantBearer', query: env, ok: { description: 'The active catalog.' } },
  'catalog GET /catalogs/{version}': { summary: 'One catalog version.', security: 'tenantBearer', query: env, ok: { description: 'The catalog version.' } },
  'catalog DELETE /catalogs/{version}': { summary: 'Delete a catalog version that is not active.', security: 'tenantBearer', query: env, ok: { status: 204, description: 'Deleted.' } },
  'catalog POST /catalogs/promote/{version}': { summary: 'Promote a catalog version: search and recommendations switch to it once its index is built.', security: 'tenantBearer', query: env, ok: { description: 'Active at once (200) or being built (202).' } },
  'catalog POST /items': { summary: 'Load items (batches of thousands) into a catalog version.', security: 'tenantBearer', query: env, body: z.array(itemInput), ok: { description: 'Counts of stored items.' } },
  'catalog PATCH /items': { summary: 'Change attributes of stored items.', security: 'tenantBearer', query: env, body: z.array(z.record(z.string(), z.unknown())), ok: { description: 'Counts of changed items.' } },
  'catalog GET /items/{id}': { summary: 'One stored item (active catalog unless catalogVersion is given).', security: 'tenantBearer', query: { ...env, catalogVersion: 'Catalog version (optional).' }, ok: { description: 'The item.' } },

  'legacy-items POST /items': { summary: 'Older item API: add, update or delete items in bulk.', security: 'masterBearer', body: z.array(actionInput), ok: { description: 'Per-item outcomes.' } },
  'legacy-items GET /items/contexts/tenant/{tenantId}': { summary: "Older item-context API: a tenant's item contexts.", security: 'masterBearer', ok: { description: 'Item contexts.' } },
  'legacy-items GET /items/contexts/tenant/{tenantId}/name/{contextName}': { summary: 'Older item-context API: one item context by name.', security: 'masterBearer', ok: { description: 'The item context.' } },
  'legacy-items GET /items/contexts/{itemContextId}': { summary: 'Older item-context API: one item context by id.', security: 'masterBearer', ok: { description: 'The item context.' } },
  'legacy-items PUT /items/contexts': { summary: 'Older item-context API: rename an item context.', security: 'masterBearer', body: renameInput, ok: { description: 'The renamed context.' } },
  'legacy-items POST /items/contexts': { summary: 'Older item-context API: create an item context.', security: 'masterBearer', body: createInput, ok: { description: 'The new context.' } },
  'legacy-items GET /items/versions/live': { summary: 'Older item API: the catalog version the older APIs serve.', security: 'masterBearer', ok: { description: 'The live version.' } },
  'legacy-items POST /items/versions/{version}/activate': { summary: 'Older item API: make a version the live one.', security: 'masterBearer', ok: { description: 'Activated.' } },
  'legacy-items DELETE /items/contexts/{itemContextId}': { summary: 'Older item-context API: delete an item context.', security: 'masterBearer', ok: { description: 'Deleted.' } },

  'tracker POST /tracker/{trackerKey}/identify': { summary: 'Older tracker: identify a visitor (returns the profile id).', body: identifyBodySchema, ok: { description: 'The profile.' } },
  'tracker POST /tracker/{trackerKey}/activity': { summary: 'Older tracker: record activities.', body: z.union([trackerActivitySchema, trackerBatchSchema]), ok: { description: 'Recorded.' } },
  'tracker GET /tracker/{trackerKey}/profiles/{profileId}/activities': { summary: "Older tracker: a profile's recent activities.", query: Object.fromEntries(Object.keys(historyQuerySchema.shape).map((k) => [k, 'Filter.'])), ok: { description: 'Activities, newest first.' } },
  'collect POST /{trackerKey}': { summary: 'Collect one activity or a batch (views, clicks, add-to-cart, purchases).', body: z.union([collectActivitySchema, collectBatchSchema]), ok: { description: 'Recorded (idempotent by activity id).' } },

  'search POST /search': { summary: 'Search the active catalog with a search token.', body: searchSchema, ok: { description: 'Ranked items, facets and metadata.' } },
  'search POST /search/suggest': { summary: 'Suggest: matches grouped by an attribute.', body: suggestSchema, ok: { description: 'Groups of items.' } },
  'search POST /search/autocomplete': { summary: 'Autocomplete: earlier queries and matching items for a prefix.', body: autocompleteSchema, ok: { description: 'Suggestions.' } },
  'search GET /search/suggest': { summary: 'Suggest with the request in the query string (`encoded=` JSON).', query: { encoded: 'The suggest request body, as JSON.' }, ok: { description: 'As POST /search/suggest.' } },
  'search-analytics GET /search-analytics/{token}': { summary: "A search token's query analytics per day: searches, zero-result and corrected queries, clicks and conversions.", security: 'tenantBearer', query: { from: 'First day (YYYY-MM-DD).', to: 'Last day (YYYY-MM-DD).', limit: 'Queries per list.' }, ok: { description: 'Query analytics.' } },
  'search GET /search/{token}': { summary: 'Search with the request encoded in the URL (`encoded=` JSON), for links.', query: { encoded: 'The search request body without its token, as JSON.' }, ok: { description: 'As POST /search.' } },

  'recommendations GET /widget/multi/{widgetIds}/recommendations/{profileId}': { summary: "Several widgets' recommendations for one profile.", ok: { description: 'Recommendations keyed by widget id.' } },
  'recommendations GET /widget/multi/{widgetIds}/recommendations/{profileId}/{variables}': { summary: "Several widgets' recommendations for one profile, with variables.", ok: { description: 'Recommendations keyed by widget id.' } },
  'recommendations GET /widget/{widgetId}/recommendations': { summary: "A widget's recommendations for an anonymous visitor.", ok: { description: 'Recommendations.' } },
  'recommendations GET /widget/{widgetId}/recommendations/{rest}': { summary: "A widget's recommendations for a user (`{source}/{userId}`), with variables, or an e-mail's photo.png / redirect.html link.", ok: { description: 'Recommendations, an image or a redirect.' } },

  'admin POST /admin/session': { summary: 'Console sign-in: sets the HttpOnly session cookie; returns the CSRF token to send as X-CSRF-Token.', body: signInSchema, ok: { description: 'Signed in.', schema: responses.sessionResponse } },
  'admin GET /admin/session': { summary: 'The signed-in person (or account), role, CSRF token and environments.', security: 'admin', ok: { description: 'The session.', schema: responses.sessionResponse } },
  'admin DELETE /admin/session': { summary: 'Sign out.', security: 'admin', ok: { status: 204, description: 'Signed out.' } },
  'admin GET /admin/widgets': admin('List the environment’s widgets (file and stored changes combined).', { ok: { description: 'Widgets.', schema: z.object({ widgets: z.array(widgetSchema) }) } }),
  'admin GET /admin/widgets/{widgetId}': admin('One widget.', { ok: { description: 'The widget.', schema: widgetSchema } }),
  'admin PUT /admin/widgets/{widgetId}': admin('Create or replace a widget (validated as in the configuration file); applies at once.', { body: widgetSchema, ok: { description: 'The stored widget.', schema: widgetSchema } }),
  'admin DELETE /admin/widgets/{widgetId}': admin('Remove a widget.', { ok: { status: 204, description: 'Removed.' } }),
  'admin GET /admin/widgets/{widgetId}/preview': admin('What the widget recommends now for a product and/or a profile.', { query: { ...env, productId: 'Context product (optional).', profileId: 'Profile (optional).', explain: '`true`: each item the learned ranking of `personalized` placed carries `explanation` (its score, each feature\'s value and contribution, the blend\'s rank).' }, ok: { description: 'A recommendation response.' } }),
  'admin GET /admin/search-tokens': admin('List search tokens with their configurations.', { ok: { description: 'Search tokens.', schema: z.object({ searchTokens: z.array(searchTokenSchema) }) } }),
  'admin POST /admin/search-tokens': admin('Create a search token (value generated).', { body: searchTokenSchema, ok: { status: 201, description: 'The token.', schema: searchTokenSchema } }),
  'admin GET /admin/search-tokens/{token}': admin('One search token.', { ok: { description: 'The token.', schema: searchTokenSchema } }),
  'admin PUT /admin/search-tokens/{token}': admin('Replace a search token’s configurations.', { body: searchTokenSchema, ok: { description: 'The token.', schema: searchTokenSchema } }),
  'admin DELETE /admin/search-tokens/{token}': admin('Revoke a search token.', { ok: { status: 204, description: 'Revoked.' } }),
  'admin POST /admin/search-tokens/{token}/rotate': admin('Issue a new value with the same configurations; the old one stops working.', { ok: { description: 'The new token.', schema: searchTokenSchema } }),
  'admin PUT /admin/search-tokens/{token}/configurations/{configurationId}': admin('Replace or add one search configuration: field weights, facets, synonyms, redirects, pin/boost/bury rules, default sort.', { body: searchConfigurationSchema, ok: { description: 'The configuration.', schema: searchConfigurationSchema } }),
  'admin GET /admin/search-tokens/{token}/explain': admin('Ranked results of a query with scores and why each matched.', { query: { ...env, q: 'The query.', configurationId: 'Configuration (default: the token’s).', limit: '1 to 100 (default 20).', context: 'A search request’s `context` as URL-encoded JSON: explains what a shopper in it sees, and which rule fired because of which variable.' }, ok: { description: 'The explanation.', schema: responses.explainResponse } }),
  'admin GET /admin/search-tokens/{token}/learning': admin('Queries (and browse selections) search learning holds votes for, most recently voted first.', { query: { ...env, configurationId: 'Configuration whose resets apply (default: the token’s).', limit: '1 to 500 (default 100).' }, ok: { description: 'Learned keys.', schema: responses.learningListResponse } }),
  'admin POST /admin/search-tokens/{token}/learning/reset': admin('Reset what one query learned in one configuration: votes received before now stop counting (kept in the configuration’s learning.resets, audited).', { body: learningResetSchema, ok: { description: 'The key reset and when.', schema: responses.learningResetResponse } }),
  'admin GET /admin/tracker-keys': admin('List tracker keys.', { ok: { description: 'Tracker keys.', schema: responses.trackerKeysResponse } }),
  'admin POST /admin/tracker-keys': admin('Create a tracker key.', { ok: { status: 201, description: 'The key.', schema: responses.trackerKeyResponse } }),
  'admin POST /admin/tracker-keys/{trackerKey}/rotate': admin('Replace a tracker key with a new one.', { ok: { description: 'The new key.', schema: responses.trackerKeyResponse } }),
  'admin DELETE /admin/tracker-keys/{trackerKey}': admin('Revoke a tracker key.', { ok: { status: 204, description: 'Revoked.' } }),
  'admin GET /admin/audit': admin('The audit log, newest first: who changed what, when, before and after.', { query: { ...env, limit: '1 to 500 (default 100).' }, ok: { description: 'Entries.', schema: responses.auditResponse } }),
  'admin GET /admin/catalogs': admin('Catalog versions with their states, dates and item counts.', { ok: { description: 'Catalogs.' } }),
  'admin POST /admin/catalogs/{version}/promote': admin('Promote a catalog version.', { ok: { description: 'Active (200) or being built (202).' } }),
  'admin GET /admin/catalog-imports': admin('The latest item batches sent to the catalog API (POST or PATCH /items), newest first: when, which version, items sent and stored, and for a refused batch its reason and each failing item and field (at most 100 issues, with their count).', { query: { ...env, limit: '1 to 20 (default 5).' }, ok: { description: 'Imports.', schema: responses.catalogImportsResponse } }),
  'admin GET /admin/items': admin('A page of a catalog version’s items ordered by id, each with its title, photo, price and id; `q` keeps those whose id or title holds every word typed. A bad parameter is 400 naming it (`query.limit`).', { query: { ...env, q: 'Words of the id or title (optional, at most 200 characters).', offset: 'Items to skip, 0 or more (default 0).', limit: '1 to 100 (default 20).', catalogVersion: 'Catalog version (default: the active one; 404 naming query.catalogVersion when it does not exist).' }, ok: { description: 'The page and the total matching.', schema: responses.itemListResponse } }),
  'admin GET /admin/items/{id}': admin('Look up an item of the active (or given) catalog version.', { query: { ...env, catalogVersion: 'Catalog version (optional).' }, ok: { description: 'The item.' } }),
  'admin GET /admin/analytics': admin('Per day: activities, searches, zero-result searches, clicks, conversions and revenue from search; per widget: impressions, clicks, add-to-carts, purchases, revenue, click-through; the key figures of the period and of the period before; the purchases\' currency.', { query: { ...env, days: '1 to 90 (default 7).' }, ok: { description: 'Analytics.', schema: responses.analyticsResponse } }),
  'admin GET /admin/analytics/queries': admin('Top, zero-result and corrected queries with click-through and conversion.', { query: { ...env, days: '1 to 90 (default 7).', limit: '1 to 500 (default 50).' }, ok: { description: 'Queries.', schema: responses.queriesResponse } }),
  'admin GET /admin/profiles/export': admin("Everything held about one person (the profile and those merged into it, with every logged activity), as a JSON download; editing accounts only.", { query: person, ok: { description: 'The export.' } }),
  'admin DELETE /admin/profiles': admin('Erases one person: profiles, identities, history, per-profile memory of every aggregate, and their records in the activity log (compacted); editing accounts only.', { query: person, ok: { description: 'How many profiles and activities were erased.' } }),
  'admin GET /admin/analytics/activities-per-minute': admin('Activities per minute, by the time they happened (an imported history is not counted as now).', { query: { ...env, minutes: '1 to 1440 (default 60).' }, ok: { description: 'Counts per minute.', schema: responses.perMinuteResponse } }),

  'console GET /console': { summary: 'Redirects to /console/.', ok: { status: 302, description: 'Redirect.' } },
  'console GET /console/': { summary: 'The merchandiser console (HTML).', ok: { description: 'The console page.', type: 'text/html' } },
  'console GET /console/console.js': { summary: 'The console bundle.', ok: { description: 'JavaScript.', type: 'text/javascript' } },
  'console GET /docs': { summary: 'Redirects to /docs/.', ok: { status: 302, description: 'Redirect.' } },
  'console GET /docs/': { summary: 'This API reference, rendered offline from /openapi.json.', ok: { description: 'The reference page.', type: 'text/html' } },
  'console GET /docs/reference.js': { summary: 'The reference page’s renderer.', ok: { description: 'JavaScript.', type: 'text/javascript' } },
  'openapi GET /openapi.json': { summary: 'This document (OpenAPI 3.1).', ok: { description: 'The OpenAPI document.' } },
  'sdk GET /sdk/{file}': { summary: 'The browser toolkit bundle (discovery.js and friends).', ok: { description: 'JavaScript.', type: 'text/javascript' } },
  ...EXPERIMENT_ROUTE_DOCS,
};
