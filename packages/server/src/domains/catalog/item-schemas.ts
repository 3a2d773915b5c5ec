/** Item schemas per tenant and environment: immutable versions, the next one made by posting the name again. */
import { z } from 'zod';
import type { Clock } from '../../platform/clock.js';
import { parseInput } from '../../platform/validation.js';
import type { DocumentStore, StoredDocument } from '../../platform/store/document-store.js';
import { ATTRIBUTE_TYPES, type ItemSchemaRecord } from './types.js';

/** Names become item `type`s and attribute keys: printable, no `#` (older ids use it), bounded. */
export const NAME = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[^\s#\u0000-\u001f][^#\u0000-\u001f]*$/, 'must not start with a space or contain "#" or control characters');

const attribute = z.object({
  name: NAME,
  type: z.string().refine((t) => (ATTRIBUTE_TYPES as readonly string[]).includes(t), {
    message: `unknown attribute type; allowed types are ${ATTRIBUTE_TYPES.join(', ')}`,
  }),
});

const attributes = z
  .array(attribute)
  .max(500)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((a, index) => {
      if (seen.has(a.name)) ctx.addIssue({ code: 'custom', path: [index, 'name'], message: `duplicate attribute name "${a.name}"` });
      seen.add(a.name);
    });
  });

export const schemaInput = z
  .strictObject({
    name: NAME,
    attributes: attributes.default([]),
    nestedItemSchemas: z.array(z.strictObject({ name: NAME, attributes: attributes.default([]) })).max(20).default([]),
  })
  .superRefine((schema, ctx) => {
    const names = new Set([schema.name]);
    schema.nestedItemSchemas.forEach((nested, index) => {
      if (names.has(nested.name)) {
        ctx.addIssue({ code: 'custom', path: ['nestedItemSchemas', index, 'name'], message: `"${nested.name}" is already a type name in this schema` });
      }
      names.add(nested.name);
    });
  });

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

  /** Validates `input` (400 naming each bad field) and stores it as the next version of its name. */
  async create(tenantId: string, environmentId: string, input: unknown): Promise<ItemSchemaRecord> {
    const parsed = parseInput(schemaInput, input);
    const doc = await this.doc(tenantId, environmentId);
    return doc.update((data) => {
      const latest = data.schemas.filter((s) => s.name === parsed.name).reduce((max, s) => Math.max(max, s.version), 0);
      const record: ItemSchemaRecord = {
        name: parsed.name,
        version: latest + 1,
        attributes: parsed.attributes.map((a) => ({ name: a.name, type: a.type as ItemSchemaRecord['attributes'][number]['type'] })),
        nestedItemSchemas: parsed.nestedItemSchemas.map((n) => ({
          name: n.name,
          attributes: n.attributes.map((a) => ({ name: a.name, type: a.type as ItemSchemaRecord['attributes'][number]['type'] })),
        })),
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
