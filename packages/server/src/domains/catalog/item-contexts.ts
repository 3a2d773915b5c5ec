/**
 * Item contexts (a store, a country...) that older-API ids may name. Every tenant has `default`;
 * others are declared with the tenants they belong to. A context still used by items cannot be
 * deleted or renamed, since items name their context in their id.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../platform/clock.js';
import { DomainError } from '../../platform/domain-error.js';
import type { DocumentStore, StoredDocument } from '../../platform/store/document-store.js';
import type { ItemContextInput, ItemContextRename } from './catalog-inputs.js';
import { DEFAULT_CONTEXT } from './legacy-id.js';

export interface ItemContextRecord {
  id: string;
  name: string;
  tenant_ids: string[];
  createdAt: string;
  updatedAt: string;
}

interface ContextsDocument {
  contexts: ItemContextRecord[];
}

export interface ItemContextsOptions {
  store: DocumentStore;
  clock: Clock;
  tenantExists(tenantId: string): boolean;
  /** How many older-API items of `tenantId` use the context named `name`. */
  itemsUsing(tenantId: string, name: string): Promise<number>;
}

export class ItemContexts {
  private readonly options: ItemContextsOptions;

  constructor(options: ItemContextsOptions) {
    this.options = options;
  }

  private doc(): Promise<StoredDocument<ContextsDocument>> {
    // Contexts can span tenants, so they live in one document rather than one per tenant.
    return this.options.store.document<ContextsDocument>('item-contexts', () => ({ contexts: [] }));
  }

  /** The `default` context exists for every tenant without being stored. */
  private defaultFor(tenantId: string): ItemContextRecord {
    return { id: DEFAULT_CONTEXT, name: DEFAULT_CONTEXT, tenant_ids: [tenantId], createdAt: new Date(0).toISOString(), updatedAt: new Date(0).toISOString() };
  }

  async list(tenantId: string): Promise<ItemContextRecord[]> {
    const own = (await this.doc()).data.contexts.filter((c) => c.tenant_ids.includes(tenantId));
    return [this.defaultFor(tenantId), ...own.map(copy)];
  }

  /** A context of the caller's tenant, by id; another tenant's context is a 404 like a missing one. */
  async get(tenantId: string, id: string): Promise<ItemContextRecord> {
    if (id === DEFAULT_CONTEXT) return this.defaultFor(tenantId);
    const found = (await this.doc()).data.contexts.find((c) => c.id === id && c.tenant_ids.includes(tenantId));
    if (found === undefined) throw new DomainError('not_found', `No item context "${id}" for tenant "${tenantId}".`, 'itemContextId');
    return copy(found);
  }

  async findByName(tenantId: string, name: string): Promise<ItemContextRecord | undefined> {
    if (name === DEFAULT_CONTEXT) return this.defaultFor(tenantId);
    const found = (await this.doc()).data.contexts.find((c) => c.name === name && c.tenant_ids.includes(tenantId));
    return found === undefined ? undefined : copy(found);
  }

  async getByName(tenantId: string, name: string): Promise<ItemContextRecord> {
    const found = await this.findByName(tenantId, name);
    if (found === undefined) throw new DomainError('not_found', `No item context named "${name}" for tenant "${tenantId}".`, 'contextName');
    return found;
  }

  async create(callerTenantId: string, input: ItemContextInput): Promise<ItemContextRecord> {
    const tenants = [...new Set(input.tenant_ids)];
    if (!tenants.includes(callerTenantId)) {
      throw new DomainError('forbidden', `tenant_ids must include the caller's tenant "${callerTenantId}".`, 'tenant_ids');
    }
    // A context is declared for the caller's own tenant only: naming another would put it in that
    // tenant's list (taking names from it), and telling known from unknown ids would list tenants.
    const other = input.tenant_ids.findIndex((t) => t !== callerTenantId);
    if (other >= 0) {
      throw new DomainError('forbidden', `tenant_ids[${other}]: a context can be declared for the caller's tenant "${callerTenantId}" only.`, `tenant_ids[${other}]`);
    }
    if (input.name === DEFAULT_CONTEXT) throw new DomainError('conflict', 'The "default" context exists for every tenant already.', 'name');
    const doc = await this.doc();
    return doc.update((data) => {
      const clash = data.contexts.find((c) => c.name === input.name && c.tenant_ids.some((t) => tenants.includes(t)));
      if (clash !== undefined) throw new DomainError('conflict', `A context named "${input.name}" already exists for tenant "${clash.tenant_ids.find((t) => tenants.includes(t))}".`, 'name');
      const now = new Date(this.options.clock.now()).toISOString();
      const record: ItemContextRecord = { id: randomUUID(), name: input.name, tenant_ids: tenants, createdAt: now, updatedAt: now };
      data.contexts.push(record);
      return copy(record);
    });
  }

  async rename(callerTenantId: string, input: ItemContextRename): Promise<ItemContextRecord> {
    if (input.id === DEFAULT_CONTEXT) throw new DomainError('conflict', 'The "default" context cannot be renamed.', 'id');
    const current = await this.get(callerTenantId, input.id);
    if (current.name === input.name) return current;
    await this.refuseWhileUsed(current, 'renamed');
    const doc = await this.doc();
    return doc.update((data) => {
      const record = data.contexts.find((c) => c.id === input.id);
      if (record === undefined) throw new DomainError('not_found', `No item context "${input.id}".`, 'id');
      const clash = data.contexts.find((c) => c.id !== record.id && c.name === input.name && c.tenant_ids.some((t) => record.tenant_ids.includes(t)));
      if (clash !== undefined || input.name === DEFAULT_CONTEXT) throw new DomainError('conflict', `A context named "${input.name}" already exists.`, 'name');
      record.name = input.name;
      record.updatedAt = new Date(this.options.clock.now()).toISOString();
      return copy(record);
    });
  }

  async delete(callerTenantId: string, id: string): Promise<void> {
    if (id === DEFAULT_CONTEXT) throw new DomainError('conflict', 'The "default" context cannot be deleted.', 'itemContextId');
    const current = await this.get(callerTenantId, id);
    await this.refuseWhileUsed(current, 'deleted');
    const doc = await this.doc();
    await doc.update((data) => {
      data.contexts = data.contexts.filter((c) => c.id !== id);
    });
  }

  private async refuseWhileUsed(context: ItemContextRecord, verb: string): Promise<void> {
    for (const tenantId of context.tenant_ids) {
      const count = await this.options.itemsUsing(tenantId, context.name);
      if (count > 0) {
        throw new DomainError('conflict', `Item context "${context.name}" cannot be ${verb}: ${count} item${count === 1 ? '' : 's'} of tenant "${tenantId}" still use it. Delete them first.`, 'itemContextId');
      }
    }
  }
}

function copy(record: ItemContextRecord): ItemContextRecord {
  return { ...record, tenant_ids: [...record.tenant_ids] };
}
