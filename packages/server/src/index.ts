/** The Discovery Kit server: every API of the product-discovery interface, as one Koa application. */
export { createDiscoveryServer } from './app/server.js';
export type { DiscoveryServer, DiscoveryServerOptions } from './app/server.js';
export type { ApiModule, MountPoint, ServerDeps } from './apis/api-module.js';
export type { Services } from './apis/services.js';
export type { ServiceContext } from './platform/service-context.js';
export { ActivityService } from './domains/tracking/activity-service.js';
export type { NewActivity, RecordedActivity } from './domains/tracking/activity-service.js';
export { newActivity } from './domains/tracking/new-activity.js';
export type { ActivityInput } from './domains/tracking/new-activity.js';
export type { LoggedActivity, LoggedRecommendation } from './domains/tracking/activity-record.js';
export type { Profile, IdentityClaims, DatasourceRef } from './domains/tracking/profiles.js';
export type { PopularItem } from './domains/recommendations/popularity.js';
export type { CoOccurrenceKind, RelatedItem } from './domains/recommendations/co-occurrence.js';
export type { QuerySuggestion } from './domains/search/analytics/search-queries.js';
export { publicBaseUrl, mountedPath } from './apis/api-module.js';
export type { ApiFactory } from './apis/index.js';
export { loadConfigFile, validateConfig, ConfigError } from './platform/config/load.js';
export type { LoadedConfig } from './platform/config/load.js';
export { ConfigRegistry } from './platform/config/registry.js';
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
} from './platform/config/schema.js';
export { STRATEGIES, DEFAULT_VERB_WEIGHTS } from './platform/config/schema.js';
export { requireBearer } from './apis/http/bearer-guard.js';
export type { BearerGuardOptions, BearerIdentity } from './apis/http/bearer-guard.js';
export { AuthService, TOKEN_REQUESTS_PER_SECOND } from './domains/auth/auth-service.js';
export type { TokenResponse } from './domains/auth/auth-service.js';
export { HttpError } from './apis/http/errors.js';
export { jsonBody, readRawBody, readFormBody } from './apis/http/body.js';
export { parseInput } from './apis/http/validate.js';
export { createLogger, defaultLogFormat } from './platform/logger.js';
export { DEFAULT_HEAP_GROWTH_PERCENT, limitHeapGrowth } from './platform/heap-growth.js';
export type { Logger, LogFormat } from './platform/logger.js';
export { systemClock, ManualClock } from './platform/clock.js';
export type { Clock } from './platform/clock.js';
export { LowdbStore } from './platform/store/lowdb-store.js';
export { DataDirectoryLockedError, holderIsAlive, parseLock } from './platform/store/data-dir-lock.js';
export type { DocumentStore, StoredDocument } from './platform/store/document-store.js';
export { FileEventLogs } from './platform/event-log/file-event-logs.js';
export type { EventLog, EventLogs, EventLogOptions, ReplayStats, ScanQuery } from './platform/event-log/event-log.js';
export { FileBlobStore } from './platform/blob-store/file-blob-store.js';
export type { BlobStore } from './platform/blob-store/blob-store.js';
export { openPostgresStorage } from './platform/postgres/postgres-storage.js';
export type { PostgresStorage } from './platform/postgres/postgres-storage.js';
export { PostgresEngine, PostgresUnreachableError } from './platform/postgres/postgres-engine.js';
export { migrateDataDirectory } from './platform/postgres/data-dir-migration.js';
export type { MigrationReport } from './platform/postgres/data-dir-migration.js';
export { connectRedis, RedisUnreachableError } from './platform/redis/redis-connection.js';
export { RedisRateWindows } from './platform/redis/redis-rate-windows.js';
export { RedisSharedClaims } from './platform/redis/redis-shared-claims.js';
export { RedisFoldLagBoard } from './platform/redis/redis-fold-lag-board.js';
export type { SharedClaims } from './platform/shared-state/shared-claims.js';
export type { SharedRateWindows, WindowCount } from './platform/shared-state/rate-windows.js';
export { VERSION } from './platform/version.js';
export { CatalogService } from './domains/catalog/catalog-service.js';
export { parseCatalogRequest, parseItemBatch, parseSchemaRequest } from './apis/catalog/catalog-requests.js';
export { parseActionBatch } from './apis/legacy-items/legacy-item-requests.js';
export type { CatalogInput, CatalogItemInput, ItemSchemaInput, LegacyBatch } from './domains/catalog/catalog-inputs.js';
export { toProductView } from './domains/catalog/product-view.js';
export { catalogUrl } from './domains/catalog/catalog-url.js';
export type { ProductView } from './domains/catalog/product-view.js';
export { parseLegacyId, formatLegacyId } from './domains/catalog/legacy-id.js';
export type { LegacyId } from './domains/catalog/legacy-id.js';
export type {
  ActivationBuilder,
  CatalogRecord,
  CatalogState,
  ItemSchemaRecord,
  ItemsChanged,
  ItemsChangedListener,
  ItemScope,
  StoredItem,
} from './domains/catalog/types.js';
export { StaticDirectory } from './apis/http/static-files.js';
export { createConsolePages } from './apis/console/console-pages.js';
export { hashPassword } from './domains/admin/console-sessions.js';
export type { StaticDirectoryOptions } from './apis/http/static-files.js';
export { singleParam } from './apis/http/query.js';
