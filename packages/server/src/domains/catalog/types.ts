/** The records of the catalog service: schemas, catalogs and the one item model both item APIs write. */

export const ATTRIBUTE_TYPES = ['TEXT', 'INTEGER'] as const;
export type AttributeType = (typeof ATTRIBUTE_TYPES)[number];

export interface AttributeDefinition {
  name: string;
  type: AttributeType;
}

export interface NestedItemSchema {
  name: string;
  attributes: AttributeDefinition[];
}

/** A stored schema version; schemas are immutable, posting the name again makes the next version. */
export interface ItemSchemaRecord {
  name: string;
  version: number;
  attributes: AttributeDefinition[];
  nestedItemSchemas: NestedItemSchema[];
  createdAt: string;
}

/** A catalog version as stored is exactly what the catalog API answers (the protocol's type). */
export type { CatalogRecord, CatalogState } from '@discovery-kit/protocol';

/**
 * The one item model. Catalog-API items fill `attributes` from their schema; older-API items fill the
 * fixed fields (title, url...) and keep custom attributes in `attributes` too. `key` is unique within
 * one item store: the id for catalog items, `CONTEXT#KIND#ID` for older-API items.
 */
export interface StoredItem {
  key: string;
  id: string;
  type: string;
  context: string;
  kind: string;
  parentId?: string;
  attributes: Record<string, unknown>;
  title?: string;
  image?: string;
  url?: string;
  tags?: string[];
  booster?: number;
  price?: number;
  recommended?: boolean;
  l10n?: Record<string, unknown>;
  /** ISO time of the last write. */
  updated: string;
}

/** Where an item store lives: a catalog version, or a version of the older item API. */
export interface ItemScope {
  tenantId: string;
  environmentId: string;
  /** `catalog` for the catalog API, `legacy` for the older item API. */
  api: 'catalog' | 'legacy';
  version: number;
}

export interface ItemsChanged {
  scope: ItemScope;
  upserted: StoredItem[];
  removedKeys: string[];
}

export type ActivationBuilder = (tenantId: string, environmentId: string, version: number, items: readonly StoredItem[]) => Promise<void>;
export type ItemsChangedListener = (change: ItemsChanged) => void;
