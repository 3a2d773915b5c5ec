/**
 * The one rule for a URL a catalog item carries (its page, its photo), whichever way it was written:
 * the catalog API, the older item API, a feed import through the companion (it writes through the
 * catalog API). It is applied where the item becomes a product view (product-view.ts), so values stored
 * before the rule are covered too, and where an e-mail link follows one (email-links.ts).
 *
 * Browsers drop tabs, newlines and carriage returns inside a URL and trim control characters and spaces
 * at its ends, so `"/\t/evil.example"` is read as `//evil.example`: a value is cleaned of whitespace and
 * control characters at its ends, and refused (empty) when any are left inside, bar a plain space (sent
 * as `%20`). What remains must be an http(s) URL, a protocol-relative `//host/...` one, or a site path
 * (one slash, then no slash or backslash: `/\host` is `//host` to a browser); anything else is refused.
 */

/** Whitespace (Unicode's, as `\s`) and C0/C1 control characters. */
const EDGES = /^[\s\u0000-\u001f\u007f-\u009f]+|[\s\u0000-\u001f\u007f-\u009f]+$/g;
const INSIDE = /[\u0000-\u001f\u007f-\u009f]|(?! )\s/;
const ABSOLUTE = /^(https?:)?\/\/[^/\\\s]/i;
const SITE_PATH = /^\/(?![/\\])/;

/** The URL as it may be rendered into a page or followed, or `''` when it must not be. */
export function catalogUrl(value: string | undefined): string {
  if (value === undefined) return '';
  const trimmed = value.replace(EDGES, '');
  if (INSIDE.test(trimmed)) return '';
  return ABSOLUTE.test(trimmed) || SITE_PATH.test(trimmed) ? trimmed.replaceAll(' ', '%20') : '';
}
