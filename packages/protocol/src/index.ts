/** Wire types shared by the server and the browser packages, and the browser toolkit's event contract. */
export type { ErrorBody, ErrorCode, FieldIssue } from './errors.js';
export type { HealthResponse } from './health.js';
export { ACTIVITY_EVENT } from './browser.js';
export type { ActivityIntent, ActivityEvent, ToolkitConfig } from './browser.js';
export type {
  ProductView,
  SortKey,
  DisableName,
  SearchRequest,
  SearchFacet,
  SearchItem,
  SearchResponse,
  AutocompleteRequest,
  AutocompleteResponse,
  AutocompleteSuggestion,
  HighlightRange,
  RecommendationResponse,
  CollectAction,
  CollectActivity,
  IdentifyRequest,
  IdentifyResponse,
} from './public-apis.js';
