/** The Discovery Kit server: every API of the product-discovery interface, as one Koa application. */
export { createDiscoveryServer } from './server.js';
export type { DiscoveryServer, DiscoveryServerOptions } from './server.js';
export type { ApiModule, MountPoint, ServerDeps } from './api-module.js';
export type { Services } from './services.js';
export { ActivityService } from './activities/activity-service.js';
export type { NewActivity, RecordedActivity } from './activities/activity-service.js';
export type { LoggedActivity, LoggedRecommendation } from './activities/activity-record.js';
export type { Profile, IdentityClaims, DatasourceRef } from './activities/profiles.js';
export type { PopularItem } from './activities/popularity.js';
export type { CoOccurrenceKind, RelatedItem } from './activities/co-occurrence.js';
export type { QuerySuggestion } from './activities/search-queries.js';
export { publicBaseUrl, mountedPath } from './api-module.js';
export type { ApiFactory } from './apis/index.js';
export { loadConfigFile, validateConfig, ConfigError } from './config/load.js';
export type { LoadedConfig } from './config/load.js';
export { ConfigRegistry } from './config/registry.js';
export type {
  DiscoveryConfig,
  TenantConfig,
  EnvironmentConfig,
  ServiceAccountConfig,
  SearchTokenConfig,
  SearchConfiguration,
  FacetConfig,
  WidgetConfig,
  WidgetFilter,
  StrategyName,
} from './config/schema.js';
export { STRATEGIES, DEFAULT_VERB_WEIGHTS } from './config/schema.js';
export { requireBearer } from './auth/bearer-guard.js';
export type { BearerGuardOptions, BearerIdentity } from './auth/bearer-guard.js';
export { AuthService, TOKEN_REQUESTS_PER_SECOND } from './auth/auth-service.js';
export type { TokenResponse } from './auth/auth-service.js';
export { HttpError } from './http/errors.js';
export { jsonBody, readRawBody, readFormBody } from './http/body.js';
export { parseInput } from './http/validate.js';
export { createLogger, defaultLogFormat } from './logger.js';
export type { Logger, LogFormat } from './logger.js';
export { systemClock, ManualClock } from './clock.js';
export type { Clock } from './clock.js';
export { LowdbStore } from './store/lowdb-store.js';
export { DataDirectoryLockedError } from './store/data-dir-lock.js';
export type { DocumentStore, StoredDocument } from './store/document-store.js';
export { VERSION } from './version.js';
export { CatalogService } from './catalog/catalog-service.js';
export { toProductView } from './catalog/product-view.js';
export type { ProductView } from './catalog/product-view.js';
export { parseLegacyId, formatLegacyId } from './catalog/legacy-id.js';
export type { LegacyId } from './catalog/legacy-id.js';
export type {
  ActivationBuilder,
  CatalogRecord,
  CatalogState,
  ItemSchemaRecord,
  ItemsChanged,
  ItemsChangedListener,
  ItemScope,
  StoredItem,
} from './catalog/types.js';
export { StaticDirectory } from './http/static-files.js';
export type { StaticDirectoryOptions } from './http/static-files.js';
export { singleParam } from './http/query.js';
