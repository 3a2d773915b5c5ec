/** The demo storefront the companion serves under /shop/ in demo mode. */
export { createStorefrontApi, Storefront } from './storefront.js';
export type { StorefrontOptions, StorefrontProduct } from './storefront.js';
export { html, escapeHtml, jsonScript, Markup } from './html.js';
