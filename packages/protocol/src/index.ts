/** Wire types shared by the server and the browser packages, and the browser toolkit's event contract. */
export type { ErrorBody, ErrorCode, FieldIssue } from './errors.js';
export type { HealthResponse, ReadyResponse } from './health.js';
export { ACTIVITY_EVENT } from './browser.js';
export type { ActivityIntent, ActivityEvent, ToolkitConfig } from './browser.js';
export type {
  ProductView,
} from './public-apis.js';
export type {
  SortKey,
  DisableName,
  SearchRequest,
  SearchItemOptions,
  SearchContext,
  ContextVariableValue,
  SearchFacet,
  SearchItem,
  SearchResponse,
  SuggestRequest,
  SuggestGroup,
  SuggestResponse,
  AutocompleteRequest,
  AutocompleteResponse,
  AutocompleteSuggestion,
  HighlightRange,
} from './search.js';
export type { RecommendationQueryParams, Recommendation, RecommendationResponse, MultiRecommendationResponse, RankingExplanation } from './recommendations.js';
export type { CollectAction, CollectActivity, CollectRequest, CollectResponse } from './collect.js';
export type {
  ProfileDatasource,
  IdentifyRequest,
  IdentifyResponse,
  TrackerProfile,
  TrackerActivityInput,
  TrackerActivityRequest,
  TrackerActivityView,
  TrackerActivityResponse,
  TrackerHistoryPage,
} from './tracker.js';
export type { TokenRequest, TokenResponse, OAuthErrorCode, OAuthErrorBody, OpenIdConfiguration, JsonWebKeySet, TokenInfoResponse } from './auth.js';
export type {
  AttributeType,
  AttributeDefinition,
  ItemSchemaResponse,
  ItemSchemaListResponse,
  ItemBatchResponse,
  CatalogState,
  CatalogRecord,
  AdminCatalogListResponse,
  CatalogListResponse,
  CatalogItemResponse,
  LegacyVersionResponse,
  LegacyActivateResponse,
  LegacyItemResult,
  LegacyItemsResponse,
  ItemContext,
} from './catalog.js';
export type {
  SignInRequest,
  AdminRole,
  SignInResponse,
  AdminSessionResponse,
  WidgetFilter,
  WidgetStrategy,
  SearchLanguage,
  SearchLearningConfig,
  SearchPersonalizationConfig,
  AdminWidget,
  WidgetListResponse,
  WidgetPreviewResponse,
  MerchandisingRule,
  ContextCondition,
  ContextVariableType,
  SearchRedirectConfig,
  SearchFacetConfig,
  SearchConfigurationView,
  AdminSearchToken,
  SearchTokenListResponse,
  TrackerKeyListResponse,
  TrackerKeyResponse,
  AuditEntry,
  AuditResponse,
  AdminItemResponse,
  ExplainedHit,
  LearnedItemView,
  QueryLearningView,
  SearchLearningListResponse,
  SearchLearningResetResponse,
  SearchExplanation,
} from './admin.js';
export type {
  WidgetCounts,
  AnalyticsDay,
  WidgetAnalyticsRow,
  AnalyticsResponse,
  AnalyticsTotals,
  QueryAnalyticsRow,
  QueryAnalyticsResponse,
  ActivitiesPerMinuteResponse,
} from './admin-analytics.js';
export type {
  ExperimentStatus,
  ExperimentMetric,
  ExperimentVariant,
  ExperimentRequest,
  Experiment,
  ExperimentListResponse,
  ExperimentStamp,
  ExperimentVariantResult,
  ExperimentComparison,
  ExperimentResults,
} from './experiments.js';
