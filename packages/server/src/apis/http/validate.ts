/** Validates request input against a zod schema, turning every problem into a field path a client can act on. */
import type { z } from 'zod';
import type { FieldIssue } from '@discovery-kit/protocol';
import { HttpError } from './errors.js';

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

/**
 * Parses `value` or throws a 400 naming every bad field.
 * `root` names where the value came from (`query`, or '' for the body).
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, root = ''): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = zodIssues(result.error, root);
  const first = issues[0]!;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '';
  throw new HttpError(400, root === 'query' ? 'invalid_parameter' : 'invalid_body', `${first.path}: ${first.message}${more}`, { issues });
}
