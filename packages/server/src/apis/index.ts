/** Every API module the server mounts, in mount order. Each issue's API adds its factory here. */
import type { ApiModule, ServerDeps } from './api-module.js';
import { createAdminApi } from './admin/admin-api.js';
import { createMetricsApi } from './metrics/metrics-api.js';
import { createAuthApi } from './auth/auth-api.js';
import { createCatalogApi } from './catalog/catalog-api.js';
import { createCollectApi } from './collect/collect-api.js';
import { createHealthApi } from './health/health-api.js';
import { createLegacyItemsApi } from './legacy-items/legacy-items-api.js';
import { createRecommendationsApi } from './recommendations/recommendations-api.js';
import { createSearchApi } from './search/search-api.js';
import { createSearchAnalyticsApi } from './search/search-analytics-api.js';
import { createTrackerApi } from './tracker/tracker-api.js';

export type ApiFactory = (deps: ServerDeps) => ApiModule | Promise<ApiModule>;

export const apiFactories: ApiFactory[] = [
  createHealthApi,
  createAuthApi,
  createCatalogApi,
  createLegacyItemsApi,
  createTrackerApi,
  createCollectApi,
  createSearchApi,
  createSearchAnalyticsApi,
  createRecommendationsApi,
  createAdminApi,
  createMetricsApi,
];
