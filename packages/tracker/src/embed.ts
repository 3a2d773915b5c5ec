/**
 * discovery-tracker.js: the tracker alone from one script tag, for shops that only record activities
 * (`<script src=".../sdk/discovery-tracker.js" data-tracker-key="..." async>`). A second tag, or the
 * full embed on the same page, leaves the first one in charge.
 */
import { embedScript, readEmbedOptions, startEmbeddedTracker } from './embed-options.js';

if (window.DiscoveryKit === undefined) {
  const options = readEmbedOptions(embedScript());
  window.DiscoveryKit = { tracker: startEmbeddedTracker(options), options };
  document.dispatchEvent(new CustomEvent('discovery-ready', { detail: window.DiscoveryKit }));
}
