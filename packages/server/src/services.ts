/**
 * The services behind the APIs, built once per server before any API module, so that modules share
 * them (search reads the catalog, recommendations read the activity aggregates). Each capability
 * adds its service here; API modules reach them through `deps.services`.
 */
import type { ServerDeps } from './api-module.js';
import { ActivityService } from './activities/activity-service.js';
import { createAuthService, type AuthService } from './auth/auth-service.js';
import { CatalogService } from './catalog/catalog-service.js';
import { RecommendationService } from './recommendations/recommendation-service.js';
import { SearchService } from './search/search-service.js';
import { QueryAnalytics } from './search/query-analytics.js';

export interface Services {
  /** Token endpoint logic and the bearer guard's token checks (`requireBearer(deps.services.auth, ...)`). */
  auth: AuthService;
  /** Item schemas, catalogs, items (both item APIs) and item contexts. */
  catalog: CatalogService;
  /** The durable activity log, profiles, and the aggregates recommendations and autocomplete read. */
  activities: ActivityService;
  /** Search indexes over each environment's active catalog. */
  search: SearchService;
  /** Query analytics per search token and day (search/query-analytics.ts). */
  searchAnalytics: QueryAnalytics;
  /** Widgets' recommendations over the active catalog and the live activity aggregates. */
  recommendations: RecommendationService;
}

export async function createServices(deps: Omit<ServerDeps, 'services'>): Promise<Services> {
  const auth = await createAuthService(deps);
  const catalog = new CatalogService({ store: deps.store, clock: deps.clock, logger: deps.logger, registry: deps.registry });
  deps.onClose(async () => catalog.close());
  const activities = await ActivityService.open(deps);
  const search = new SearchService({ catalog, registry: deps.registry, logger: deps.logger });
  await search.start();
  const searchAnalytics = await openSearchAnalytics(deps, activities);
  const recommendations = new RecommendationService({ catalog, activities, search, store: deps.store, clock: deps.clock, logger: deps.logger, config: deps.config });
  await recommendations.models.start(deps.config.tenants.map((t) => t.id));
  deps.onClose(() => recommendations.models.close());
  return { auth, catalog, activities, search, searchAnalytics, recommendations };
}

/** Search analytics, fed clicks and conversions by the activity service; it gives autocomplete back its search counts. */
async function openSearchAnalytics(deps: Omit<ServerDeps, 'services'>, activities: ActivityService): Promise<QueryAnalytics> {
  const tenantIds = deps.config.tenants.map((t) => t.id);
  const analytics = await QueryAnalytics.open({ store: deps.store, clock: deps.clock, logger: deps.logger, tenantIds });
  deps.onClose(() => analytics.close());
  activities.onRecorded((activity) => analytics.recordActivity(activity));
  for (const tenantId of tenantIds) for (const { day, query, searches } of analytics.searchCounts(tenantId)) activities.restoreSearches(tenantId, query, Date.parse(`${day}T00:00:00Z`), searches);
  return analytics;
}
