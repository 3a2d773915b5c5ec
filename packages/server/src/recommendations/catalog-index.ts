/**
 * The active catalog of one environment as recommendations read it: product views by id and the
 * category and brand postings that content similarity walks. Built on first use and dropped when the
 * catalog changes, so a recommendation never scans the item store.
 */
import type { CatalogService } from '../catalog/catalog-service.js';
import { toProductView, type ProductView } from '../catalog/product-view.js';
import type { StoredItem } from '../catalog/types.js';

export interface IndexedItem {
  item: StoredItem;
  view: ProductView;
}

export interface CatalogIndex {
  version: number;
  /** Items in catalog order; variants are left out, a widget recommends products. */
  items: IndexedItem[];
  byId: Map<string, IndexedItem>;
  byCategory: Map<string, string[]>;
  byBrand: Map<string, string[]>;
}

export class CatalogIndexes {
  private readonly catalog: CatalogService;
  private readonly built = new Map<string, Promise<CatalogIndex | undefined>>();

  constructor(catalog: CatalogService) {
    this.catalog = catalog;
    // Any write to the active catalog or a promotion invalidates: the next request rebuilds from the store.
    catalog.onItemsChanged((change) => this.built.delete(key(change.scope.tenantId, change.scope.environmentId)));
    catalog.onActivate(async (tenantId, environmentId) => {
      this.built.delete(key(tenantId, environmentId));
    });
  }

  /** The index of the active catalog, or undefined when the environment has none. */
  async active(tenantId: string, environmentId: string): Promise<CatalogIndex | undefined> {
    const record = await this.catalog.catalogs.active(tenantId, environmentId);
    if (record === undefined) return undefined;
    const k = key(tenantId, environmentId);
    let index = this.built.get(k);
    const current = index === undefined ? undefined : await index;
    if (current !== undefined && current.version === record.version) return current;
    index = this.build(tenantId, environmentId, record.version);
    this.built.set(k, index);
    return index;
  }

  private async build(tenantId: string, environmentId: string, version: number): Promise<CatalogIndex> {
    const stored = await this.catalog.allItems(tenantId, environmentId, version);
    return buildCatalogIndex(stored, { tenantId, version });
  }
}

export function buildCatalogIndex(stored: readonly StoredItem[], options: { tenantId: string; version: number }): CatalogIndex {
  const index: CatalogIndex = { version: options.version, items: [], byId: new Map(), byCategory: new Map(), byBrand: new Map() };
  for (const item of stored) {
    if (item.parentId !== undefined) continue;
    const entry = { item, view: toProductView(item, options) };
    index.items.push(entry);
    index.byId.set(item.id, entry);
    for (const category of entry.view.categories) post(index.byCategory, category.toLowerCase(), item.id);
    const brand = brandOf(entry.view);
    if (brand !== undefined) post(index.byBrand, brand, item.id);
  }
  return index;
}

export function brandOf(view: ProductView): string | undefined {
  const brand = view.brand ?? view.brand_name;
  return typeof brand === 'string' && brand !== '' ? brand.toLowerCase() : undefined;
}

function post(map: Map<string, string[]>, term: string, id: string): void {
  const list = map.get(term);
  if (list === undefined) map.set(term, [id]);
  else list.push(id);
}

function key(tenantId: string, environmentId: string): string {
  return `${tenantId}\u0000${environmentId}`;
}
