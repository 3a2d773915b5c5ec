/**
 * Wire types of the answers of the catalog API (`{items_url}`: item schemas, catalogs, item loads)
 * and of the older item and item-context APIs (`{base_url}/items...`). Their request bodies are
 * validated by the server and described in docs/catalog.md; the console lists catalogs through the admin API.
 */

export type AttributeType = 'TEXT' | 'INTEGER';

export interface AttributeDefinition {
  name: string;
  type: AttributeType;
}

/** `POST /item-schemas` (201) answers the stored version; posting a name again makes the next version. */
export interface ItemSchemaResponse {
  name: string;
  version: number;
  attributes: AttributeDefinition[];
  nestedItemSchemas: Array<{ name: string; attributes: AttributeDefinition[] }>;
  createdAt: string;
}

/** `GET /item-schemas`. */
export interface ItemSchemaListResponse {
  schemas: ItemSchemaResponse[];
}

/** `POST /items` and `PATCH /items`: how many items of the batch the catalog version stored. */
export interface ItemBatchResponse {
  catalogVersion: number;
  count: number;
}

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

/** `GET /catalogs`. */
export interface CatalogListResponse {
  catalogs: CatalogRecord[];
}

/** The admin API's `GET /admin/catalogs`: each version with its number of items, for the console. */
export interface AdminCatalogListResponse {
  catalogs: Array<CatalogRecord & { items: number }>;
}

/** One item batch sent to `POST` or `PATCH /items` of the catalog API: stored whole, or refused with its issues. */
export interface CatalogImportRecord {
  at: string;
  mode: 'load' | 'patch';
  /** The version the batch named; null when the body named none that could be read. */
  catalogVersion: number | null;
  /** Items sent. */
  received: number;
  /** Items stored: all of them, or 0 when the batch was refused. */
  stored: number;
  /** Why the batch was refused; absent when it was stored. */
  error?: string;
  /** What failed, item by item (`[3].attributes.price`), at most 100. */
  issues: Array<{ path: string; message: string }>;
  /** How many issues the refusal named, kept or not. */
  issueCount: number;
}

/** The admin API's `GET /admin/catalog-imports`: the latest imports, newest first. */
export interface AdminCatalogImportsResponse {
  imports: CatalogImportRecord[];
}

/** One row of the admin API's item list: what a merchandiser recognises an item by. */
export interface AdminItemRow {
  id: string;
  type: string;
  parentId?: string;
  title: string;
  /** Photo URL (http(s), site-relative or an inline image), empty when the item has none. */
  photo: string;
  /** Minor units (cents), when the item has a price. */
  price?: number;
  currency?: string;
}

/** The admin API's `GET /admin/items`: a page of a catalog version's items, ordered by id, optionally matching `q`. */
export interface AdminItemListResponse {
  catalogVersion: number;
  q: string;
  /** Items matching `q` (every item without it). */
  total: number;
  offset: number;
  limit: number;
  items: AdminItemRow[];
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

/** What the older item API's `POST /items` did with one action of the batch. */
export interface LegacyItemResult {
  index: number;
  action: 'create' | 'replace' | 'patch' | 'delete';
  /** The full `TENANT#VERSION#CONTEXT#KIND#ID` id of the item. */
  id: string;
  /** `absent`: a delete of an item that does not exist (already deleted by an earlier try of the batch). */
  status: 'created' | 'replaced' | 'patched' | 'deleted' | 'absent';
}

export interface LegacyItemsResponse {
  results: LegacyItemResult[];
}

/** An item context of the older API (`/items/contexts...`): `GET` by id or name, `PUT` (create) and `POST` (rename) answer one, the tenant listing an array. */
export interface ItemContext {
  id: string;
  name: string;
  tenant_ids: string[];
  createdAt: string;
  updatedAt: string;
}
