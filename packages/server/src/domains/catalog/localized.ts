/**
 * An item's texts in one language. Both APIs give per-language texts, read the same way:
 * - the catalog API, as schema attributes named `<attribute>@<language>` (`title@fr`, `url@fr`,
 *   `description@fr`: ordinary TEXT attributes, declared in the item schema like any other);
 * - the older item API, as `l10n: {fr: {title, url, image, <attribute>…}}` (ISO 639-1 keys).
 * `title@fr` names the French title wherever an attribute is named (a search configuration's
 * `fields`); a localized view replaces each field it has a translation of and keeps the item's own
 * text for the others, so an unknown language gives the item as it is.
 */
import type { ProductView } from './product-view.js';
import type { StoredItem } from './types.js';

/** `fr` from `fr`, `fr-FR`, `FR_fr`; undefined for anything that is not a two-letter language tag. */
export function languageOf(locale: string | undefined): string | undefined {
  const match = locale === undefined ? null : /^([a-zA-Z]{2})(?:[-_][a-zA-Z0-9]{1,8})*$/.exec(locale.trim());
  return match === null ? undefined : match[1]!.toLowerCase();
}

/** `["title", "fr"]` for `title@fr`; undefined for a plain attribute name. */
export function localizedName(name: string): [string, string] | undefined {
  const at = name.lastIndexOf('@');
  if (at <= 0) return undefined;
  const language = name.slice(at + 1);
  return /^[a-z]{2}$/.test(language) ? [name.slice(0, at), language] : undefined;
}

function translations(item: StoredItem, language: string): Record<string, unknown> | undefined {
  const entry = item.l10n !== undefined && Object.hasOwn(item.l10n, language) ? item.l10n[language] : undefined;
  return typeof entry === 'object' && entry !== null && !Array.isArray(entry) ? (entry as Record<string, unknown>) : undefined;
}

/** The item's `attribute` in `language` (a catalog attribute `attribute@language`, else its older-API `l10n`), or undefined. */
export function localizedValue(item: StoredItem, attribute: string, language: string): unknown {
  const own = item.attributes[`${attribute}@${language}`];
  if (own !== undefined) return own;
  const l10n = translations(item, language);
  if (l10n === undefined) return undefined;
  if (Object.hasOwn(l10n, attribute)) return l10n[attribute];
  const listed = l10n.attributes;
  return typeof listed === 'object' && listed !== null && Object.hasOwn(listed, attribute) ? (listed as Record<string, unknown>)[attribute] : undefined;
}

/** Attribute names a view shows under another name (the older API's `image` is the view's `photo`). */
const VIEW_NAMES: Record<string, string> = { image: 'photo' };

/** `view` with the item's texts in `language` where it has them; `view` itself when it has none. */
export function localizeView(view: ProductView, item: StoredItem, language: string | undefined): ProductView {
  if (language === undefined) return view;
  let out: ProductView | undefined;
  const names = new Set<string>(['title', 'url', 'image', 'photo', 'description']);
  for (const key of Object.keys(item.attributes)) {
    const name = localizedName(key);
    if (name !== undefined && name[1] === language) names.add(name[0]);
  }
  const l10n = translations(item, language);
  for (const key of Object.keys(l10n ?? {})) if (key !== 'attributes') names.add(key);
  if (typeof l10n?.attributes === 'object' && l10n.attributes !== null) for (const key of Object.keys(l10n.attributes)) names.add(key);
  for (const name of names) {
    const value = localizedValue(item, name, language);
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') continue;
    // A translated link must be as safe as the item's own: only http(s), protocol-relative or a path.
    if ((name === 'url' || name === 'image' || name === 'photo') && (typeof value !== 'string' || !/^(https?:\/\/|\/)/i.test(value))) continue;
    out ??= { ...view };
    (out as Record<string, unknown>)[VIEW_NAMES[name] ?? name] = value;
  }
  return out ?? view;
}
