/**
 * The services behind the APIs, built once per server before any API module, so that modules share
 * them (search reads the catalog, recommendations read the activity aggregates). Each capability
 * adds its service here; API modules reach them through `deps.services`.
 */
import type { ServerDeps } from '../apis/api-module.js';
import { ActivityService } from '../domains/tracking/activity-service.js';
import { createAuthService, type AuthService } from '../domains/auth/auth-service.js';
import { CatalogService } from '../domains/catalog/catalog-service.js';
import { PublicRateLimits } from '../apis/http/public-rate-limit.js';
import { RecommendationService } from '../domains/recommendations/recommendation-service.js';
import { SearchService } from '../domains/search/search-service.js';
import { QueryAnalytics } from '../domains/search/query-analytics.js';
import { ConfigAdmin } from '../domains/admin/config-admin.js';
import { ConsoleSessions } from '../domains/admin/console-sessions.js';
import { QueryAnalytics as ConsoleQueryAnalytics } from '../domains/analytics/query-analytics.js';
import { WidgetAnalytics } from '../domains/analytics/widget-analytics.js';
import { ServerMetrics } from '../platform/metrics/server-metrics.js';

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
  /** Runtime configuration changes (admin API) and their audit log. */
  admin: ConfigAdmin;
  /** Console sign-in sessions. */
  sessions: ConsoleSessions;
  /** Widget and query analytics folded from activities and searches. */
  analytics: { widgets: WidgetAnalytics; queries: ConsoleQueryAnalytics };
  /** Prometheus metrics (/metrics). */
  metrics: ServerMetrics;
  /** Per-address and per-key rate limits, shared by the public API modules. */
  limits: PublicRateLimits;
}

export async function createServices(deps: Omit<ServerDeps, 'services'>): Promise<Services> {
  const auth = await createAuthService(deps);
  const catalog = new CatalogService({ store: deps.store, clock: deps.clock, logger: deps.logger, registry: deps.registry });
  deps.onClose(async () => catalog.close());
  // Stored runtime changes apply before anything reads the registry: the activity replay counts widgets
  // created through the admin API, and the search indexes cover the fields the changes weigh.
  let search: SearchService | undefined;
  const admin = await ConfigAdmin.open({
    store: deps.store,
    registry: deps.registry,
    fileConfig: deps.config,
    clock: deps.clock,
    onSearchChanged: async (scope) => void (await search?.refreshFields(scope.tenantId, scope.environmentId)),
  });
  const metrics = new ServerMetrics();
  deps.onClose(async () => metrics.registry.clear());
  const startedAt = deps.clock.now();
  const now = () => deps.clock.now();
  const widgetAnalytics = new WidgetAnalytics({
    now,
    retentionDays: deps.config.activityLog.retentionDays,
    isWidgetOf: (tenantId, widgetId) => deps.registry.findTenant(tenantId)?.environments.some((e) => e.widgets.some((w) => w.id === widgetId)) ?? false,
  });
  const queryAnalytics = await ConsoleQueryAnalytics.open({ store: deps.store, tenantIds: deps.config.tenants.map((t) => t.id), now });
  deps.onClose(() => queryAnalytics.close());
  const countCollected = (_tenantId: string, record: { kind: string; receivedAt: number }) => {
    if (record.kind === 'activity' && record.receivedAt >= startedAt) metrics.activitiesCollected.inc();
  };
  const activities = await ActivityService.open(deps, {
    folds: [widgetAnalytics.fold, queryAnalytics.fold, countCollected],
    onAppend: (seconds) => metrics.logAppendSeconds.observe(seconds),
  });
  activities.onSearch(queryAnalytics.recordSearch);
  search = new SearchService({ catalog, registry: deps.registry, logger: deps.logger, onIndexBuilt: (seconds) => metrics.indexBuildSeconds.observe(seconds) });
  await search.start();
  const searchAnalytics = await openSearchAnalytics(deps, activities);
  const recommendations = new RecommendationService({ catalog, activities, search, store: deps.store, blobs: deps.blobs, clock: deps.clock, logger: deps.logger, config: deps.config });
  await recommendations.models.start(deps.config.tenants.map((t) => t.id));
  deps.onClose(() => recommendations.models.close());
  const sessions = await ConsoleSessions.open({ store: deps.store, registry: deps.registry, clock: deps.clock });
  const limits = new PublicRateLimits(deps.config.publicRateLimits, () => deps.clock.now());
  return { auth, catalog, activities, search, searchAnalytics, recommendations, admin, sessions, analytics: { widgets: widgetAnalytics, queries: queryAnalytics }, metrics, limits };
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
