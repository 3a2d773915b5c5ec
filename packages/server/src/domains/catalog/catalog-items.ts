/**
 * Loading and patching catalog items: every item of a batch is checked against the catalog's schemas
 * before anything is written, so a batch is stored whole or not at all, and a refusal names each bad
 * item and field (`[3].attributes.price`). The items' shape was checked by the caller (apis/catalog).
 */
import type { FieldIssue } from '@discovery-kit/protocol';
import type { Clock } from '../../platform/clock.js';
import { DomainError } from '../../platform/domain-error.js';
import { batchRefusal } from './batch-issues.js';
import type { CatalogItemInput } from './catalog-inputs.js';
import { attributeProblem, resolveTypes, type ItemType } from './catalog-types.js';
import type { Catalogs } from './catalogs.js';
import { queueKey } from './catalogs.js';
import type { ChangeFeed } from './change-feed.js';
import type { ItemSchemas } from './item-schemas.js';
import type { ItemStore } from './item-store.js';
import type { KeyedQueue } from '../../platform/collections/keyed-queue.js';
import type { ItemSchemaRecord, ItemScope, StoredItem } from './types.js';

type ItemInput = CatalogItemInput & { attributes: Record<string, unknown> };

export interface BatchResult {
  catalogVersion: number;
  /** How many items the batch stored, in request order. */
  count: number;
}

export interface CatalogItemsOptions {
  clock: Clock;
  catalogs: Catalogs;
  schemas: ItemSchemas;
  items: ItemStore;
  queue: KeyedQueue;
  feed: ChangeFeed;
}

export class CatalogItems {
  private readonly options: CatalogItemsOptions;

  constructor(options: CatalogItemsOptions) {
    this.options = options;
  }

  /** Creates or replaces items (parents and variants together). */
  load(tenantId: string, environmentId: string, input: readonly CatalogItemInput[]): Promise<BatchResult> {
    return this.batch(tenantId, environmentId, input, 'load');
  }

  /** Changes only the attributes given; `null` removes an attribute. The identifying fields must match the stored item. */
  patch(tenantId: string, environmentId: string, input: readonly CatalogItemInput[]): Promise<BatchResult> {
    return this.batch(tenantId, environmentId, input, 'patch');
  }

  private async batch(tenantId: string, environmentId: string, input: readonly CatalogItemInput[], mode: 'load' | 'patch'): Promise<BatchResult> {
    // The API refuses an empty body first; this guards callers that build batches themselves.
    if (input.length === 0) throw new DomainError('invalid', 'The batch is empty.', '(body)');
    const issues: FieldIssue[] = [];
    const parsed: ItemInput[] = input.map((item) => ({ ...item, attributes: item.attributes ?? {} }));
    const version = parsed[0]!.catalogVersion;
    parsed.forEach((item, index) => {
      if (item.catalogVersion !== version) issues.push({ path: `[${index}].catalogVersion`, message: `every item of a batch names the same catalogVersion ([0] names ${version})` });
    });
    if (issues.length > 0) throw refusal(issues, input.length);
    const catalog = await this.options.catalogs.find(tenantId, environmentId, version);
    if (catalog === undefined) throw refusal([{ path: '[0].catalogVersion', message: `no catalog version ${version} exists for this tenant and environment` }], input.length);
    const schemas: ItemSchemaRecord[] = [];
    for (const ref of catalog.catalogItemSchemas) {
      const schema = await this.options.schemas.get(tenantId, environmentId, ref.name, ref.version);
      if (schema !== undefined) schemas.push(schema);
    }
    const types = resolveTypes(schemas);
    const scope: ItemScope = { tenantId, environmentId, api: 'catalog', version };

    return this.options.queue.run(queueKey(scope), async () => {
      const keys = new Set<string>();
      for (const item of parsed) {
        keys.add(item.id);
        if (item.parentId !== undefined) keys.add(item.parentId);
      }
      const stored = await this.options.items.getMany(scope, keys);
      const now = new Date(this.options.clock.now()).toISOString();
      const out = mode === 'load' ? this.checkLoad(parsed, types, stored, issues, now) : this.checkPatch(parsed, types, stored, issues, now);
      if (issues.length > 0) throw refusal(issues, input.length);
      // The catalog may have been deleted while this batch waited for the queue.
      const still = await this.options.catalogs.find(tenantId, environmentId, version);
      if (still === undefined) throw refusal([{ path: '[0].catalogVersion', message: `catalog version ${version} was deleted` }], input.length);
      await this.options.items.write(scope, out);
      this.options.feed.publish({ scope, upserted: out, removedKeys: [] }, still.state === 'active');
      return { catalogVersion: version, count: out.length };
    });
  }

