/** Automatic activity tags for storefronts: profile cookie, durable activity queue, DOM tags. No Lit. */
export { startTracker } from './tracker.js';
export type { Tracker, TrackerOptions } from './tracker.js';
export type { ActivityUser, TrackedActivity, PurchaseItem, PurchaseOrder } from './activity.js';
export type { ActivityIntent, CollectActivity } from '@discovery-kit/protocol';
export {
  readProfileCookie,
  writeProfileCookie,
  clearProfileCookie,
  profileCookieString,
  DEFAULT_COOKIE_NAME,
  DEFAULT_LIFETIME_DAYS,
} from './profile-cookie.js';
export type { ProfileCookieOptions } from './profile-cookie.js';
export { readEmbedOptions, embedScript, startEmbeddedTracker } from './embed-options.js';
export type { EmbedOptions, EmbedGlobal } from './embed-options.js';
