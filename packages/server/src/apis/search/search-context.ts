/**
 * A search request's `context` (the published definition's `SearchContext`): `session`, the shopper's
 * ids by identity repository; `variables` (2.0: a map, name → value) and `contextVariables` (3.0: a
 * list of `{name, value: {stringValue | longValue | doubleValue | boolValue | dateValue |
 * stringListValue}}`). Values are read with their types; the configuration then keeps the variables
 * it declares (a value of another type is refused, an undeclared variable ignored).
 */
import type { VariableType } from '../../platform/config/context-conditions.js';
import type { ContextValue, ContextVariables } from '../../domains/search/rules/context-rules.js';
import { HttpError } from '../http/errors.js';

export const MAX_VARIABLES = 50;
export const MAX_VALUE_CHARS = 1_000;
const MAX_SESSION_IDS = 20;

/** A variable as sent, before the configuration's declarations apply; `field` names it in errors. */
export interface SentVariable {
  name: string;
  field: string;
  value: ContextValue;
  /** Sent untyped (the 2.0 map with a plain JSON value): the declared type may read it otherwise (a date from a string). */
  plain: boolean;
}

export interface SearchContextInput {
  session: Record<string, string>;
  variables: SentVariable[];
}

export const EMPTY_CONTEXT: SearchContextInput = { session: {}, variables: [] };

const VALUE_KEYS = { stringValue: 'string', longValue: 'long', doubleValue: 'double', boolValue: 'bool', dateValue: 'date', stringListValue: 'stringList' } as const;
type ValueKey = keyof typeof VALUE_KEYS;

const refuse = (field: string, message: string): HttpError => new HttpError(400, 'invalid_parameter', `${field} ${message}`, { field });

function isPlain(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: string, field: string): string {
  if (value.length > MAX_VALUE_CHARS) throw refuse(field, `is longer than ${MAX_VALUE_CHARS.toLocaleString('en')} characters (the limit of a context variable's value).`);
  return value;
}

function dateOf(value: unknown, field: string): number {
  const at = typeof value === 'string' && value.length <= 64 ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(at)) throw refuse(field, 'must be an ISO 8601 date (such as 2026-12-24T18:00:00Z).');
  return at;
}

/** `{stringValue: "paris"}` and the others: exactly one type set. */
function typedValue(raw: unknown, field: string): ContextValue {
  if (!isPlain(raw)) throw refuse(field, `must be an object with one of ${Object.keys(VALUE_KEYS).join(', ')}.`);
  const set = Object.keys(raw).filter((key) => raw[key] !== undefined && raw[key] !== null);
  const unknown = set.find((key) => !Object.hasOwn(VALUE_KEYS, key));
  if (unknown !== undefined) throw refuse(`${field}.${unknown}`, `is not a value type (use one of ${Object.keys(VALUE_KEYS).join(', ')}).`);
  if (set.length !== 1) throw refuse(field, set.length === 0 ? `sets no value (use one of ${Object.keys(VALUE_KEYS).join(', ')}).` : `sets ${set.length} value types (${set.join(', ')}); set exactly one.`);
  const key = set[0] as ValueKey;
  const value = raw[key];
  const at = `${field}.${key}`;
  switch (key) {
    case 'stringValue':
      if (typeof value !== 'string') throw refuse(at, 'must be a string.');
      return { type: 'string', value: text(value, at) };
    case 'longValue': {
      // Protocol buffers' JSON writes 64-bit integers as decimal strings.
      const n = typeof value === 'string' && /^-?\d{1,16}$/.test(value) ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isSafeInteger(n)) throw refuse(at, 'must be an integer.');
      return { type: 'long', value: n };
    }
    case 'doubleValue':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw refuse(at, 'must be a number.');
      return { type: 'double', value };
    case 'boolValue':
      if (typeof value !== 'boolean') throw refuse(at, 'must be true or false.');
      return { type: 'bool', value };
    case 'dateValue':
      return { type: 'date', value: dateOf(value, at) };
    case 'stringListValue': {
      const values = isPlain(value) ? value.values : undefined;
      if (!Array.isArray(values) || values.some((v) => typeof v !== 'string')) throw refuse(at, 'must be {values: [strings]}.');
      text((values as string[]).join(''), `${at}.values`);
      return { type: 'stringList', value: [...(values as string[])] };
    }
  }
}

/** A 2.0 map value: a typed value object, or plain JSON (string, integer, number, boolean, list of strings). */
function mapValue(raw: unknown, field: string): { value: ContextValue; plain: boolean } {
  if (typeof raw === 'string') return { value: { type: 'string', value: text(raw, field) }, plain: true };
  if (typeof raw === 'boolean') return { value: { type: 'bool', value: raw }, plain: true };
  if (typeof raw === 'number' && Number.isFinite(raw)) return { value: { type: Number.isSafeInteger(raw) ? 'long' : 'double', value: raw }, plain: true };
  if (Array.isArray(raw) && raw.every((v) => typeof v === 'string')) {
    text(raw.join(''), field);
    return { value: { type: 'stringList', value: [...raw] }, plain: true };
  }
  if (isPlain(raw)) return { value: typedValue(raw, field), plain: false };
  throw refuse(field, 'must be a string, a number, a boolean, a list of strings or a typed value such as {stringValue: "paris"}.');
}

