/**
 * discovery.js: the whole toolkit from one script tag. It reads the tag's data attributes, points the
 * elements at the server the script came from, defines them, and starts automatic tracking:
 *
 *   <script src="https://discovery.example/sdk/discovery.js" data-tracker-key="..." data-search-token="..." async></script>
 *
 * Page scripts find the tracker on `window.DiscoveryKit.tracker` once `discovery-ready` fired on
 * `document`. When a tracker already runs (a second tag, or discovery-tracker.js before this one),
 * it stays in charge and this tag only adds the elements.
 */
import { embedScript, readEmbedOptions, startEmbeddedTracker } from '@discovery-kit/tracker/embed-options';
import { configureToolkit } from './config.js';
import { defineEmbedElements } from './lazy-elements.js';

const script = embedScript();
const options = readEmbedOptions(script);
/** Beside this file: `.../sdk/discovery.js` loads `.../sdk/discovery-pages.js`. */
const lazyUrl = new URL('discovery-pages.js', script?.src || `${options.apiBase}/sdk/`).href;
const defineElements = () => defineEmbedElements(lazyUrl);
configureToolkit({ apiBase: options.apiBase, searchToken: options.searchToken, trackerKey: options.trackerKey, locale: options.locale, currency: options.currency });
if (window.DiscoveryKit === undefined) {
  // The tracker starts before the elements exist, so that it hears their first view events.
  window.DiscoveryKit = { tracker: startEmbeddedTracker(options), options };
  defineElements();
  document.dispatchEvent(new CustomEvent('discovery-ready', { detail: window.DiscoveryKit }));
} else {
  defineElements();
}
