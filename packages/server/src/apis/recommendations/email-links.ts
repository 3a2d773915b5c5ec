/**
 * The two links an e-mail embeds per slot: photo.png (an <img> source that never breaks) and
 * redirect.html (sends the shopper on and records a click-on-reco). Both read the same cached list.
 */
import type { Context } from 'koa';
import type { ProductView } from '../../domains/catalog/product-view.js';
import { catalogUrl } from '../../domains/catalog/catalog-url.js';
import type { EmailSlots } from '../../domains/recommendations/recommendation-service.js';
import { SvgRasteriser } from '../../platform/media/svg-raster.js';

/** One per process: its cache is keyed by content, so tenants share renders of identical images only. */
const rasteriser = new SvgRasteriser();

/** A transparent 1×1 PNG: an empty slot in a mail shows nothing rather than a broken-image icon. */
export const PLACEHOLDER_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

/** The item at a 1-based position, or undefined for an index past the list, an emptied slot, or not a number. */
export function slotAt(list: EmailSlots, index: string): ProductView | undefined {
  if (!/^\d+$/.test(index)) return undefined;
  return list.slots[Number(index) - 1];
}

/**
 * An absolute http(s) URL to send a browser to, or undefined when the value must not be followed.
 * Absolute http(s) URLs pass; a site path (`/img/x.jpg`) resolves against `base` and must stay on
 * its origin (`/\\evil.example` would not); anything else (`javascript:`, `//host`, `img/x.jpg`) is refused.
 */
export function followableUrl(given: string | undefined, base: string): string | undefined {
  // The catalog's one rule first (control characters and whitespace), then what a redirect may follow.
  const value = catalogUrl(given);
  if (value === '') return undefined;
  let url: URL;
  try {
    if (/^https?:\/\//i.test(value)) url = new URL(value);
    else if (/^\/(?![/\\])/.test(value)) {
      url = new URL(value, base);
      if (url.origin !== new URL(base).origin) return undefined;
    } else return undefined;
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  // Resolved against "this server" with no configured address: the browser resolves the path itself.
  return url.origin === SAME_ORIGIN ? `${url.pathname}${url.search}${url.hash}` : url.href;
}

/**
 * The base for site paths when neither the widget's shop URL nor the server's public URL is set:
 * links then carry a path only, so the Host header of a request never chooses where they point.
 */
export const SAME_ORIGIN = 'http://same-origin.invalid';

/** `base` resolves site-relative photos (the widget's shopUrl, else the server's public URL). */
export function sendPhoto(ctx: Context, photo: string | undefined, base: string): void {
  ctx.set('Cache-Control', 'private, max-age=300');
  // Whatever is served from our origin is an image, never a page: no scripts, no sniffing it into HTML.
  ctx.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
  ctx.set('X-Content-Type-Options', 'nosniff');
  const remote = followableUrl(photo, base);
  if (remote !== undefined) {
    ctx.redirect(remote);
    return;
  }
  // The product view only lets inline images through; the demo catalog's are URL-encoded SVG, others base64.
  const inline = photo === undefined ? null : /^data:(image\/[a-z+]+)(;base64)?,(.*)$/is.exec(photo);
  ctx.status = 200;
  const image = inline === null ? undefined : decodeInline(inline[2] !== undefined, inline[3]!);
  // Mail clients (Gmail, Outlook) show no SVG: it is rasterised; other inline images are sent as they are.
  const body = image === undefined ? undefined : inline![1]!.toLowerCase() === 'image/svg+xml' ? rasteriser.toPng(image) : image;
  if (inline !== null && body !== undefined) {
    ctx.type = body === image ? inline[1]! : 'image/png';
    ctx.body = body;
    return;
  }
  ctx.type = 'image/png';
  ctx.body = PLACEHOLDER_PNG;
}

/** A malformed %-escape leaves the placeholder rather than an error page in a mail. */
function decodeInline(base64: boolean, data: string): Buffer | undefined {
  if (base64) return Buffer.from(data, 'base64');
  try {
    return Buffer.from(decodeURIComponent(data));
  } catch {
    return undefined;
  }
}

/** Callers pass a `followableUrl` or a configured fallback. */
export function sendRedirect(ctx: Context, url: string): void {
  ctx.set('Cache-Control', 'no-store');
  ctx.redirect(url);
}
