/**
 * What the one script tag says: `<script src="https://discovery.example/sdk/discovery.js"
 * data-tracker-key="..." data-search-token="..." async>`. The server is where the script came from
 * unless `data-api-base` says otherwise, so a shop copies the tag and nothing else.
 */
import { startTracker, type Tracker } from './tracker.js';

export interface EmbedOptions {
  apiBase: string;
  trackerKey?: string;
  searchToken?: string;
  collectUrl?: string;
  consent: 'required' | 'granted';
  autoTags: boolean;
  locale?: string;
  currency?: string;
  cookieDomain?: string;
  cookieDays?: number;
}

/** The embed's own script element: `currentScript` while a classic script runs, else the tag that loads a bundle of ours. */
export function embedScript(): HTMLScriptElement | undefined {
  const current = document.currentScript;
  if (current instanceof HTMLScriptElement) return current;
  return document.querySelector<HTMLScriptElement>('script[data-tracker-key][src],script[data-search-token][src],script[src*="/sdk/discovery"]') ?? undefined;
}

export function readEmbedOptions(script: HTMLScriptElement | undefined): EmbedOptions {
  const data = script?.dataset ?? {};
  const nonEmpty = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : value.trim());
  // `https://host/prefix/sdk/discovery.js` serves the APIs under `https://host/prefix`.
  const fromSrc = script?.src ? new URL('..', script.src).href.replace(/\/$/, '') : location.origin;
  const days = Number(data.cookieDays);
  return {
    apiBase: (nonEmpty(data.apiBase) ?? fromSrc).replace(/\/$/, ''),
    trackerKey: nonEmpty(data.trackerKey),
    searchToken: nonEmpty(data.searchToken),
    collectUrl: nonEmpty(data.collectUrl),
    consent: data.consent === 'required' ? 'required' : 'granted',
    autoTags: data.autoTags !== 'off' && data.autoTags !== 'false',
    locale: nonEmpty(data.locale),
    currency: nonEmpty(data.currency),
    cookieDomain: nonEmpty(data.cookieDomain),
    cookieDays: Number.isFinite(days) && days > 0 ? days : undefined,
  };
}

/** What the embed puts on `window.DiscoveryKit` for the page's own scripts. */
export interface EmbedGlobal {
  /** Undefined when the tag has no `data-tracker-key`. */
  tracker: Tracker | undefined;
  options: EmbedOptions;
}

/** Starts the tracker the script tag asks for, or explains in the console why there is none. */
export function startEmbeddedTracker(options: EmbedOptions): Tracker | undefined {
  if (options.trackerKey === undefined) {
    console.warn('Discovery Kit: the script tag has no data-tracker-key, so activities are not recorded.');
    return undefined;
  }
  return startTracker({
    apiBase: options.apiBase,
    trackerKey: options.trackerKey,
    collectUrl: options.collectUrl,
    consent: options.consent,
    autoTags: options.autoTags,
    cookie: { domain: options.cookieDomain, lifetimeDays: options.cookieDays },
  });
}

declare global {
  interface Window {
    DiscoveryKit?: EmbedGlobal;
  }
}
