/**
 * The domain services the API modules use, as one bag in `deps.services`. Built by the composition
 * root (app/services.ts); declared here, in the API layer, because it is what the APIs depend on.
 */
import type { ActivityService } from '../domains/tracking/activity-service.js';
import type { AuthService } from '../domains/auth/auth-service.js';
import type { CatalogService } from '../domains/catalog/catalog-service.js';
import type { RecommendationService } from '../domains/recommendations/recommendation-service.js';
import type { SearchThreads } from '../domains/search/threads/search-threads.js';
import type { SearchService } from '../domains/search/search-service.js';
import type { QueryStatistics } from '../domains/search/analytics/query-statistics.js';
import type { QueryAnalytics } from '../domains/search/analytics/query-analytics.js';
import type { ConfigAdmin } from '../domains/admin/config-admin.js';
import type { ConsoleSessions } from '../domains/admin/console-sessions.js';
import type { WidgetAnalytics } from '../domains/analytics/widget-analytics.js';
import type { ServerMetrics } from '../platform/metrics/server-metrics.js';
import type { PublicRateLimits } from './http/public-rate-limit.js';
import type { Experiments } from '../domains/experiments/experiments.js';

export interface Services {
  /** Token endpoint logic and the bearer guard's token checks (`requireBearer(deps.services.auth, ...)`). */
  auth: AuthService;
  /** Item schemas, catalogs, items (both item APIs) and item contexts. */
  catalog: CatalogService;
  /** The durable activity log, profiles, and the aggregates recommendations and autocomplete read. */
  activities: ActivityService;
  /** Search indexes over each environment's active catalog. */
  search: SearchService;
  /** Replicas of the search indexes answering searches in worker threads (`searchThreads`), when configured. */
  searchThreads: SearchThreads | undefined;
  /** Autocomplete's query statistics: searches counted here, results-page views folded from the activity log. */
  queryStatistics: QueryStatistics;
  /** Query analytics per search token and day (search/analytics/query-analytics.ts): the search-analytics API and the console's both read it. */
  searchAnalytics: QueryAnalytics;
  /** Widgets' recommendations over the active catalog and the live activity aggregates. */
  recommendations: RecommendationService;
  /** Runtime configuration changes (admin API) and their audit log. */
  admin: ConfigAdmin;
  /** Console sign-in sessions. */
  sessions: ConsoleSessions;
  /** Widget analytics folded from activities (query analytics are `searchAnalytics`). */
  analytics: { widgets: WidgetAnalytics };
  /** Prometheus metrics (/metrics). */
  metrics: ServerMetrics;
  /** Per-address and per-key rate limits, shared by the public API modules. */
  limits: PublicRateLimits;
  /** A/B tests of widgets and search configurations: definitions, the per-request draw, results. */
  experiments: Experiments;
}
