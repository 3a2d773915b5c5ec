/**
 * The filter language: a recursive-descent parser for an SQL-like grammar (docs/search.md), and its
 * evaluation against an item's attributes. Errors carry the character position and what was expected,
 * so an integrator can fix a hand-written filter without guessing.
 */
import { HttpError } from '../../apis/http/errors.js';

export type FilterValue = string | number | boolean;
export type Comparison = '=' | '!=' | '<' | '<=' | '>' | '>=';
export type FilterNode =
  | { kind: 'and' | 'or'; left: FilterNode; right: FilterNode }
  | { kind: 'not'; operand: FilterNode }
  | { kind: 'compare'; attribute: string; op: Comparison; value: FilterValue }
  | { kind: 'in'; attribute: string; values: FilterValue[]; negated: boolean };

type Token =
  | { type: 'ident'; text: string; pos: number }
  | { type: 'string'; value: string; pos: number }
  | { type: 'number'; value: number; pos: number }
  | { type: 'op'; text: Comparison; pos: number }
  | { type: 'punct'; text: '(' | ')' | ','; pos: number }
  | { type: 'end'; pos: number };

export class FilterSyntaxError extends HttpError {
  constructor(
    readonly position: number,
    readonly expected: string,
    found: string,
  ) {
    super(400, 'invalid_parameter', `Filter syntax error at position ${position}: expected ${expected}, found ${found}.`, { field: 'options.filter' });
  }
}

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === '(' || c === ')' || c === ',') {
      tokens.push({ type: 'punct', text: c, pos: i++ });
    } else if (c === "'" || c === '"') {
      const start = i++;
      let value = '';
      // A doubled quote stands for one quote inside the string, as in SQL.
      for (;;) {
        if (i >= source.length) throw new FilterSyntaxError(start, `a closing ${c}`, 'the end of the filter');
        if (source[i] === c) {
          if (source[i + 1] === c) {
            value += c;
            i += 2;
            continue;
          }
          i++;
          break;
        }
        value += source[i++];
      }
      tokens.push({ type: 'string', value, pos: start });
    } else if (/[0-9]/.test(c) || (c === '-' && /[0-9.]/.test(source[i + 1] ?? ''))) {
      const match = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(source.slice(i))!;
      tokens.push({ type: 'number', value: Number(match[0]), pos: i });
      i += match[0].length;
    } else if (/[A-Za-z_]/.test(c)) {
      const match = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(source.slice(i))!;
      tokens.push({ type: 'ident', text: match[0], pos: i });
      i += match[0].length;
    } else {
      const two = source.slice(i, i + 2);
      const op = (['<=', '>=', '!=', '<>'] as const).find((o) => o === two) ?? (['=', '<', '>'] as const).find((o) => o === c);
      if (op === undefined) throw new FilterSyntaxError(i, 'an attribute, a value, an operator or a parenthesis', `'${c}'`);
      tokens.push({ type: 'op', text: op === '<>' ? '!=' : op, pos: i });
      i += op.length;
    }
  }
  tokens.push({ type: 'end', pos: source.length });
  return tokens;
}

const KEYWORDS = new Set(['AND', 'OR', 'NOT', 'IN', 'TRUE', 'FALSE']);

function describe(token: Token): string {
  switch (token.type) {
    case 'end':
      return 'the end of the filter';
    case 'ident':
      return `'${token.text}'`;
    case 'string':
      return `the string '${token.value}'`;
    case 'number':
      return `the number ${token.value}`;
    default:
      return `'${token.text}'`;
  }
}

/** Parentheses and NOTs nested deeper than this are refused: parsing and evaluating recurse once per level. */
export const MAX_FILTER_DEPTH = 32;

class Parser {
  private at = 0;
  private depth = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(): Token {
    return this.tokens[this.at]!;
  }

  private keyword(word: string): boolean {
    const token = this.peek();
    if (token.type === 'ident' && token.text.toUpperCase() === word) {
      this.at++;
      return true;
    }
    return false;
  }

  private punct(text: '(' | ')' | ','): boolean {
    const token = this.peek();
    if (token.type === 'punct' && token.text === text) {
      this.at++;
      return true;
    }
    return false;
  }

  private fail(expected: string): never {
    const token = this.peek();
    throw new FilterSyntaxError(token.pos, expected, describe(token));
  }

  parse(): FilterNode {
    const node = this.or();
    if (this.peek().type !== 'end') this.fail('AND, OR or the end of the filter');
    return node;
  }

  private or(): FilterNode {
    let left = this.and();
    while (this.keyword('OR')) left = { kind: 'or', left, right: this.and() };
    return left;
  }

  private and(): FilterNode {
    let left = this.not();
    while (this.keyword('AND')) left = { kind: 'and', left, right: this.not() };
    return left;
  }

  private not(): FilterNode {
    if (this.keyword('NOT')) return { kind: 'not', operand: this.nested(() => this.not()) };
    return this.primary();
  }

