/**
 * The filter language's syntax tree, shared by search (a request's `options.filter`) and widgets (a
 * `where` filter). A tree is built once by parse-filter.ts and never modified afterwards, so parsed
 * trees may be cached and shared between requests.
 */

export type FilterValue = string | number | boolean;
export type Comparison = '=' | '!=' | '<' | '<=' | '>' | '>=';

/** `$name` where a value may stand: filled from a recommendation request's variables (bind-filter-variables.ts). */
export interface FilterVariable {
  variable: string;
}

/** A tree whose values are `V`: plain values once bound, or values and variables as written in a widget. */
export type FilterTree<V> =
  | { kind: 'and' | 'or'; left: FilterTree<V>; right: FilterTree<V> }
  | { kind: 'not'; operand: FilterTree<V> }
  | { kind: 'compare'; attribute: string; op: Comparison; value: V }
  | { kind: 'in'; attribute: string; values: V[]; negated: boolean };

/** A filter ready to evaluate: every value is known. */
export type FilterNode = FilterTree<FilterValue>;

/** A filter as written where `$variables` are allowed (widgets): bound per request before evaluation. */
export type FilterTemplate = FilterTree<FilterValue | FilterVariable>;

export function isFilterVariable(value: FilterValue | FilterVariable): value is FilterVariable {
  return typeof value === 'object';
}

/** The attributes a filter reads, each once. */
export function filterAttributes<V>(node: FilterTree<V>, into: Set<string> = new Set()): Set<string> {
  switch (node.kind) {
    case 'and':
    case 'or':
      filterAttributes(node.left, into);
      filterAttributes(node.right, into);
      break;
    case 'not':
      filterAttributes(node.operand, into);
      break;
    default:
      into.add(node.attribute);
  }
  return into;
}
