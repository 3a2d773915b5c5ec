/** The admin domain's refusals; the admin API maps each kind to its HTTP status (domain code never speaks HTTP). */

export type AdminErrorKind = 'invalid' | 'not_found' | 'conflict' | 'forbidden' | 'unauthorized' | 'locked';

export interface AdminIssue {
  path: string;
  message: string;
}

export class AdminError extends Error {
  readonly kind: AdminErrorKind;
  /** The first offending field, as a path inside the request (`rules[0].pin`). */
  readonly field: string | undefined;
  readonly issues: AdminIssue[] | undefined;
  /** Seconds to wait (lockout). */
  readonly retryAfter: number | undefined;

  constructor(kind: AdminErrorKind, message: string, options: { field?: string; issues?: AdminIssue[]; retryAfter?: number } = {}) {
    super(message);
    this.name = 'AdminError';
    this.kind = kind;
    this.field = options.field ?? options.issues?.[0]?.path;
    this.issues = options.issues;
    this.retryAfter = options.retryAfter;
  }
}
