/**
 * The two links an e-mail embeds per slot: photo.png (an <img> source that never breaks) and
 * redirect.html (sends the shopper on and records a click-on-reco). Both read the same cached list.
 */
import type { Context } from 'koa';
import type { ProductView } from '../../catalog/product-view.js';
import type { EmailSlots } from '../../recommendations/recommendation-service.js';

/** A transparent 1×1 PNG: an empty slot in a mail shows nothing rather than a broken-image icon. */
export const PLACEHOLDER_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

/** The item at a 1-based position, or undefined for an index past the list, an emptied slot, or not a number. */
export function slotAt(list: EmailSlots, index: string): ProductView | undefined {
  if (!/^\d+$/.test(index)) return undefined;
  return list.slots[Number(index) - 1];
}

export function sendPhoto(ctx: Context, photo: string | undefined): void {
  ctx.set('Cache-Control', 'private, max-age=300');
  if (photo !== undefined && /^https?:\/\//i.test(photo)) {
    ctx.redirect(photo);
    return;
  }
  // The product view only lets inline images through; the demo catalog's are URL-encoded SVG, others base64.
  const inline = photo === undefined ? null : /^data:(image\/[a-z+]+)(;base64)?,(.*)$/is.exec(photo);
  ctx.status = 200;
  const image = inline === null ? undefined : decodeInline(inline[2] !== undefined, inline[3]!);
  if (inline !== null && image !== undefined) {
    ctx.type = inline[1]!;
    ctx.body = image;
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

/** Only absolute http(s) URLs and site paths are followed; the product view already blanks anything else. */
export function sendRedirect(ctx: Context, url: string): void {
  ctx.set('Cache-Control', 'no-store');
  ctx.redirect(url);
}
