/** An item's values of one attribute, as filters, facets, sorts and suggest's groups read them. */
import type { StoredItem } from '../../catalog/types.js';
import type { FilterValue } from '../../../platform/filter-language/filter-tree.js';

/** Attributes whose comma-joined TEXT is a list (the product view splits `categories` the same way). */
const LIST_ATTRIBUTES = new Set(['categories', 'category', 'tags']);

export function attributeValues(item: StoredItem, attribute: string): FilterValue[] {
  if (attribute === 'id') return [item.id];
  return valuesOfAttribute(attribute, item.attributes[attribute] ?? (item as unknown as Record<string, unknown>)[attribute]);
}

/** One attribute's stored value as the values a filter compares with (widgets read product views through it too). */
export function valuesOfAttribute(attribute: string, value: unknown): FilterValue[] {
  if (typeof value === 'number' || typeof value === 'boolean') return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  if (typeof value !== 'string') return [];
  if (LIST_ATTRIBUTES.has(attribute)) return value.split(',').map((v) => v.trim()).filter((v) => v !== '');
  return [value];
}