function variableName(name: unknown, field: string): string {
  if (typeof name !== 'string' || name.length === 0 || name.length > 100) throw refuse(field, 'must be a name of 1 to 100 characters.');
  return name;
}

/** `[{name, value: {…Value}}]`: the 3.0 form (2.0's `variables` is read this way too when it is a list). */
function variableList(raw: unknown[], field: string): SentVariable[] {
  return raw.map((entry, i) => {
    const at = `${field}[${i}]`;
    if (!isPlain(entry)) throw refuse(at, 'must be {name, value}.');
    return { name: variableName(entry.name, `${at}.name`), field: `${at}.value`, value: typedValue(entry.value, `${at}.value`), plain: false };
  });
}

function session(raw: unknown): Record<string, string> {
  if (raw === undefined || raw === null) return {};
  if (!isPlain(raw)) throw refuse('context.session', 'must be an object of identity repository → id strings.');
  const entries = Object.entries(raw);
  if (entries.length > MAX_SESSION_IDS) throw refuse('context.session', `holds more than ${MAX_SESSION_IDS} ids.`);
  const out: Record<string, string> = {};
  for (const [key, value] of entries) {
    if (typeof value !== 'string' || value.length > 200) throw refuse(`context.session.${key}`, 'must be a string of at most 200 characters.');
    out[key] = value;
  }
  return out;
}

/** Reads `context` (absent: no session, no variables); refusals name the field and the limit. */
export function parseSearchContext(raw: unknown): SearchContextInput {
  if (raw === undefined || raw === null) return EMPTY_CONTEXT;
  if (!isPlain(raw)) throw refuse('context', 'must be an object ({session, variables} or {session, contextVariables}).');
  const unknownKey = Object.keys(raw).find((key) => key !== 'session' && key !== 'variables' && key !== 'contextVariables');
  if (unknownKey !== undefined) throw refuse(`context.${unknownKey}`, 'is not a field of context (session, variables, contextVariables).');
  const variables: SentVariable[] = [];
  const { variables: map, contextVariables: list } = raw;
  if (Array.isArray(map)) variables.push(...variableList(map, 'context.variables'));
  else if (isPlain(map)) {
    for (const [name, value] of Object.entries(map)) variables.push({ name: variableName(name, 'context.variables'), field: `context.variables.${name}`, ...mapValue(value, `context.variables.${name}`) });
  } else if (map !== undefined && map !== null) throw refuse('context.variables', 'must be an object of name → value, or a list of {name, value}.');
  if (Array.isArray(list)) variables.push(...variableList(list, 'context.contextVariables'));
  else if (list !== undefined && list !== null) throw refuse('context.contextVariables', 'must be a list of {name, value}.');
  if (variables.length > MAX_VARIABLES) throw refuse('context', `sends ${variables.length} variables; at most ${MAX_VARIABLES} are read.`);
  return { session: session(raw.session), variables };
}

/** A value of one type read as `type` where the definition allows it (a long as a double, a plain string as a date or a one-value list). */
function asDeclared(sent: SentVariable, type: VariableType): ContextValue | undefined {
  const { value } = sent;
  if (value.type === type) return value;
  if (type === 'double' && value.type === 'long') return { type: 'double', value: value.value };
  if (type === 'stringList' && value.type === 'string') return { type: 'stringList', value: [value.value] };
  if (type === 'date' && value.type === 'string' && sent.plain) return { type: 'date', value: dateOf(value.value, sent.field) };
  return undefined;
}

/** The variables `declared` names, as their declared types; a value of another type is refused naming it. */
export function declaredVariables(context: SearchContextInput, declared: Readonly<Record<string, VariableType>>): ContextVariables {
  const out: Record<string, ContextValue> = {};
  for (const sent of context.variables) {
    const type = Object.hasOwn(declared, sent.name) ? declared[sent.name] : undefined;
    // A variable this configuration does not read is ignored: the same storefront talks to several.
    if (type === undefined) continue;
    const value = asDeclared(sent, type);
    if (value === undefined) throw refuse(sent.field, `is a ${sent.value.type} value; the configuration declares "${sent.name}" as ${type}.`);
    out[sent.name] = value;
  }
  return out;
}

/** The shopper a session names: its `sessionId` entry when there is one (any case), else its first; undefined without one. */
export function shopperIdOf(session: Readonly<Record<string, string>>): string | undefined {
  const keys = Object.keys(session);
  const key = keys.find((k) => k.toLowerCase() === 'sessionid') ?? keys[0];
  const id = key === undefined ? undefined : session[key];
  return id === undefined || id === '' ? undefined : id;
}

/** The `locale` context variable as sent (a string value), whether or not the configuration declares it; never refused. */
export function localeOf(context: SearchContextInput): string | undefined {
  const sent = context.variables.find((v) => v.name === 'locale');
  return sent?.value.type === 'string' ? sent.value.value : undefined;
}
