/** Wire types shared by the server and the browser packages, and the browser toolkit's event contract. */
export type { ErrorBody, ErrorCode, FieldIssue } from './errors.js';
export type { HealthResponse } from './health.js';
export { ACTIVITY_EVENT } from './browser.js';
export type { ActivityIntent, ActivityEvent, ToolkitConfig } from './browser.js';
export type {
  ProductView,
  RecommendationResponse,
  CollectAction,
  CollectActivity,
  IdentifyRequest,
  IdentifyResponse,
} from './public-apis.js';
export type {
  SortKey,
  DisableName,
  SearchRequest,
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
