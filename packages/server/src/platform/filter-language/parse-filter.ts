/**
 * The filter language's parser: a recursive descent over an SQL-like grammar (docs/search.md). Errors
 * carry the character position and what was expected, so an integrator can fix a hand-written filter
 * without guessing.
 *
 * Why the grammar sits in the platform and not in domains/search: the configuration file's widget
 * `where` fields are written in it, and platform/config checks them when the file loads, for every
 * program that reads a configuration (server, account CLI, benches), without importing a domain.
 * Parsing needs no catalog, index or item; evaluating a tree does, and that stays in domains/search
 * (filter-evaluation.ts) and domains/recommendations (widget-filters.ts).
 */
import type { Comparison, FilterNode, FilterTemplate, FilterValue, FilterVariable } from './filter-tree.js';
import { FilterSyntaxError } from './filter-syntax-error.js';

export interface ParseFilterOptions {
  /** The request or configuration field the text came from: a syntax error names it. */
  field?: string;
  /** Accept `$name` where a value may stand (widgets); otherwise `$` is an unknown character, as in search. */
  variables?: boolean;
}

type Token =
  | { type: 'ident'; text: string; pos: number }
  | { type: 'string'; value: string; pos: number }
  | { type: 'number'; value: number; pos: number }
  | { type: 'variable'; name: string; pos: number }
  | { type: 'op'; text: Comparison; pos: number }
  | { type: 'punct'; text: '(' | ')' | ','; pos: number }
  | { type: 'end'; pos: number };

const NAME = /^[A-Za-z_][A-Za-z0-9_.]*/;

function tokenize(source: string, options: ParseFilterOptions): Token[] {
  function fail(pos: number, expected: string, found: string): never {
    throw new FilterSyntaxError(pos, expected, found, options.field);
  }
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
        if (i >= source.length) fail(start, `a closing ${c}`, 'the end of the filter');
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
      const match = NAME.exec(source.slice(i))!;
      tokens.push({ type: 'ident', text: match[0], pos: i });
      i += match[0].length;
    } else if (c === '$' && options.variables === true) {
      const match = NAME.exec(source.slice(i + 1));
      if (match === null) fail(i + 1, "a variable name after '$'", source[i + 1] === undefined ? 'the end of the filter' : `'${source[i + 1]}'`);
      tokens.push({ type: 'variable', name: `$${match[0]}`, pos: i });
      i += 1 + match[0].length;
    } else {
      const two = source.slice(i, i + 2);
      const op = (['<=', '>=', '!=', '<>'] as const).find((o) => o === two) ?? (['=', '<', '>'] as const).find((o) => o === c);
      if (op === undefined) fail(i, 'an attribute, a value, an operator or a parenthesis', `'${c}'`);
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
    case 'variable':
      return `the variable ${token.name}`;
    default:
      return `'${token.text}'`;
  }
}

/** Parentheses and NOTs nested deeper than this are refused: parsing and evaluating recurse once per level. */
export const MAX_FILTER_DEPTH = 32;

class Parser {
  private at = 0;
  private depth = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly options: ParseFilterOptions,
  ) {}

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
    throw new FilterSyntaxError(token.pos, expected, describe(token), this.options.field);
  }

  parse(): FilterTemplate {
    const node = this.or();
    if (this.peek().type !== 'end') this.fail('AND, OR or the end of the filter');
    return node;
  }

  private or(): FilterTemplate {
    let left = this.and();
    while (this.keyword('OR')) left = { kind: 'or', left, right: this.and() };
    return left;
  }

  private and(): FilterTemplate {
    let left = this.not();
    while (this.keyword('AND')) left = { kind: 'and', left, right: this.not() };
    return left;
  }

  private not(): FilterTemplate {
    if (this.keyword('NOT')) return { kind: 'not', operand: this.nested(() => this.not()) };
    return this.primary();
  }

  private nested(parse: () => FilterTemplate): FilterTemplate {
    if (++this.depth > MAX_FILTER_DEPTH) this.fail(`at most ${MAX_FILTER_DEPTH} nested parentheses or NOTs, not more`);
    const node = parse();
    this.depth--;
    return node;
  }

  private primary(): FilterTemplate {
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

  private value(): FilterValue | FilterVariable {
    const token = this.peek();
    if (token.type === 'string' || token.type === 'number') {
      this.at++;
      return token.value;
    }
    if (token.type === 'variable') {
      this.at++;
      return { variable: token.name };
    }
    if (token.type === 'ident' && (token.text.toUpperCase() === 'TRUE' || token.text.toUpperCase() === 'FALSE')) {
      this.at++;
      return token.text.toUpperCase() === 'TRUE';
    }
    this.fail(this.options.variables === true ? 'a value (a quoted string, a number, true, false or a $variable)' : 'a value (a quoted string, a number, true or false)');
  }
}

/** Parses a filter without variables (search's `options.filter`): `$` is not part of the language there. */
export function parseFilter(source: string, options: { field?: string } = {}): FilterNode {
  // Without `variables` the tokenizer never makes a variable token, so every value is a plain one.
  return new Parser(tokenize(source, options), options).parse() as FilterNode;
}

/** Parses a filter whose values may be `$variables` (a widget's `where`), bound per request later. */
export function parseFilterTemplate(source: string, options: { field?: string } = {}): FilterTemplate {
  const withVariables = { ...options, variables: true };
  return new Parser(tokenize(source, withVariables), withVariables).parse();
}
