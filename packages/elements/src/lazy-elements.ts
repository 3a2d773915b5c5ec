/**
 * The embed's way of defining elements: the ones most pages use at once, the others (search results, the
 * e-mail block) from a second file fetched the first time such a tag is on the page.
 */
import { LitElement, css, html, nothing } from 'lit';
import { toolkitConfig } from './config.js';
import { DiscoveryRecommendations } from './recommendations/recommendations.js';
import { DiscoverySearchBox } from './search-box/search-box.js';

/** The tags defined by the second file. */
const LAZY_TAGS = ['discovery-search-results', 'discovery-email-recommendations'];

declare global {
  // eslint-disable-next-line no-var
  var __discoveryKitLit: { LitElement: typeof LitElement; html: typeof html; css: typeof css; nothing: typeof nothing } | undefined;
}

/** Defines the common elements now, and loads `lazyUrl` once a lazy tag appears (now or later). */
export function defineEmbedElements(lazyUrl: string): void {
  if (!customElements.get('discovery-recommendations')) customElements.define('discovery-recommendations', DiscoveryRecommendations);
  if (!customElements.get('discovery-search-box')) customElements.define('discovery-search-box', DiscoverySearchBox);
  if (LAZY_TAGS.every((tag) => customElements.get(tag))) return;
  // One Lit for both files: templates and `nothing` must be the same objects to render together.
  globalThis.__discoveryKitLit ??= { LitElement, html, css, nothing };
  const selector = LAZY_TAGS.join(',');
  let observer: MutationObserver | undefined;
  const load = () => {
    observer?.disconnect();
    import(/* @vite-ignore */ lazyUrl)
      .then((module: { defineLazyElements: (config: ReturnType<typeof toolkitConfig>) => void }) => module.defineLazyElements(toolkitConfig()))
      .catch(() => {
        // The page keeps working without search results; the browser already logged the failed load.
      });
  };
  if (document.querySelector(selector)) {
    load();
    return;
  }
  observer = new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (node instanceof Element && (node.matches(selector) || node.querySelector(selector))) {
          load();
          return;
        }
      }
    }
  });
  observer.observe(document.documentElement, { childList: true, subtree: true });
}
