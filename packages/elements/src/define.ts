/** Registers the toolkit's custom elements; calling it again, or after a shop defined a tag itself, does nothing. */
import { DiscoveryEmailRecommendations } from './email-recommendations/email-recommendations.js';
import { DiscoveryRecommendations } from './recommendations/recommendations.js';
import { DiscoverySearchBox } from './search-box/search-box.js';
import { DiscoverySearchResults } from './search-results/search-results.js';

const ELEMENTS: ReadonlyArray<readonly [string, CustomElementConstructor]> = [
  ['discovery-recommendations', DiscoveryRecommendations],
  ['discovery-search-box', DiscoverySearchBox],
  ['discovery-search-results', DiscoverySearchResults],
  ['discovery-email-recommendations', DiscoveryEmailRecommendations],
];

export function defineElements(): void {
  for (const [tag, element] of ELEMENTS) {
    if (!customElements.get(tag)) customElements.define(tag, element);
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'discovery-recommendations': DiscoveryRecommendations;
    'discovery-search-box': DiscoverySearchBox;
    'discovery-search-results': DiscoverySearchResults;
    'discovery-email-recommendations': DiscoveryEmailRecommendations;
  }
}
