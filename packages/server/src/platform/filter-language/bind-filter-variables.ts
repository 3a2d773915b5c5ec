/**
 * Fills a filter template's `$variables` from a request's variables. A comparison whose variable is
 * absent is left out, as if it were not written (docs/recommendations.md): `a AND b` and `a OR b`
 * become `a`, and `NOT b` keeps everything. A variable holding a list stands for each of its entries
 * (`categories = $category` with two categories is `categories IN (...)`).
 */
import { isFilterVariable, type FilterNode, type FilterTemplate, type FilterValue, type FilterVariable } from './filter-tree.js';

/** The tree with every variable filled, or undefined when nothing is left to apply (every item passes). */
export function bindFilterVariables(template: FilterTemplate, variables: Readonly<Record<string, unknown>>): FilterNode | undefined {
  switch (template.kind) {
    case 'and':
    case 'or': {
      const left = bindFilterVariables(template.left, variables);
      const right = bindFilterVariables(template.right, variables);
      if (left === undefined || right === undefined) return left ?? right;
      return { kind: template.kind, left, right };
    }
    case 'not': {
      const operand = bindFilterVariables(template.operand, variables);
      return operand === undefined ? undefined : { kind: 'not', operand };
    }
    case 'compare': {
      const { attribute, op } = template;
      const values = valuesOf(template.value, variables);
      if (values === undefined) return undefined;
      if (!Array.isArray(values)) return { kind: 'compare', attribute, op, value: values };
      // A list: `=` any entry, `!=` no entry (the IN forms); an order comparison holds for any entry.
      if (op === '=' || op === '!=') return { kind: 'in', attribute, values, negated: op === '!=' };
      const each = values.map((value): FilterNode => ({ kind: 'compare', attribute, op, value }));
      // An empty list: an IN of nothing, which no item passes.
      return each.length === 0 ? { kind: 'in', attribute, values: [], negated: false } : anyOf(each, 0, each.length);
    }
    case 'in': {
      let absent = 0;
      const values = template.values.flatMap((value) => {
        const bound = valuesOf(value, variables);
        if (bound === undefined) absent++;
        return bound ?? [];
      });
      // Only when every value was an absent variable is the comparison left out.
      if (absent === template.values.length) return undefined;
      return { kind: 'in', attribute: template.attribute, values, negated: template.negated };
    }
  }
}

/** `nodes[from..to)` joined by OR as a balanced tree: a long list must not nest as deep as it is long (evaluation recurses). */
function anyOf(nodes: readonly FilterNode[], from: number, to: number): FilterNode {
  if (to - from === 1) return nodes[from]!;
  const middle = (from + to) >>> 1;
  return { kind: 'or', left: anyOf(nodes, from, middle), right: anyOf(nodes, middle, to) };
}

/** A value as written, a variable's value, a variable's list of values, or undefined for an absent variable. */
function valuesOf(value: FilterValue | FilterVariable, variables: Readonly<Record<string, unknown>>): FilterValue | FilterValue[] | undefined {
  if (!isFilterVariable(value)) return value;
  const bound = variables[value.variable];
  if (isPlain(bound)) return bound;
  if (Array.isArray(bound)) return bound.filter(isPlain);
  // null, an object or nothing: a value no comparison could use.
  return undefined;
}

function isPlain(value: unknown): value is FilterValue {
  return typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}
