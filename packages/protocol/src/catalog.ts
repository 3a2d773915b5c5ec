/**
 * Wire types of the catalog API (`{items_url}`) and the older item API's version calls, as far as a
 * reader of catalogs and items needs them (the console lists catalogs through the admin API).
 */

export type CatalogState = 'inactive' | 'building' | 'active';

export interface CatalogRecord {
  version: number;
  state: CatalogState;
  catalogItemSchemas: Array<{ name: string; version: number }>;
  createdAt: string;
  /** When it last became active; null while it never was. */
  activatedAt: string | null;
  /** Why the last promotion failed. */
  promotionError?: string;
}

/** `GET /catalogs`, and the admin API's `GET /admin/catalogs`. */
export interface CatalogListResponse {
  catalogs: CatalogRecord[];
}

/** `GET /catalogs/{version}/items/{id}`: the item as it was loaded. */
export interface CatalogItemResponse {
  id: string;
  catalogVersion: number;
  type: string;
  parentId?: string;
  attributes: Record<string, unknown>;
  /** ISO time of the last write. */
  updated: string;
}

/** Older item API: `GET /items/versions/live`. */
export interface LegacyVersionResponse {
  version: number;
}

/** Older item API: `POST /items/versions/{version}/activate` makes that version the live one. */
export interface LegacyActivateResponse {
  version: number;
  previous: number;
  items: number;
}
