/**
 * What a search configuration says about context variables: the variables it reads, each with its
 * type (the published definition's value types), and the `when` conditions of its rules and redirects
 * on them. A condition's shape must suit its variable's type; checked when the configuration loads.
 */
import { z } from 'zod';
import { FilterSyntaxError } from '../filter-language/filter-syntax-error.js';
import { parseFilter } from '../filter-language/parse-filter.js';

/** The value types of `context.contextVariables[].value` (`stringValue`, `longValue`, …) in the published definition. */
export const VARIABLE_TYPES = ['string', 'long', 'double', 'bool', 'date', 'stringList'] as const;
export type VariableType = (typeof VARIABLE_TYPES)[number];

const variableName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_.-]{0,99}$/, 'use 1 to 100 letters, digits, "_", "." or "-", starting with a letter or "_"');

/** `contextVariables: {store: "string", segment: "stringList"}`: the variables this configuration's rules may name. */
export const declaredVariablesSchema = z.record(variableName, z.enum(VARIABLE_TYPES)).default({});

const isoDate = z.string().refine((text) => !Number.isNaN(Date.parse(text)), 'use an ISO 8601 date, such as 2026-12-24 or 2026-12-24T18:00:00Z');

/**
 * One variable's condition: a value it must equal (a list variable: contain), values one of which it
 * must equal (a list variable: share), or a range `{from, to}` (both ends included) of numbers or dates.
 */
export const conditionSchema = z.union([
  z.string().min(1).max(1_000),
  z.number(),
  z.boolean(),
  z.array(z.string().min(1).max(1_000)).min(1).max(100),
  z
    .strictObject({ from: z.union([z.number(), isoDate]).optional(), to: z.union([z.number(), isoDate]).optional() })
    .refine((range) => range.from !== undefined || range.to !== undefined, 'a range needs from, to or both'),
]);
export type Condition = z.infer<typeof conditionSchema>;

/** `when: {store: "paris", segment: ["vip", "staff"]}`: every named variable's condition holds. */
export const whenSchema = z.record(variableName, conditionSchema).refine((when) => Object.keys(when).length > 0, 'name at least one variable');
export type When = z.infer<typeof whenSchema>;

/** Why `condition` cannot apply to a variable of `type` (undefined when it can). */
function mismatch(type: VariableType, condition: Condition): string | undefined {
  const range = typeof condition === 'object' && !Array.isArray(condition) ? condition : undefined;
  switch (type) {
    case 'string':
    case 'stringList':
      return typeof condition === 'string' || Array.isArray(condition) ? undefined : `a ${type} variable takes a string or a list of strings`;
    case 'long':
    case 'double':
      if (typeof condition === 'number') return undefined;
      return range !== undefined && [range.from, range.to].every((end) => end === undefined || typeof end === 'number') ? undefined : `a ${type} variable takes a number or a range of numbers {from, to}`;
    case 'bool':
      return typeof condition === 'boolean' ? undefined : 'a bool variable takes true or false';
    case 'date':
      return range !== undefined && [range.from, range.to].every((end) => end === undefined || typeof end === 'string') ? undefined : 'a date variable takes a range of ISO dates {from, to}';
  }
}

/** Each condition of `when` on a variable `declared` lacks, or of a shape its type does not take. */
export function whenIssues(declared: Readonly<Record<string, VariableType>>, when: When): Array<{ variable: string; message: string }> {
  const issues: Array<{ variable: string; message: string }> = [];
  for (const [variable, condition] of Object.entries(when)) {
    const type = Object.hasOwn(declared, variable) ? declared[variable] : undefined;
    if (type === undefined) {
      const names = Object.keys(declared);
      issues.push({ variable, message: `"${variable}" is not declared in contextVariables (${names.length === 0 ? 'none is' : `declared: ${names.join(', ')}`}); declare it with its type (${VARIABLE_TYPES.join(', ')})` });
      continue;
    }
    const why = mismatch(type, condition);
    if (why !== undefined) issues.push({ variable, message: why });
  }
  return issues;
}

/** Why a rule's `filter` cannot be read (undefined when it can): found at load, not by a shopper's search. */
export function filterSyntaxIssue(text: string): string | undefined {
  try {
    parseFilter(text);
    return undefined;
  } catch (error) {
    if (error instanceof FilterSyntaxError) return error.message;
    throw error;
  }
}
