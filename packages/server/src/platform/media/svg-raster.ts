/**
 * SVG product photos turned into PNGs for e-mail: Gmail and Outlook do not display SVG, so an inline SVG
 * photo is rasterised on the server with resvg (a Rust renderer shipped as prebuilt npm platform packages,
 * no install script, no browser), fitted into a square for a mail column, and cached by content.
 */
import { createHash } from 'node:crypto';
import { Resvg } from '@resvg/resvg-js';
import { deleteOldest } from '../collections/oldest-first.js';

/** Mail templates lay products out in 600 px with two or more per row; 300 px also covers 2x screens of 150 px slots. */
export const EMAIL_PHOTO_SIZE = 300;
/** Larger inline SVGs are refused (the placeholder is served) rather than rendered: rendering time grows with them. */
export const MAX_SVG_BYTES = 200_000;
const CACHE_ENTRIES = 500;

/**
 * An SVG may name files or URLs (`<image href>`, `xlink:href`, CSS `url()`); resvg would read local files.
 * Only same-document references (`#id`) and inline `data:` images are allowed.
 */
const EXTERNAL_REFERENCE = /(?:href\s*=\s*["']\s*(?!#|data:)|url\(\s*["']?\s*(?!#|data:))/i;

export class SvgRasteriser {
  /** Content hash → PNG; insertion order doubles as least-recently-used order. */
  private readonly cache = new Map<string, Buffer>();

  constructor(private readonly size = EMAIL_PHOTO_SIZE) {}

  /** The PNG of `svg` fitted into size×size on white, or undefined when it is too large, refers outside itself, or does not parse. */
  toPng(svg: Buffer): Buffer | undefined {
    if (svg.length > MAX_SVG_BYTES) return undefined;
    const key = createHash('sha256').update(svg).digest('base64url');
    const cached = this.cache.get(key);
    if (cached !== undefined) {
      this.cache.delete(key);
      this.cache.set(key, cached);
      return cached;
    }
    const text = svg.toString('utf8');
    if (EXTERNAL_REFERENCE.test(text)) return undefined;
    let png: Buffer;
    try {
      const renderer = new Resvg(text, {
        fitTo: { mode: 'width', value: this.size },
        background: 'white',
        font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' },
        logLevel: 'off',
      });
      // A tall drawing would come out taller than the slot: fit the height instead.
      if (renderer.height > renderer.width) {
        png = new Resvg(text, { fitTo: { mode: 'height', value: this.size }, background: 'white', font: { loadSystemFonts: true }, logLevel: 'off' }).render().asPng();
      } else png = renderer.render().asPng();
    } catch {
      return undefined;
    }
    this.cache.set(key, png);
    if (this.cache.size > CACHE_ENTRIES) deleteOldest(this.cache);
    return png;
  }
}
