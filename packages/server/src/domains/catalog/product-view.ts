/**
 * The item as recommendations return it (`product` in the spec): one shape whichever API wrote the
 * item. Catalog-API items carry their fixed fields as schema attributes (`title`, `url`, `image`,
 * `price`...), older-API items as fields; both end up in the same places.
 */
import type { ProductView } from '@discovery-kit/protocol';
import { formatLegacyId } from './legacy-id.js';
import { catalogUrl } from './catalog-url.js';
import type { StoredItem } from './types.js';

/** The product as search and recommendations return it; its wire shape lives in the protocol package. */
export type { ProductView };

export interface ProductViewOptions {
  tenantId: string;
  /** The catalog version, or the older API's id version. */
  version: number;
}

export function toProductView(item: StoredItem, options: ProductViewOptions): ProductView {
  const attrs = item.attributes;
  const own: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(attrs)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') own[name] = value;
  }
  // A catalog-API `image` attribute is passed on as written beside `photo`: the same rule applies to it.
  if (typeof own.image === 'string') own.image = safeImageUrl(own.image);
  return {
    ...own,
    version: options.version,
    context: item.context,
    id: formatLegacyId(options.tenantId, { version: options.version, context: item.context, kind: item.kind, id: item.id }),
    _id: { original_id: item.id, tenant: options.tenantId, kind: item.kind },
    type: item.type,
    title: viewTitleOf(item),
    url: catalogUrl(item.url ?? text(attrs.url)),
    recommended: recommendedOf(item),
    booster: boosterOf(item),
    price: item.price ?? int(attrs.price) ?? 0,
    discount_rate: int(attrs.discount_rate) ?? 0,
    metadata: { updated: item.updated },
    categories: item.tags ?? categories(attrs.categories ?? attrs.category),
    photo: safeImageUrl(item.image ?? text(attrs.image) ?? text(attrs.photo)),
  };
}

/** The view's `title`, without building the view (the recommendation index counts title endings over a catalog). */
export function viewTitleOf(item: StoredItem): string {
  return item.title ?? text(item.attributes.title) ?? text(item.attributes.name) ?? '';
}

/** The view's `recommended`, without building the view (recommendations check it on every candidate). */
export function recommendedOf(item: StoredItem): boolean {
  return item.recommended ?? flag(item.attributes.recommended) ?? true;
}

/** The view's `booster`, without building the view. */
export function boosterOf(item: StoredItem): number {
  return item.booster ?? int(item.attributes.booster) ?? 0;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Catalog-API attributes are TEXT or INTEGER, so a `recommended` flag arrives as 0/1 or "true"/"false". */
function flag(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 0 || value === 'false' || value === '0') return false;
  if (value === 1 || value === 'true' || value === '1') return true;
  return undefined;
}

function int(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** A TEXT attribute holds one string, so a list of categories is written `a, b`. */
function categories(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  if (typeof value !== 'string') return [];
  return value.split(',').map((c) => c.trim()).filter((c) => c !== '');
}

/** Inline images are safe in an <img>, which never runs script; other URLs follow the catalog's one rule (catalog-url.ts). */
export function safeImageUrl(value: string | undefined): string {
  if (value !== undefined && /^data:image\/(png|jpeg|gif|webp|svg\+xml)[;,]/i.test(value)) return value;
  return catalogUrl(value);
}