  private nested(parse: () => FilterNode): FilterNode {
    if (++this.depth > MAX_FILTER_DEPTH) this.fail(`at most ${MAX_FILTER_DEPTH} nested parentheses or NOTs, not more`);
    const node = parse();
    this.depth--;
    return node;
  }

  private primary(): FilterNode {
    if (this.punct('(')) {
      const inner = this.nested(() => this.or());
      if (!this.punct(')')) this.fail("')'");
      return inner;
    }
    const token = this.peek();
    if (token.type !== 'ident' || KEYWORDS.has(token.text.toUpperCase())) this.fail("an attribute name, NOT or '('");
    this.at++;
    const attribute = token.text;
    const negated = this.keyword('NOT');
    if (this.keyword('IN')) {
      if (!this.punct('(')) this.fail("'(' after IN");
      const values = [this.value()];
      while (this.punct(',')) values.push(this.value());
      if (!this.punct(')')) this.fail("',' or ')'");
      return { kind: 'in', attribute, values, negated };
    }
    if (negated) this.fail('IN after NOT');
    const op = this.peek();
    if (op.type !== 'op') this.fail('a comparison operator (=, !=, <, <=, >, >=) or IN');
    this.at++;
    return { kind: 'compare', attribute, op: op.text, value: this.value() };
  }

  private value(): FilterValue {
    const token = this.peek();
    if (token.type === 'string' || token.type === 'number') {
      this.at++;
      return token.value;
    }
    if (token.type === 'ident' && (token.text.toUpperCase() === 'TRUE' || token.text.toUpperCase() === 'FALSE')) {
      this.at++;
      return token.text.toUpperCase() === 'TRUE';
    }
    this.fail('a value (a quoted string, a number, true or false)');
  }
}

export function parseFilter(source: string): FilterNode {
  return new Parser(tokenize(source)).parse();
}

/** Reads one attribute as the list of values a comparison may match (a comma-joined category list is several). */
export type AttributeReader = (attribute: string) => readonly FilterValue[];

