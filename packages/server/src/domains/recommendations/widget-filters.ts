/**
 * Widget filters: `sameAs` keeps items sharing an attribute with the context product; `where` keeps
 * items matching a filter in the search filter language (docs/search.md: comparisons, IN, AND, OR,
 * NOT, parentheses) whose values may be `$variables` from the recommendation request. A `where` is
 * checked when the configuration loads (platform/config/load.ts) and when the admin API stores a
 * widget, so parsing it here does not fail; it is evaluated with search's comparison rules.
 */
import type { ProductView } from '../catalog/product-view.js';
import type { WidgetFilter } from '../../platform/config/schema.js';
import { DomainError } from '../../platform/domain-error.js';
import { bindFilterVariables } from '../../platform/filter-language/bind-filter-variables.js';
import { FilterSyntaxError } from '../../platform/filter-language/filter-syntax-error.js';
import type { FilterTemplate, FilterValue } from '../../platform/filter-language/filter-tree.js';
import { parseFilterTemplate } from '../../platform/filter-language/parse-filter.js';
import { valuesOfAttribute } from '../search/index/attribute-values.js';
import { compileFilter } from '../search/filter/filter-evaluation.js';

export type ItemPredicate = (view: ProductView) => boolean;

/** The widget's filters for one request: its variables filled in, its context product known. */
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
  let template: FilterTemplate;
  try {
    template = parseFilterTemplate(expression);
  } catch (error) {
    // Checked at load and on every admin change, so only a configuration that bypassed both gets here.
    if (error instanceof FilterSyntaxError) throw new DomainError('internal', 'The widget is misconfigured.', { detail: `cannot read widget filter "${expression}": ${error.message}` });
    throw error;
  }
  const filter = bindFilterVariables(template, variables);
  if (filter === undefined) return () => true;
  // compileFilter reads per-document columns; a widget tests one product at a time, so each attribute
  // the filter names gets a one-row column, refilled from the product before each test.
  const rows = new Map<string, FilterValue[][]>();
  const keep = compileFilter(filter, (attribute) => {
    let row = rows.get(attribute);
    if (row === undefined) rows.set(attribute, (row = [[]]));
    return row;
  });
  const named = [...rows];
  return (view) => {
    for (const [attribute, row] of named) row[0] = valuesOfAttribute(attribute, view[attribute]);
    return keep(0);
  };
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
