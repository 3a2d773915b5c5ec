/** The first-party cookie that keeps a shopper's profile id between visits. */

export interface ProfileCookieOptions {
  /** Cookie name; default `dk_pid`. */
  name?: string;
  /** Share the cookie across subdomains, such as `.shop.example`. Default: this host only. */
  domain?: string;
  /** Days the cookie lives; default 395 (13 months). */
  lifetimeDays?: number;
}

export const DEFAULT_COOKIE_NAME = 'dk_pid';
export const DEFAULT_LIFETIME_DAYS = 395;

/** Profile ids are server-made: anything else in the cookie is ignored rather than sent on. */
const PROFILE_ID = /^[A-Za-z0-9_-]{1,128}$/;

export function readProfileCookie(options: ProfileCookieOptions = {}, cookies = document.cookie): string | undefined {
  const name = options.name ?? DEFAULT_COOKIE_NAME;
  for (const part of cookies.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key !== name) continue;
    // Anything may sit in a cookie (another script, a hand edit): a malformed escape is no profile id, not an error.
    let value: string;
    try {
      value = decodeURIComponent(rest.join('='));
    } catch {
      return undefined;
    }
    return PROFILE_ID.test(value) ? value : undefined;
  }
  return undefined;
}

/** The `document.cookie` assignment that stores `profileId`: SameSite=Lax, and Secure on https pages. */
export function profileCookieString(profileId: string, options: ProfileCookieOptions = {}, protocol = location.protocol): string {
  if (!PROFILE_ID.test(profileId)) throw new Error(`Not a profile id: ${profileId}`);
  const name = options.name ?? DEFAULT_COOKIE_NAME;
  const maxAge = Math.round((options.lifetimeDays ?? DEFAULT_LIFETIME_DAYS) * 86400);
  let cookie = `${name}=${encodeURIComponent(profileId)}; Path=/; Max-Age=${maxAge}; SameSite=Lax`;
  if (options.domain !== undefined) cookie += `; Domain=${options.domain}`;
  if (protocol === 'https:') cookie += '; Secure';
  return cookie;
}

export function writeProfileCookie(profileId: string, options: ProfileCookieOptions = {}): void {
  document.cookie = profileCookieString(profileId, options);
}

export function clearProfileCookie(options: ProfileCookieOptions = {}): void {
  const name = options.name ?? DEFAULT_COOKIE_NAME;
  document.cookie = `${name}=; Path=/; Max-Age=0; SameSite=Lax${options.domain !== undefined ? `; Domain=${options.domain}` : ''}`;
}
