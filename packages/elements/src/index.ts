/** Lit custom elements of the browser toolkit, and the helpers they share. */
export { configureToolkit } from './config.js';
export { defineElements } from './define.js';
export { DiscoveryRecommendations } from './recommendations/recommendations.js';
export type { RecommendationsAnswer, RecommendedCard } from './recommendations/recommendations-request.js';
export { DiscoverySearchBox, SEARCH_BOX_DEBOUNCE_MS } from './search-box/search-box.js';
export { DiscoverySearchResults } from './search-results/search-results.js';
export type { Facet, FacetValue, SearchAnswer } from './search-request.js';
export type { SearchResultsMessages, SortOption } from './search-results/search-results.js';
export { readSearchState, writeSearchState } from './search-results/search-state.js';
export type { SearchState } from './search-results/search-state.js';
export { DiscoveryEmailRecommendations } from './email-recommendations/email-recommendations.js';
export { emailRecommendationsHtml } from './email-recommendations/email-html.js';
export type { EmailBlockOptions } from './email-recommendations/email-html.js';
export { NAVIGATE_EVENT } from './events.js';
export type { NavigateDetail } from './events.js';
export type { ProductCard } from './product-card.js';
export { safeLinkUrl, safeImageUrl } from './safe-url.js';
export { formatPrice } from './format-price.js';
