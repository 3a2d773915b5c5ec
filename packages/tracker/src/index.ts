/** Automatic activity tags for storefronts: profile cookie, durable activity queue, DOM tags. No Lit. */
export {
  readProfileCookie,
  writeProfileCookie,
  clearProfileCookie,
  profileCookieString,
  DEFAULT_COOKIE_NAME,
  DEFAULT_LIFETIME_DAYS,
} from './profile-cookie.js';
export type { ProfileCookieOptions } from './profile-cookie.js';
