/** Lit custom elements of the browser toolkit, and the helpers they share. */
export { safeLinkUrl, safeImageUrl } from './safe-url.js';
export { formatPrice } from './format-price.js';
