/** Item schemas per tenant and environment: immutable versions, the next one made by posting the name again. */
import type { Clock } from '../../platform/clock.js';
import type { DocumentStore, StoredDocument } from '../../platform/store/document-store.js';
import type { ItemSchemaInput } from './catalog-inputs.js';
import type { AttributeDefinition, ItemSchemaRecord } from './types.js';

interface SchemasDocument {
  schemas: ItemSchemaRecord[];
}

export class ItemSchemas {
  private readonly store: DocumentStore;
  private readonly clock: Clock;

  constructor(store: DocumentStore, clock: Clock) {
    this.store = store;
    this.clock = clock;
  }

  private doc(tenantId: string, environmentId: string): Promise<StoredDocument<SchemasDocument>> {
    return this.store.document<SchemasDocument>(`tenants/${tenantId}/envs/${environmentId}/item-schemas`, () => ({ schemas: [] }));
  }

  /** Stores `input` (shape checked by the caller) as the next version of its name. */
  async create(tenantId: string, environmentId: string, input: ItemSchemaInput): Promise<ItemSchemaRecord> {
    const doc = await this.doc(tenantId, environmentId);
    return doc.update((data) => {
      const latest = data.schemas.filter((s) => s.name === input.name).reduce((max, s) => Math.max(max, s.version), 0);
      const record: ItemSchemaRecord = {
        name: input.name,
        version: latest + 1,
        attributes: copyAttributes(input.attributes),
        nestedItemSchemas: (input.nestedItemSchemas ?? []).map((n) => ({ name: n.name, attributes: copyAttributes(n.attributes) })),
        createdAt: new Date(this.clock.now()).toISOString(),
      };
      data.schemas.push(record);
      return record;
    });
  }

  async list(tenantId: string, environmentId: string): Promise<ItemSchemaRecord[]> {
    return [...(await this.doc(tenantId, environmentId)).data.schemas];
  }

  async get(tenantId: string, environmentId: string, name: string, version: number): Promise<ItemSchemaRecord | undefined> {
    return (await this.doc(tenantId, environmentId)).data.schemas.find((s) => s.name === name && s.version === version);
  }
}

function copyAttributes(attributes: readonly AttributeDefinition[] = []): AttributeDefinition[] {
  return attributes.map((a) => ({ name: a.name, type: a.type }));
}
