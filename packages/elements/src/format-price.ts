/** Prices travel as integer cents; shoppers read them in their locale's currency format. */

// Page-wide memo: a formatter is costly to build and never changes, and a page shows a handful of locale-currency pairs.
const formatters = new Map<string, Intl.NumberFormat>();

export function formatPrice(cents: unknown, currency = 'EUR', locale = navigator.language): string {
  if (typeof cents !== 'number' || !Number.isFinite(cents)) return '';
  const key = `${locale}|${currency}`;
  let formatter = formatters.get(key);
  if (formatter === undefined) {
    try {
      formatter = new Intl.NumberFormat(locale, { style: 'currency', currency });
    } catch {
      // An unknown currency code or locale in catalog data must not break the card.
      formatter = new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    }
    formatters.set(key, formatter);
  }
  return formatter.format(cents / 100);
}
