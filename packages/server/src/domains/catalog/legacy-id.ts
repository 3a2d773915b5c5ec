/**
 * Ids of the older item API, in every form the spec gives: `ID`, `KIND#ID`, `CONTEXT#KIND#ID`,
 * `VERSION#CONTEXT#KIND#ID`, `TENANT#VERSION#CONTEXT#KIND#ID`, and `{version, context, kind, id}`.
 * Missing parts default to version 0, context `default`, kind `product`.
 */

export interface LegacyId {
  version: number;
  context: string;
  kind: string;
  id: string;
}

export const DEFAULT_CONTEXT = 'default';
export const DEFAULT_KIND = 'product';
const MAX_VERSION = 1_000_000;
const PART = /^[^#\u0000-\u001f]{1,256}$/;

export type ParsedLegacyId = { ok: true; value: LegacyId } | { ok: false; message: string };

/** Parses `raw` for a caller of `tenantId`; a TENANT part naming another tenant is refused. */
export function parseLegacyId(raw: unknown, tenantId: string): ParsedLegacyId {
  if (typeof raw === 'string') return parseString(raw, tenantId);
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) return parseObject(raw as Record<string, unknown>);
  return fail('must be a string or an object {version, context, kind, id}');
}

function parseString(raw: string, tenantId: string): ParsedLegacyId {
  const parts = raw.split('#');
  if (parts.length > 5) return fail(`has ${parts.length} "#"-separated parts; at most 5 (TENANT#VERSION#CONTEXT#KIND#ID)`);
  const [id, kind = DEFAULT_KIND, context = DEFAULT_CONTEXT, version = '0', tenant] = [...parts].reverse() as [string, ...Array<string | undefined>];
  if (tenant !== undefined && tenant !== tenantId) return fail(`names tenant "${tenant}", but the caller's tenant is "${tenantId}"`);
  if (!/^\d{1,7}$/.test(version) || Number(version) > MAX_VERSION) return fail(`version "${version}" is not an integer between 0 and ${MAX_VERSION}`);
  return checked({ version: Number(version), context, kind, id });
}

function parseObject(raw: Record<string, unknown>): ParsedLegacyId {
  const extra = Object.keys(raw).filter((key) => !['version', 'context', 'kind', 'id'].includes(key));
  if (extra.length > 0) return fail(`unknown key "${extra[0]}"; an id object has version, context, kind and id`);
  const { version = 0, context = DEFAULT_CONTEXT, kind = DEFAULT_KIND, id } = raw;
  if (typeof id !== 'string') return fail('the "id" key is required and must be a string');
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 0 || version > MAX_VERSION) {
    return fail(`"version" must be an integer between 0 and ${MAX_VERSION}`);
  }
  if (typeof context !== 'string') return fail('"context" must be a string');
  if (typeof kind !== 'string') return fail('"kind" must be a string');
  return checked({ version, context, kind, id });
}

function checked(value: LegacyId): ParsedLegacyId {
  for (const part of ['context', 'kind', 'id'] as const) {
    if (!PART.test(value[part])) return fail(`${part} "${value[part]}" must be 1 to 256 characters without "#" or control characters`);
  }
  return { ok: true, value };
}

function fail(message: string): ParsedLegacyId {
  return { ok: false, message };
}

/** The key of an older-API item inside its version's item store. */
export function legacyKey(id: LegacyId): string {
  return `${id.context}#${id.kind}#${id.id}`;
}

/** The full `TENANT#VERSION#CONTEXT#KIND#ID` form, used as the product `id` recommendations return. */
export function formatLegacyId(tenantId: string, id: LegacyId): string {
  return `${tenantId}#${id.version}#${id.context}#${id.kind}#${id.id}`;
}
