/**
 * How a parsed filter (platform/filter-language) decides about one document: the comparison rules of
 * the filter language, and the filter compiled into one closure over per-document attribute columns.
 * Search runs it over a match set (filter-batch.ts); widgets' `where` runs it over one product at a
 * time (domains/recommendations/widget-filters.ts), so both follow the same rules.
 */
import type { Comparison, FilterNode, FilterValue } from '../../../platform/filter-language/filter-tree.js';

/** One comparison of a stored value with a filter's value, as docs/search.md describes it. */
export function compare(actual: FilterValue, op: Comparison, expected: FilterValue): boolean {
  // Booleans stored as 0/1 INTEGERs (in_stock) still compare with true/false.
  const a = typeof expected === 'boolean' && typeof actual === 'number' ? actual !== 0 : actual;
  const b = typeof actual === 'number' && typeof expected === 'string' && expected.trim() !== '' && Number.isFinite(Number(expected)) ? Number(expected) : expected;
  const left = typeof a === 'string' && typeof b === 'string' ? a.toLowerCase() : a;
  const right = typeof a === 'string' && typeof b === 'string' ? b.toLowerCase() : b;
  switch (op) {
    case '=':
      return left === right;
    case '!=':
      return left !== right;
    default:
      if (typeof left !== typeof right || typeof left === 'boolean') return false;
      if (op === '<') return left < right;
      if (op === '<=') return left <= right;
      if (op === '>') return left > right;
      return left >= right;
  }
}

/** Each document's values of one attribute (a comma-joined category list is several), by document number. */
export type AttributeColumn = readonly (readonly FilterValue[])[];

/**
 * The filter as one closure over per-document attribute columns: evaluated for thousands of
 * candidates per query, so the tree walk and the value folding happen once, not per document.
 */
export function compileFilter(
  node: FilterNode,
  column: (attribute: string) => AttributeColumn,
  numbers: (attribute: string) => Float64Array | undefined = () => undefined,
): (doc: number) => boolean {
  switch (node.kind) {
    case 'and': {
      const left = compileFilter(node.left, column, numbers);
      const right = compileFilter(node.right, column, numbers);
      return (doc) => left(doc) && right(doc);
    }
    case 'or': {
      const left = compileFilter(node.left, column, numbers);
      const right = compileFilter(node.right, column, numbers);
      return (doc) => left(doc) || right(doc);
    }
    case 'not': {
      const operand = compileFilter(node.operand, column, numbers);
      return (doc) => !operand(doc);
    }
    case 'compare': {
      const { op, value } = node;
      // An attribute holding one number (or nothing, NaN) per document compares straight from a typed
      // array: NaN fails every comparison but `!=`, as a missing value does below.
      const numeric = typeof value === 'number' ? numbers(node.attribute) : undefined;
      if (numeric !== undefined && typeof value === 'number') return numericComparison(numeric, op, value);
      const values = column(node.attribute);
      // `!=` holds when no value equals, so a missing attribute is "not equal" rather than unknown.
      if (op === '!=') return (doc) => !values[doc]!.some((v) => compare(v, '=', value));
      if (typeof value === 'number') {
        // The common case (price < 4000) compares numbers without conversions.
        return (doc) => {
          for (const v of values[doc]!) {
            if (typeof v === 'number' ? compareNumbers(v, op, value) : compare(v, op, value)) return true;
          }
          return false;
        };
      }
      return (doc) => values[doc]!.some((v) => compare(v, op, value));
    }
    case 'in': {
      const values = column(node.attribute);
      const expected = node.values;
      const negated = node.negated;
      return (doc) => values[doc]!.some((v) => expected.some((e) => compare(v, '=', e))) !== negated;
    }
  }
}

function numericComparison(column: Float64Array, op: Comparison, value: number): (doc: number) => boolean {
  switch (op) {
    case '=':
      return (doc) => column[doc] === value;
    case '!=':
      return (doc) => column[doc] !== value;
    case '<':
      return (doc) => column[doc]! < value;
    case '<=':
      return (doc) => column[doc]! <= value;
    case '>':
      return (doc) => column[doc]! > value;
    case '>=':
      return (doc) => column[doc]! >= value;
  }
}

function compareNumbers(a: number, op: Comparison, b: number): boolean {
  switch (op) {
    case '=':
      return a === b;
    case '!=':
      return a !== b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
  }
}
