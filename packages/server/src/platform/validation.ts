/**
 * Zod parsing that every layer shares, turning each problem into a field path a client can act on.
 * It throws a DomainError rather than an HTTP error so that domains and the configuration loader can
 * use it too; the error middleware maps it to the same 400 body an API module's refusal has.
 *
 * Where validation goes: API modules parse the request's shape (body, params, query) with these
 * helpers and hand typed input to the domain; the domain checks what needs stored state (an unknown
 * catalog, a conflicting version, per-item batch issues) and throws its own DomainErrors.
 */
import type { z } from 'zod';
import type { FieldIssue } from '@discovery-kit/protocol';
import { DomainError } from './domain-error.js';

/** `['items', 3, 'price']` → `items[3].price`, prefixed with `root` when given. */
export function formatPath(path: readonly PropertyKey[], root = ''): string {
  let out = root;
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out === '' ? '(body)' : out;
}

export function zodIssues(error: z.ZodError, root = ''): FieldIssue[] {
  return error.issues.map((issue) => ({ path: formatPath(issue.path, root), message: issue.message }));
}

/** One refusal for every issue: the message names the first and counts the rest. */
export function invalidInput(issues: FieldIssue[], code: 'invalid_body' | 'invalid_parameter' = 'invalid_body'): DomainError {
  const first = issues[0]!;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '';
  return new DomainError('invalid', `${first.path}: ${first.message}${more}`, { code, issues });
}

/**
 * Parses `value` or throws an `invalid` DomainError naming every bad field.
 * `root` names where the value came from (`query`, or '' for the body).
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, root = ''): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw invalidInput(zodIssues(result.error, root), root === 'query' ? 'invalid_parameter' : 'invalid_body');
}
