/**
 * Widget filters: `sameAs` keeps items sharing an attribute with the context product, `where` keeps
 * items matching a small expression language. The search filter parser lives on another branch, so
 * `where` understands only comparisons joined by AND: `attr = value`, `!=`, `>`, `>=`, `<`, `<=`,
 * where a value is a number, a quoted string, `true`/`false`, or `$name` from the request variables.
 */
import type { ProductView } from '../catalog/product-view.js';
import type { WidgetFilter } from '../../platform/config/schema.js';
import { HttpError } from '../../apis/http/errors.js';

export type ItemPredicate = (view: ProductView) => boolean;

interface Comparison {
  attribute: string;
  operator: '=' | '!=' | '>' | '>=' | '<' | '<=';
  value: string;
}

const COMPARISON = /^\s*([A-Za-z_][A-Za-z0-9_.]*)\s*(!=|>=|<=|=|>|<)\s*(.+?)\s*$/;

/** Parses every `where` once per request; a malformed expression is a configuration error worth a 500 with detail. */
export function compileFilters(filters: readonly WidgetFilter[], variables: Record<string, unknown>, context: ProductView | undefined): ItemPredicate {
  const predicates: ItemPredicate[] = filters.map((filter) => ('sameAs' in filter ? sameAs(filter.sameAs, variables, context) : where(filter.where, variables)));
  return (view) => predicates.every((p) => p(view));
}

function sameAs(attribute: string, variables: Record<string, unknown>, context: ProductView | undefined): ItemPredicate {
  const wanted = variableFor(attribute, variables) ?? context?.[attribute];
  // Without a reference value the filter cannot say what "same" means; it keeps everything rather than nothing.
  if (wanted === undefined) return () => true;
  const wantedSet = new Set(valuesOf(wanted).map(norm));
  return (view) => valuesOf(view[attribute]).some((v) => wantedSet.has(norm(v)));
}

/**
 * The request variable naming the attribute: `$categories`, or the singular the interface's examples
 * use (`$category` for the `categories` attribute); a plural variable for a singular attribute likewise.
 */
function variableFor(attribute: string, variables: Record<string, unknown>): unknown {
  const singular = attribute.endsWith('ies') ? `${attribute.slice(0, -3)}y` : attribute.endsWith('s') ? attribute.slice(0, -1) : undefined;
  const plural = attribute.endsWith('y') ? `${attribute.slice(0, -1)}ies` : `${attribute}s`;
  for (const name of [attribute, singular, plural]) {
    if (name === undefined) continue;
    const value = variables[`$${name}`];
    if (value !== undefined) return value;
  }
  return undefined;
}

function where(expression: string, variables: Record<string, unknown>): ItemPredicate {
  const comparisons = expression.split(/\s+AND\s+/i).map((part) => parseComparison(part, expression));
  return (view) => comparisons.every((c) => compare(view[c.attribute], c.operator, resolve(c.value, variables)));
}

/** The part of a `where` expression that does not read as a comparison, or undefined when all do: the configuration check. */
export function unreadableWherePart(expression: string): string | undefined {
  return expression.split(/\s+AND\s+/i).find((part) => COMPARISON.exec(part) === null);
}

function parseComparison(part: string, expression: string): Comparison {
  const match = COMPARISON.exec(part);
  if (match === null) {
    throw new HttpError(500, 'internal_error', 'The widget is misconfigured.', { detail: `cannot read widget filter "${expression}" near "${part}"` });
  }
  return { attribute: match[1]!, operator: match[2] as Comparison['operator'], value: match[3]! };
}

function resolve(token: string, variables: Record<string, unknown>): unknown {
  if (token.startsWith('$')) return variables[token];
  if (/^(['"]).*\1$/.test(token)) return token.slice(1, -1);
  if (token === 'true' || token === 'false') return token === 'true';
  const n = Number(token);
  return Number.isFinite(n) ? n : token;
}

function compare(actual: unknown, operator: Comparison['operator'], expected: unknown): boolean {
  if (expected === undefined) return true;
  const values = valuesOf(actual);
  if (operator === '=' || operator === '!=') {
    const wanted = new Set(valuesOf(expected).map(norm));
    const hit = values.some((v) => wanted.has(norm(v)));
    return operator === '=' ? hit : !hit;
  }
  const a = Number(values[0]);
  const b = Number(expected);
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
  return operator === '>' ? a > b : operator === '>=' ? a >= b : operator === '<' ? a < b : a <= b;
}

/** Booleans compare with 0/1 too: the catalog API stores flags as INTEGER. */
function norm(value: unknown): string {
  if (value === true) return '1';
  if (value === false) return '0';
  return String(value).trim().toLowerCase();
}

function valuesOf(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value;
  if (typeof value === 'string' && value.includes(',')) return value.split(',').map((v) => v.trim());
  return [value];
}
