/** Catalog data is untrusted when rendered: only http(s) and relative URLs (and inline images) reach an href or src. */

const SAFE_PROTOCOLS = new Set(['http:', 'https:']);

/**
 * Returns `value` when it is safe as a link target, `undefined` otherwise.
 * Relative URLs are resolved against `base` only to check them; the original text is returned.
 */
export function safeLinkUrl(value: unknown, base = location.href): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  try {
    return SAFE_PROTOCOLS.has(new URL(value, base).protocol) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Like `safeLinkUrl`, and also accepts `data:image/...` URLs, which browsers never run as script in an <img>. */
export function safeImageUrl(value: unknown, base = location.href): string | undefined {
  if (typeof value === 'string' && /^data:image\/(png|jpeg|gif|webp|svg\+xml)[;,]/i.test(value.trim())) return value;
  return safeLinkUrl(value, base);
}