  private checkLoad(parsed: ItemInput[], types: Map<string, ItemType>, stored: Map<string, StoredItem>, issues: FieldIssue[], now: string): StoredItem[] {
    const inBatch = new Map<string, { index: number; type: string }>();
    parsed.forEach((item, index) => {
      const first = inBatch.get(item.id);
      if (first !== undefined) issues.push({ path: `[${index}].id`, message: `duplicate id "${item.id}" (also at [${first.index}])` });
      else inBatch.set(item.id, { index, type: item.type });
    });
    const out: StoredItem[] = [];
    parsed.forEach((item, index) => {
      const type = types.get(item.type);
      if (type === undefined) {
        issues.push({ path: `[${index}].type`, message: `unknown type "${item.type}"; this catalog's types are ${[...types.keys()].join(', ')}` });
        return;
      }
      checkAttributes(type, item.attributes, index, issues, false);
      checkParent(item, type, index, inBatch, stored, issues);
      const attributes: Record<string, unknown> = {};
      for (const [name, value] of Object.entries(item.attributes)) Object.defineProperty(attributes, name, { value, enumerable: true, writable: true, configurable: true });
      out.push({ key: item.id, id: item.id, type: item.type, context: 'default', kind: 'product', ...(item.parentId !== undefined ? { parentId: item.parentId } : {}), attributes, updated: now });
    });
    return out;
  }

  private checkPatch(parsed: ItemInput[], types: Map<string, ItemType>, stored: Map<string, StoredItem>, issues: FieldIssue[], now: string): StoredItem[] {
    const seen = new Map<string, number>();
    const out: StoredItem[] = [];
    parsed.forEach((item, index) => {
      const first = seen.get(item.id);
      if (first !== undefined) return void issues.push({ path: `[${index}].id`, message: `duplicate id "${item.id}" (also at [${first}])` });
      seen.set(item.id, index);
      const current = stored.get(item.id);
      if (current === undefined) return void issues.push({ path: `[${index}].id`, message: `no item "${item.id}" in catalog version ${item.catalogVersion}` });
      if (current.type !== item.type) return void issues.push({ path: `[${index}].type`, message: `item "${item.id}" has type "${current.type}"` });
      if (current.parentId !== item.parentId) {
        return void issues.push({ path: `[${index}].parentId`, message: current.parentId === undefined ? `item "${item.id}" has no parent` : `item "${item.id}" has parent "${current.parentId}"` });
      }
      const type = types.get(item.type);
      if (type === undefined) return void issues.push({ path: `[${index}].type`, message: `type "${item.type}" is not in this catalog` });
      checkAttributes(type, item.attributes, index, issues, true);
      const attributes = { ...current.attributes };
      for (const [name, value] of Object.entries(item.attributes)) {
        if (value === null) delete attributes[name];
        else Object.defineProperty(attributes, name, { value, enumerable: true, writable: true, configurable: true });
      }
      out.push({ ...current, attributes, updated: now });
    });
    return out;
  }
}

function checkAttributes(type: ItemType, attributes: Record<string, unknown>, index: number, issues: FieldIssue[], allowNull: boolean): void {
  for (const [name, value] of Object.entries(attributes)) {
    if (allowNull && value === null && type.attributes.has(name)) continue;
    const problem = attributeProblem(type, name, value);
    if (problem !== undefined) issues.push({ path: `[${index}].attributes.${name}`, message: problem });
  }
}

function checkParent(item: ItemInput, type: ItemType, index: number, inBatch: Map<string, { type: string }>, stored: Map<string, StoredItem>, issues: FieldIssue[]): void {
  if (type.parentType === undefined) {
    if (item.parentId !== undefined) issues.push({ path: `[${index}].parentId`, message: `type "${type.name}" is not a nested type, so its items have no parentId` });
    return;
  }
  if (item.parentId === undefined) return void issues.push({ path: `[${index}].parentId`, message: `items of nested type "${type.name}" need a parentId` });
  const parentType = inBatch.get(item.parentId)?.type ?? stored.get(item.parentId)?.type;
  if (parentType === undefined) issues.push({ path: `[${index}].parentId`, message: `no item "${item.parentId}" in this batch or this catalog` });
  else if (parentType !== type.parentType) issues.push({ path: `[${index}].parentId`, message: `parent "${item.parentId}" has type "${parentType}", expected "${type.parentType}"` });
}

function refusal(issues: FieldIssue[], total: number): DomainError {
  return batchRefusal(issues, total, 'items', 'stored');
}
