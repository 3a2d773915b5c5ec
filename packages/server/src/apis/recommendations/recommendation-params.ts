/** Reads a recommendation request: `variables` (query or trailing path segment), paging, banned ids and `nocache`. */
import type { ParsedUrlQuery } from 'node:querystring';
import { HttpError } from '../http/errors.js';
import { singleParam } from '../http/query.js';
import { languageOf } from '../../domains/catalog/localized.js';

export interface RecommendationParams {
  variables: Record<string, unknown>;
  limit: number | undefined;
  offset: number;
  idsToBan: string[];
  nocache: boolean;
  /** `lang` (`fr`, `fr-FR`): the page's language; anything else reads as none (the items' own texts). */
  language: string | undefined;
}

const MAX_LIMIT = 100;

export function isVariablesSegment(segment: string): boolean {
  return segment.trimStart().startsWith('{');
}

/** `pathVariables` is the decoded trailing path segment when the path carried one; the query parameter wins. */
export function readParams(query: ParsedUrlQuery, pathVariables: string | undefined): RecommendationParams {
  const raw = singleParam(query.variables, 'variables') ?? pathVariables;
  const limit = integer(query.limit, 'limit', 1, MAX_LIMIT);
  const page = integer(query.page, 'page', 1, 10_000);
  const offsetParam = integer(query.offset, 'offset', 0, 10_000);
  if (page !== undefined && offsetParam !== undefined) {
    throw new HttpError(400, 'invalid_parameter', 'Give "page" or "offset", not both.', { field: 'page' });
  }
  const offset = offsetParam ?? (page === undefined ? 0 : (page - 1) * (limit ?? 0));
  if (page !== undefined && limit === undefined && page > 1) {
    throw new HttpError(400, 'invalid_parameter', 'A "page" past the first needs a "limit".', { field: 'limit' });
  }
  const nocache = query.nocache !== undefined && singleParam(query.nocache, 'nocache') !== 'false' && singleParam(query.nocache, 'nocache') !== '0';
  const lang = singleParam(query.lang, 'lang');
  return { variables: parseVariables(raw), limit, offset, idsToBan: idList(query.idsToBan), nocache, language: languageOf(lang?.slice(0, 35)) };
}

function parseVariables(raw: string | undefined): Record<string, unknown> {
  if (raw === undefined || raw === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new HttpError(400, 'invalid_parameter', 'The "variables" parameter is not valid JSON.', { field: 'variables' });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HttpError(400, 'invalid_parameter', 'The "variables" parameter must be a JSON object with "$"-prefixed keys.', { field: 'variables' });
  }
  const bad = Object.keys(value).find((key) => !key.startsWith('$'));
  if (bad !== undefined) {
    throw new HttpError(400, 'invalid_parameter', `The "variables" key "${bad}" must start with "$".`, { field: 'variables' });
  }
  return value as Record<string, unknown>;
}

/** `idsToBan=a,b`, repeated `idsToBan=a&idsToBan=b`, or a JSON array. */
function idList(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  const parts = Array.isArray(value) ? value : [value];
  return parts.flatMap((part) => {
    if (part.trimStart().startsWith('[')) {
      try {
        const list: unknown = JSON.parse(part);
        if (Array.isArray(list)) return list.map(String);
      } catch {
        // Falls through to the comma form: an id may start with "[".
      }
    }
    return part.split(',').map((id) => id.trim()).filter((id) => id !== '');
  });
}


function integer(value: string | string[] | undefined, name: string, min: number, max: number): number | undefined {
  const text = singleParam(value, name);
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < min || n > max) {
    throw new HttpError(400, 'invalid_parameter', `"${name}" must be an integer from ${min} to ${max}.`, { field: name });
  }
  return n;
}
