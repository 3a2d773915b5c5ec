/**
 * A page of a catalog version's items for a person browsing it (the console's catalog page): ordered
 * by id, optionally only those whose id or title holds the words typed, each as the row a
 * merchandiser recognises (photo, title, price, id).
 */
import type { AdminItemRow } from '@discovery-kit/protocol';
import { safeImageUrl } from './product-view.js';
import type { StoredItem } from './types.js';

export interface ItemPageOptions {
  /** Matched case-insensitively against the id and the title; empty matches every item. */
  q: string;
  offset: number;
  limit: number;
}

const byId = new Intl.Collator('en', { numeric: true });

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function rowOf(item: StoredItem): AdminItemRow {
  const attrs = item.attributes;
  const price = item.price ?? (typeof attrs.price === 'number' && Number.isFinite(attrs.price) ? attrs.price : undefined);
  const currency = text(attrs.currency);
  return {
    id: item.id,
    type: item.type,
    ...(item.parentId !== undefined ? { parentId: item.parentId } : {}),
    title: item.title ?? text(attrs.title) ?? text(attrs.name) ?? '',
    photo: safeImageUrl(item.image ?? text(attrs.image) ?? text(attrs.photo)),
    ...(price !== undefined ? { price } : {}),
    ...(currency !== undefined ? { currency } : {}),
  };
}

/** Filters and sorts every item of the version on each call: no index behind it (docs/admin-api.md, known limit). */
export function itemPage(items: readonly StoredItem[], options: ItemPageOptions): { total: number; items: AdminItemRow[] } {
  const words = options.q.toLowerCase().split(/\s+/).filter((w) => w !== '');
  const rows = items.map(rowOf).filter((row) => {
    if (words.length === 0) return true;
    const haystack = `${row.id} ${row.title}`.toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
  rows.sort((a, b) => byId.compare(a.id, b.id));
  return { total: rows.length, items: rows.slice(options.offset, options.offset + options.limit) };
}
