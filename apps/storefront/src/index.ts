/** The demo storefront the companion serves under /shop/ in demo mode. */
export { createStorefrontApi, Storefront } from './storefront.js';
export type { StorefrontOptions, StorefrontProduct, StorefrontVariant } from './storefront.js';
export { html, escapeHtml, jsonScript, Markup } from './html.js';
