/**
 * The composition root of the domains: builds every service once per server, before any API module,
 * in dependency order (catalog, then search over it, tracking, then recommendations over all three),
 * and wires what one domain tells another (folds over each activity, index refreshes). API modules
 * reach the result through `deps.services` (apis/services.ts).
 */
import type { ServiceContext } from '../platform/service-context.js';
import type { Services } from '../apis/services.js';
import { ActivityService } from '../domains/tracking/activity-service.js';
import { foldOnly } from '../domains/tracking/activity-aggregate.js';
import type { LogRecord } from '../domains/tracking/activity-record.js';
import { QueryStatistics } from '../domains/search/analytics/query-statistics.js';
import { RecommendationAggregates } from '../domains/recommendations/activity-aggregates.js';
import { createAuthService } from '../domains/auth/auth-service.js';
import { CatalogService } from '../domains/catalog/catalog-service.js';
import { PublicRateLimits } from '../apis/http/public-rate-limit.js';
import { RecommendationService } from '../domains/recommendations/recommendation-service.js';
import { SearchService } from '../domains/search/search-service.js';
import { SearchThreads } from '../domains/search/threads/search-threads.js';
import { QueryAnalytics } from '../domains/search/analytics/query-analytics.js';
import { SearchLearning } from '../domains/search/learning/search-learning.js';
import { ActivityQueryKeys } from '../domains/search/learning/activity-query-keys.js';
import { ConfigAdmin } from '../domains/admin/config-admin.js';
import { ConsoleSessions } from '../domains/admin/console-sessions.js';
import { WidgetAnalytics } from '../domains/analytics/widget-analytics.js';
import { ServerMetrics } from '../platform/metrics/server-metrics.js';
import { Experiments } from '../domains/experiments/experiments.js';


export async function createServices(deps: ServiceContext): Promise<Services> {
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
    logger: deps.logger,
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
  const countCollected = (_tenantId: string, record: LogRecord) => {
    if (record.kind !== 'activity' || record.receivedAt < startedAt) return;
    metrics.activitiesCollected.inc();
    if (record.attribution === 'unverified') metrics.activitiesUnverified.inc();
  };
  // What search and recommendations fold from the activity log is theirs; tracking replays the log through it.
  const queryStatistics = new QueryStatistics(deps.clock);
  const searchAnalytics = await openSearchAnalytics(deps, queryStatistics);
  const aggregates = new RecommendationAggregates({ config: deps.config, clock: deps.clock });
  // An ingest-only process answers no search and uses no model: it builds no index and loads no model (docs/scale-out.md).
  const ingestOnly = deps.ingestOnly === true;
  search = new SearchService({ catalog, registry: deps.registry, logger: deps.logger, blobs: deps.blobs, onIndexBuilt: (seconds) => metrics.indexBuildSeconds.observe(seconds), dormant: ingestOnly });
  const searchService = search;
  metrics.searchDocuments.collect = () => searchService.documentCount();
  deps.onClose(() => searchService.close());
  const queryKeys = new ActivityQueryKeys({ registry: deps.registry, search: searchService });
  const learning = new SearchLearning({ clock: deps.clock, keyOf: (tenantId, query) => queryKeys.keyOf(tenantId, query) });
  search.learning = learning;
  metrics.learnedQueries.collect = () => learning.keyCount();
  // The search indexes are restored (or built) while the activity state is: both read files and unzip
  // on the thread pool between slices of work, so a start overlaps their waits instead of adding them.
  const searchStarted = search.start();
  // Awaited below; this only keeps a failure that lands while the activity state opens from going unhandled.
  searchStarted.catch(() => undefined);
  // Experiments are loaded before the log's replay: their results are folded from it, within each one's running window.
  let activityService: ActivityService | undefined;
  const experiments = new Experiments({ store: deps.store, registry: deps.registry, admin, activities: () => activityService!, clock: deps.clock, logger: deps.logger });
  await experiments.open(deps.config.tenants.map((t) => t.id));
  const activities = await ActivityService.open(deps, {
    // An ingest-only process folds no activity but for its metrics: the serving processes fold them from the shared log.
    aggregates: [...(ingestOnly ? [] : [queryStatistics, aggregates, widgetAnalytics, searchAnalytics.erasure, experiments.ledger, learning]), foldOnly(countCollected, { stateless: 'metrics' })],
    onAppend: (seconds) => metrics.logAppendSeconds.observe(seconds),
  });
  activityService = activities;
  metrics.foldLag.collect = () => activities.foldLag();
  activities.onRecorded((activity) => searchAnalytics.recordActivity(activity));
  await searchStarted;
  // Search threads read the active catalogs and build their copies after the main thread's indexes are up.
  let searchThreads: SearchThreads | undefined;
  if (deps.config.searchThreads > 0 && !ingestOnly) {
    const onRouted = (by: 'thread' | 'main') => metrics.searchThreadAnswers.inc({ answered_by: by });
    const threads = (searchThreads = new SearchThreads({ count: deps.config.searchThreads, catalog, registry: deps.registry, search, logger: deps.logger, onRouted }));
    deps.onClose(() => threads.close());
    threads.start().catch((error: unknown) => deps.logger.error({ err: error }, 'starting the search threads failed'));
  }
  const recommendations = new RecommendationService({ catalog, activities, aggregates, search, store: deps.store, blobs: deps.blobs, clock: deps.clock, logger: deps.logger, config: deps.config, experiments, trains: deps.trains !== false && !ingestOnly });
  recommendations.models.onTrained((seconds) => metrics.modelTrainingSeconds.observe(seconds));
  recommendations.models.onLoaded(() => metrics.modelsLoaded.inc());
  metrics.trainingTenants.collect = () => recommendations.models.trainingTenants();
  if (!ingestOnly) await recommendations.models.start(deps.config.tenants.map((t) => t.id));
  // A person erased through another process: the process that trains retrains without them, as the
  // erasing one asks of itself; also for the notices this start's replay met (listened to once the
  // models know their tenants, so that the request is kept).
  activities.onErasedElsewhere((tenantId) => recommendations.models.requestRetrain(tenantId, 'profile erased by another process'));
  deps.onClose(() => recommendations.models.close());
  const sessions = await ConsoleSessions.open({ store: deps.store, registry: deps.registry, clock: deps.clock });
  const limits = new PublicRateLimits(deps.config.publicRateLimits, () => deps.clock.now(), deps.rateWindows);
  return { auth, catalog, activities, search, searchThreads, queryStatistics, searchAnalytics, recommendations, admin, sessions, analytics: { widgets: widgetAnalytics }, metrics, limits, experiments };
}

/** Search analytics (fed clicks and conversions by the activity service once it is open); it gives autocomplete back its search counts. */
async function openSearchAnalytics(deps: ServiceContext, queryStatistics: QueryStatistics): Promise<QueryAnalytics> {
  const tenantIds = deps.config.tenants.map((t) => t.id);
  const analytics = await QueryAnalytics.open({ store: deps.store, clock: deps.clock, logger: deps.logger, tenantIds });
  deps.onClose(() => analytics.close());
  for (const tenantId of tenantIds) for (const { day, query, searches } of analytics.searchCounts(tenantId)) queryStatistics.restoreSearches(tenantId, query, Date.parse(`${day}T00:00:00Z`), searches);
  return analytics;
}
