/** Toolkit-wide settings, set once by the embed or a bundler user; an element's own attributes override them. */
import type { ToolkitConfig } from '@discovery-kit/protocol';

// Page-wide on purpose: one script tag (or one bundler call) configures every element on the page.
let current: ToolkitConfig = { apiBase: '' };

/** Sets the defaults every element reads when it fetches or formats; later calls merge into earlier ones. */
export function configureToolkit(config: ToolkitConfig): void {
  current = { ...current, ...config };
}

export function toolkitConfig(): Readonly<ToolkitConfig> {
  return current;
}

/** `path` on the element's `api-base`, else the configured one; an empty base means this page's origin. */
export function apiUrl(apiBase: string | null | undefined, path: string): string {
  return (apiBase || current.apiBase || '').replace(/\/+$/, '') + path;
}

/** Locale for prices: the configuration, else the page's `<html lang>`, else the browser's. */
export function priceLocale(): string {
  return current.locale || document.documentElement.lang || navigator.language;
}

/** Currency for prices: the configuration wins, then the product's own `currency`, then EUR. */
export function priceCurrency(productCurrency?: unknown): string {
  return current.currency || (typeof productCurrency === 'string' && productCurrency) || 'EUR';
}
