/** Draws a product's placeholder photo: a small SVG tile as a data URL, so the demo needs no image files. */
import { COLOURS, stableHash } from './product-text.js';

// Products without a colour word get a muted swatch picked by category, so a page of results is not all grey.
const CATEGORY_SWATCHES = ['#6b8f71', '#b5651d', '#5d6d7e', '#a0522d', '#7b6d8d', '#4a7c8c', '#9c6644', '#8c7a5b'];

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

function isLight(hex: string): boolean {
  const n = Number.parseInt(hex.slice(1), 16);
  const luminance = 0.299 * ((n >> 16) & 255) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255);
  return luminance > 160;
}

/** The first words of the title that fit on the tile. */
function shortTitle(title: string, limit = 18): string {
  let short = '';
  for (const word of title.split(' ')) {
    const next = short ? `${short} ${word}` : word;
    if (next.length > limit) break;
    short = next;
  }
  return short || title.slice(0, limit);
}

export function photoFor(title: string, category: string, colour: string | undefined): string {
  const fill = (colour && COLOURS[colour]) || CATEGORY_SWATCHES[stableHash(category) % CATEGORY_SWATCHES.length];
  const ink = isLight(fill) ? '#333' : '#fff';
  const initial = escapeXml(category.charAt(0));
  const label = escapeXml(shortTitle(title));
  const svg =
    `<svg xmlns='http://www.w3.org/2000/svg' width='160' height='160' viewBox='0 0 160 160'>` +
    `<rect width='160' height='160' rx='12' fill='${fill}'/>` +
    `<text x='80' y='88' font-family='Georgia,serif' font-size='56' fill='${ink}' text-anchor='middle'>${initial}</text>` +
    `<text x='80' y='132' font-family='sans-serif' font-size='13' fill='${ink}' text-anchor='middle'>${label}</text></svg>`;
  // Only the characters a data URL cannot carry raw are escaped, which keeps each photo near 500 bytes.
  return `data:image/svg+xml,${svg.replace(/%/g, '%25').replace(/#/g, '%23').replace(/</g, '%3C').replace(/>/g, '%3E').replace(/"/g, '%22')}`;
}
