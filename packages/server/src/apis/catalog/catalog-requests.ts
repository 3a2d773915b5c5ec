/**
 * The shape of the catalog API's request bodies: item schemas, catalogs and item batches, parsed into
 * the catalog domain's input types. A bad field is refused here with its path; what needs stored state
 * (which schemas and catalog versions exist, an item's type and parent) is the domain's to check.
 */
import { z } from 'zod';
import type { FieldIssue } from '@discovery-kit/protocol';
import { batchRefusal } from '../../domains/catalog/batch-issues.js';
import type { CatalogInput, CatalogItemInput, ItemSchemaInput } from '../../domains/catalog/catalog-inputs.js';
import { ATTRIBUTE_TYPES, type AttributeType } from '../../domains/catalog/types.js';
import { DomainError } from '../../platform/domain-error.js';
import { formatPath, parseInput, plainObject } from '../http/validate.js';

/** More than this in one call is refused whole: the bench loads 100,000 items as 20 batches of 5,000. */
export const MAX_ITEMS_PER_BATCH = 10_000;

/** Names become item `type`s and attribute keys: printable, no `#` (older ids use it), bounded. */
const NAME = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[^\s#\u0000-\u001f][^#\u0000-\u001f]*$/, 'must not start with a space or contain "#" or control characters');

const attribute = z.object({
  name: NAME,
  type: z.string().refine((t): t is AttributeType => (ATTRIBUTE_TYPES as readonly string[]).includes(t), {
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

export const catalogInput = z.strictObject({
  catalogItemSchemas: z.array(z.strictObject({ name: z.string().min(1), version: z.number().int().min(1) })).min(1).max(20),
});

const ID = z.string().min(1).max(256);
export const itemInput = z.strictObject({
  id: ID,
  catalogVersion: z.number().int().min(1),
  type: z.string().min(1),
  parentId: ID.optional(),
  attributes: plainObject.default({}),
});

export function parseSchemaRequest(body: unknown): ItemSchemaInput {
  return parseInput(schemaInput, body);
}

export function parseCatalogRequest(body: unknown): CatalogInput {
  return parseInput(catalogInput, body);
}

/** An item batch: an array of 1 to MAX_ITEMS_PER_BATCH items, each of the right shape, or one refusal naming every bad item. */
export function parseItemBatch(body: unknown): CatalogItemInput[] {
  if (!Array.isArray(body)) throw new DomainError('invalid', 'The body must be an array of catalog items.', '(body)');
  if (body.length === 0) throw new DomainError('invalid', 'The batch is empty.', '(body)');
  if (body.length > MAX_ITEMS_PER_BATCH) {
    throw new DomainError('limit_exceeded', `At most ${MAX_ITEMS_PER_BATCH} items per call (got ${body.length}); nothing was stored. Send them in batches.`, '(body)');
  }
  const issues: FieldIssue[] = [];
  const items: CatalogItemInput[] = [];
  body.forEach((raw, index) => {
    const result = itemInput.safeParse(raw);
    if (result.success) items.push(result.data);
    else for (const issue of result.error.issues) issues.push({ path: formatPath(issue.path, `[${index}]`), message: issue.message });
  });
  if (issues.length > 0) throw batchRefusal(issues, body.length, 'items', 'stored');
  return items;
}
