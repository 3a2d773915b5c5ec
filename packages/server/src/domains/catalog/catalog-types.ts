/** The item types a catalog accepts, resolved once from the schema versions it references. */
import type { AttributeType, ItemSchemaRecord } from './types.js';

export interface ItemType {
  name: string;
  attributes: Map<string, AttributeType>;
  /** For a nested type (variant): the type its parent must have. */
  parentType?: string;
}

export function resolveTypes(schemas: readonly ItemSchemaRecord[]): Map<string, ItemType> {
  const types = new Map<string, ItemType>();
  for (const schema of schemas) {
    types.set(schema.name, { name: schema.name, attributes: new Map(schema.attributes.map((a) => [a.name, a.type])) });
    for (const nested of schema.nestedItemSchemas) {
      types.set(nested.name, { name: nested.name, attributes: new Map(nested.attributes.map((a) => [a.name, a.type])), parentType: schema.name });
    }
  }
  return types;
}

/** The problem with one attribute value, or undefined when it fits its declared type. */
export function attributeProblem(type: ItemType, name: string, value: unknown): string | undefined {
  const declared = type.attributes.get(name);
  if (declared === undefined) {
    const known = [...type.attributes.keys()];
    return `unknown attribute for type "${type.name}"${known.length > 0 ? ` (declared: ${known.join(', ')})` : ' (it declares none)'}`;
  }
  if (declared === 'INTEGER' && !(typeof value === 'number' && Number.isSafeInteger(value))) return 'expected an integer (INTEGER attribute)';
  if (declared === 'TEXT') {
    if (typeof value !== 'string') return 'expected a string (TEXT attribute)';
    if (value.length > MAX_TEXT_LENGTH) return `longer than ${MAX_TEXT_LENGTH} characters`;
  }
  return undefined;
}

export const MAX_TEXT_LENGTH = 65_536;
