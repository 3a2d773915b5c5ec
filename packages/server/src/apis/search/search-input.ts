/**
 * Fast path of search-schemas.ts `searchSchema`: must equal it, refusals included (search-fast-path.test.ts).
 *
 * A search request's body read without zod when it has the common shape (a token, a query, the usual
 * options with plain values): the same output the schema gives, at a fraction of the cost. The fast
 * reader never refuses: anything it is not sure of (an unknown key, a wrong type, a value out of
 * range, a rare option) goes to the schema, so every refusal, and its error body, is the schema's.
 * search-fast-path.test.ts holds both to that: same output for accepted shapes, same bodies for refused ones.
 */
import type { z } from 'zod';
import { DISABLE_NAMES, MAX_LIMIT, MAX_OFFSET, MAX_SORT_KEYS, type searchSchema } from './search-schemas.js';

export type SearchInput = z.output<typeof searchSchema>;

/** The schema's limits (the ones it names, and the ones written inline there, checked by the tests above). */
export const SEARCH_LIMITS = { maxQuery: 1_000, maxOffset: MAX_OFFSET, maxLimit: MAX_LIMIT, maxSortKeys: MAX_SORT_KEYS, maxSortAttribute: 200, maxFilter: 10_000, maxMask: 2_000, maxHighlightFields: 20, maxHighlightField: 100 } as const;

// `groupOptions` (rare) is left to the schema; `context` is passed on as sent (search-context.ts reads it).
const TOP_KEYS = new Set(['token', 'query', 'configurationId', 'options', 'itemOptions', 'context', 'disable']);
const OPTION_KEYS = new Set(['offset', 'limit', 'sortBy', 'facets', 'filter', 'customResponseMask', 'disable', 'highlight', 'asYouType']);
const DISABLED: ReadonlySet<string> = new Set(DISABLE_NAMES);

type Plain = Record<string, unknown>;
type Disable = SearchInput['disable'];

function isPlain(value: unknown): value is Plain {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every own key is one of `allowed`. */
function onlyKeys(value: Plain, allowed: ReadonlySet<string>): boolean {
  for (const key in value) if (!allowed.has(key)) return false;
  return Object.getPrototypeOf(value) === Object.prototype;
}

function isCount(value: unknown, max: number): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= max;
}

function optionalString(value: unknown, max: number): boolean {
  return value === undefined || (typeof value === 'string' && value.length <= max);
}

/** The request as the schema would parse it, or undefined when the schema must decide. */
export function readSearchInput(raw: unknown): SearchInput | undefined {
  if (!isPlain(raw) || !onlyKeys(raw, TOP_KEYS)) return undefined;
  const { token, query, configurationId, options } = raw;
  if (typeof token !== 'string' || token.length === 0) return undefined;
  if (!optionalString(query, SEARCH_LIMITS.maxQuery) || (configurationId !== undefined && typeof configurationId !== 'string')) return undefined;
  const disable = readDisable(raw.disable);
  if (disable === undefined) return undefined;
  const parsedOptions = options === undefined ? {} : isPlain(options) && onlyKeys(options, OPTION_KEYS) ? options : undefined;
  if (parsedOptions === undefined) return undefined;
  const read = readOptions(parsedOptions);
  if (read === undefined) return undefined;
  const input: SearchInput = { token, query: (query as string | undefined) ?? '', options: read, disable };
  if (configurationId !== undefined) input.configurationId = configurationId as string;
  if (raw.itemOptions !== undefined) {
    const itemOptions = isPlain(raw.itemOptions) && onlyKeys(raw.itemOptions, OPTION_KEYS) ? readOptions(raw.itemOptions) : undefined;
    if (itemOptions === undefined) return undefined;
    input.itemOptions = itemOptions;
  }
  if ('context' in raw) input.context = raw.context;
  return input;
}

function readOptions(options: Plain): SearchInput['options'] | undefined {
  const { offset = 0, limit = 10, filter, customResponseMask, highlight, asYouType } = options;
  if (!isCount(offset, SEARCH_LIMITS.maxOffset) || !isCount(limit, Number.MAX_SAFE_INTEGER)) return undefined;
  if (!optionalString(filter, SEARCH_LIMITS.maxFilter) || !optionalString(customResponseMask, SEARCH_LIMITS.maxMask)) return undefined;
  const sortBy = readSortBy(options.sortBy);
  const facets = readFacets(options.facets);
  const disable = readDisable(options.disable);
  if (sortBy === undefined || facets === undefined || disable === undefined) return undefined;
  if (highlight !== undefined && typeof highlight !== 'boolean' && !isHighlightList(highlight)) return undefined;
  if (asYouType !== undefined && typeof asYouType !== 'boolean') return undefined;
  const out: SearchInput['options'] = { offset, limit: Math.min(limit, SEARCH_LIMITS.maxLimit), sortBy, facets, disable };
  if (filter !== undefined) out.filter = filter as string;
  if (customResponseMask !== undefined) out.customResponseMask = customResponseMask as string;
  if (highlight !== undefined) out.highlight = highlight as true | false | string[];
  if (asYouType !== undefined) out.asYouType = asYouType;
  return out;
}

function isHighlightList(value: unknown): value is string[] {
  if (!Array.isArray(value) || value.length > SEARCH_LIMITS.maxHighlightFields) return false;
  for (const field of value) if (typeof field !== 'string' || field.length === 0 || field.length > SEARCH_LIMITS.maxHighlightField) return false;
  return true;
}

const SORT_KEYS = new Set(['attribute', 'order']);

function readSortBy(value: unknown): SearchInput['options']['sortBy'] | undefined {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length > SEARCH_LIMITS.maxSortKeys) return undefined;
  const out: SearchInput['options']['sortBy'] = [];
  for (const key of value) {
    if (!isPlain(key) || !onlyKeys(key, SORT_KEYS)) return undefined;
    const { attribute, order = 'asc' } = key;
    if (typeof attribute !== 'string' || attribute.length === 0 || attribute.length > SEARCH_LIMITS.maxSortAttribute || typeof order !== 'string') return undefined;
    const lower = order.toLowerCase();
    if (lower !== 'asc' && lower !== 'desc') return undefined;
    out.push({ attribute, order: lower });
  }
  return out;
}

const FACET_KEYS = new Set(['id', 'values']);

function readFacets(value: unknown): SearchInput['options']['facets'] | undefined {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return undefined;
  const out: SearchInput['options']['facets'] = [];
  for (const facet of value) {
    if (!isPlain(facet) || !onlyKeys(facet, FACET_KEYS)) return undefined;
    const { id, values = [] } = facet;
    if (typeof id !== 'string' || id.length === 0 || !Array.isArray(values)) return undefined;
    for (const v of values) if (typeof v !== 'string') return undefined;
    out.push({ id, values: [...(values as string[])] });
  }
  return out;
}

/** `disable` as the schema reads it: `{name}` objects (other keys dropped, as z.object drops them). */
function readDisable(value: unknown): Disable | undefined {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return undefined;
  const out: Disable = [];
  for (const entry of value) {
    if (!isPlain(entry) || typeof entry.name !== 'string' || !DISABLED.has(entry.name)) return undefined;
    out.push({ name: entry.name as Disable[number]['name'] });
  }
  return out;
}