function compare(actual: FilterValue, op: Comparison, expected: FilterValue): boolean {
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

export function matchesFilter(node: FilterNode, read: AttributeReader): boolean {
  switch (node.kind) {
    case 'and':
      return matchesFilter(node.left, read) && matchesFilter(node.right, read);
    case 'or':
      return matchesFilter(node.left, read) || matchesFilter(node.right, read);
    case 'not':
      return !matchesFilter(node.operand, read);
    case 'compare': {
      const values = read(node.attribute);
      // `!=` holds when no value equals, so a missing attribute is "not equal" rather than unknown.
      if (node.op === '!=') return !values.some((v) => compare(v, '=', node.value));
      return values.some((v) => compare(v, node.op, node.value));
    }
    case 'in': {
      const found = read(node.attribute).some((v) => node.values.some((expected) => compare(v, '=', expected)));
      return node.negated ? !found : found;
    }
  }
}

/**
 * The filter as one closure over per-document attribute columns: evaluated for thousands of
 * candidates per query, so the tree walk and the value folding happen once, not per document.
 */
export function compileFilter(
  node: FilterNode,
  column: (attribute: string) => readonly (readonly FilterValue[])[],
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

/**
 * The filter applied to a whole match set at once: keeps the entries of `docs` (and the same positions
 * of `scores`) that pass, in order, and returns how many. A conjunction runs its sides one after the
 * other over the survivors, and a one-number-per-document comparison is a tight loop over a typed
 * column; anything else (OR, NOT, string values) falls back to the compiled closure per entry.
 */
export function compileBatchFilter(
  node: FilterNode,
  column: (attribute: string) => readonly (readonly FilterValue[])[],
  numbers: (attribute: string) => Float64Array | undefined = () => undefined,
): (docs: Int32Array, scores: Float32Array, length: number) => number {
  if (node.kind === 'and') {
    // Number comparisons of a conjunction become ranges checked together in one pass; the other
    // conjuncts then run over its survivors (which passes first changes nothing but the cost).
    const conjuncts: FilterNode[] = [];
    const flatten = (n: FilterNode): void => {
      if (n.kind === 'and') {
        flatten(n.left);
        flatten(n.right);
      } else conjuncts.push(n);
    };
    flatten(node);
    const ranges: NumericRange[] = [];
    const others: FilterNode[] = [];
    for (const conjunct of conjuncts) {
      const range = conjunct.kind === 'compare' ? rangeOf(conjunct, numbers) : undefined;
      if (range === undefined) others.push(conjunct);
      else ranges.push(range);
    }
    const rest = others.map((other) => compileBatchFilter(other, column, numbers));
    return (docs, scores, length) => {
      let n = ranges.length === 0 ? length : keepInRanges(ranges, docs, scores, length);
      for (const keep of rest) n = keep(docs, scores, n);
      return n;
    };
  }
  if (node.kind === 'compare' && typeof node.value === 'number') {
    const numeric = numbers(node.attribute);
    if (numeric !== undefined) {
      const { op, value } = node;
      return (docs, scores, length) => keepNumeric(numeric, op, value, docs, scores, length);
    }
  }
  const keep = compileFilter(node, column, numbers);
  return (docs, scores, length) => {
    let n = 0;
    for (let i = 0; i < length; i++) {
      const doc = docs[i]!;
      if (!keep(doc)) continue;
      docs[n] = doc;
      scores[n++] = scores[i]!;
    }
    return n;
  };
}

/** `numericComparison` over a match set: one loop per operator, so the comparison is not a call per entry. */
function keepNumeric(column: Float64Array, op: Comparison, value: number, docs: Int32Array, scores: Float32Array, length: number): number {
  let n = 0;
  switch (op) {
    case '=':
      for (let i = 0; i < length; i++) {
        const doc = docs[i]!;
        if (!(column[doc] === value)) continue;
        docs[n] = doc;
        scores[n++] = scores[i]!;
      }
      return n;
    case '!=':
      for (let i = 0; i < length; i++) {
        const doc = docs[i]!;
        if (!(column[doc] !== value)) continue;
        docs[n] = doc;
        scores[n++] = scores[i]!;
      }
      return n;
    case '<':
      for (let i = 0; i < length; i++) {
        const doc = docs[i]!;
        if (!(column[doc]! < value)) continue;
        docs[n] = doc;
        scores[n++] = scores[i]!;
      }
      return n;
    case '<=':
      for (let i = 0; i < length; i++) {
        const doc = docs[i]!;
        if (!(column[doc]! <= value)) continue;
        docs[n] = doc;
        scores[n++] = scores[i]!;
      }
      return n;
    case '>':
      for (let i = 0; i < length; i++) {
        const doc = docs[i]!;
        if (!(column[doc]! > value)) continue;
        docs[n] = doc;
        scores[n++] = scores[i]!;
      }
      return n;
    case '>=':
      for (let i = 0; i < length; i++) {
        const doc = docs[i]!;
        if (!(column[doc]! >= value)) continue;
        docs[n] = doc;
        scores[n++] = scores[i]!;
      }
      return n;
  }
}

/** A number comparison as `low <= value <= high` over a one-number-per-document column (NaN, no value, fails). */
interface NumericRange {
  column: Float64Array;
  low: number;
  high: number;
}

function rangeOf(node: { attribute: string; op: Comparison; value: FilterValue }, numbers: (attribute: string) => Float64Array | undefined): NumericRange | undefined {
  const { op, value } = node;
  // `!=` holds for a missing value (NaN), which no range does; an infinite bound has no neighbour.
  if (typeof value !== 'number' || !Number.isFinite(value) || op === '!=') return undefined;
  const column = numbers(node.attribute);
  if (column === undefined) return undefined;
  switch (op) {
    case '=':
      return { column, low: value, high: value };
    case '<':
      return { column, low: -Infinity, high: -nextUp(-value) };
    case '<=':
      return { column, low: -Infinity, high: value };
    case '>':
      return { column, low: nextUp(value), high: Infinity };
    case '>=':
      return { column, low: value, high: Infinity };
  }
}

const bits = new Float64Array(1);
const bitsAsInt = new BigInt64Array(bits.buffer);

/** The smallest double above a finite `value`: `x > value` is `x >= nextUp(value)`. */
function nextUp(value: number): number {
  if (value === 0) return Number.MIN_VALUE;
  bits[0] = value;
  bitsAsInt[0] = value > 0 ? bitsAsInt[0]! + 1n : bitsAsInt[0]! - 1n;
  return bits[0]!;
}

/** Keeps the entries whose document is within every range, in one pass. */
function keepInRanges(ranges: readonly NumericRange[], docs: Int32Array, scores: Float32Array, length: number): number {
  let n = 0;
  if (ranges.length === 1) {
    const { column, low, high } = ranges[0]!;
    for (let i = 0; i < length; i++) {
      const doc = docs[i]!;
      const x = column[doc]!;
      if (!(x >= low && x <= high)) continue;
      docs[n] = doc;
      scores[n++] = scores[i]!;
    }
    return n;
  }
  if (ranges.length === 2) {
    const { column: a, low: aLow, high: aHigh } = ranges[0]!;
    const { column: b, low: bLow, high: bHigh } = ranges[1]!;
    for (let i = 0; i < length; i++) {
      const doc = docs[i]!;
      const x = a[doc]!;
      if (!(x >= aLow && x <= aHigh)) continue;
      const y = b[doc]!;
      if (!(y >= bLow && y <= bHigh)) continue;
      docs[n] = doc;
      scores[n++] = scores[i]!;
    }
    return n;
  }
  outer: for (let i = 0; i < length; i++) {
    const doc = docs[i]!;
    for (const { column, low, high } of ranges) {
      const x = column[doc]!;
      if (!(x >= low && x <= high)) continue outer;
    }
    docs[n] = doc;
    scores[n++] = scores[i]!;
  }
  return n;
}
