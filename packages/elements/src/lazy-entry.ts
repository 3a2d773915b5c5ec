/**
 * discovery-pages.js: the elements only some pages use (search results, the e-mail block), loaded by the
 * embed when such an element is on the page, so every other page downloads less. It shares the embed's Lit
 * (the build points `lit` at the copy the embed publishes) and takes the embed's configuration.
 */
import type { ToolkitConfig } from '@discovery-kit/protocol';
import { configureToolkit } from './config.js';
import { DiscoveryEmailRecommendations } from './email-recommendations/email-recommendations.js';
import { DiscoverySearchResults } from './search-results/search-results.js';

export function defineLazyElements(config: ToolkitConfig): void {
  configureToolkit(config);
  if (!customElements.get('discovery-search-results')) customElements.define('discovery-search-results', DiscoverySearchResults);
  if (!customElements.get('discovery-email-recommendations')) customElements.define('discovery-email-recommendations', DiscoveryEmailRecommendations);
}
