/**
 * What the catalog domain accepts, already in shape: the API modules (apis/catalog, apis/legacy-items)
 * parse request bodies into these types, and the domain checks only what needs stored state (an
 * unknown catalog or schema, an item's type and parent, a context that is not declared). Other
 * callers (demo seed, benches) build them directly.
 */
import type { FieldIssue } from '@discovery-kit/protocol';
import type { LegacyId } from './legacy-id.js';
import type { AttributeDefinition, StoredItem } from './types.js';

export interface ItemSchemaInput {
  name: string;
  attributes?: AttributeDefinition[];
  nestedItemSchemas?: Array<{ name: string; attributes?: AttributeDefinition[] }>;
}

export interface CatalogInput {
  catalogItemSchemas: Array<{ name: string; version: number }>;
}

/** One item of a load or patch batch; every item of a batch names the same catalog version. */
export interface CatalogItemInput {
  id: string;
  catalogVersion: number;
  type: string;
  parentId?: string;
  attributes?: Record<string, unknown>;
}

export interface ItemContextInput {
  name: string;
  tenant_ids: string[];
}

export interface ItemContextRename {
  id: string;
  name: string;
}

export type LegacyActionName = 'create' | 'replace' | 'patch' | 'delete';

/** An older-API item's fields: the listed ones, and any other key as a custom attribute. */
export type LegacyItemData = Partial<Pick<StoredItem, 'title' | 'image' | 'url' | 'tags' | 'booster' | 'price' | 'recommended' | 'attributes' | 'l10n'>> & {
  [extra: string]: unknown;
};

/** An action whose shape and id are valid; `index` is its place in the request, for naming it in a refusal. */
export interface LegacyAction {
  index: number;
  action: LegacyActionName;
  id: LegacyId;
  data: LegacyItemData;
}

/**
 * An older-API batch after its shape was read: the well-formed actions, and the issues of the others.
 * The shape issues travel with the batch because the refusal of a batch names every bad action at
 * once, those refused for their shape and those refused for what is stored alike.
 */
export interface LegacyBatch {
  /** How many actions the request held, well-formed or not. */
  total: number;
  actions: LegacyAction[];
  issues: FieldIssue[];
}
