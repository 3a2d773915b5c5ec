/**
 * Errors domain code throws for a caller's mistake, without speaking HTTP: the error middleware
 * (apis/http/error-middleware.ts) maps each kind to its status, so services stay free of the API layer.
 *
 * `code` refines the kind with the protocol's stable error code (`unknown_widget` rather than the
 * kind's default `not_found`); `issues` lists every offending field when there are several (batches);
 * `detail` is logged for the operator and never sent; `retryAfterSeconds` tells a refused caller
 * (`rate_limited`, or `unavailable` while a shared store such as PostgreSQL is out of reach) when to try again.
 */
import type { ErrorCode, FieldIssue } from '@discovery-kit/protocol';

export type DomainErrorKind = 'invalid' | 'not_found' | 'conflict' | 'too_large' | 'forbidden' | 'limit_exceeded' | 'internal' | 'unauthorized' | 'rate_limited' | 'unavailable';

export interface DomainErrorOptions {
  field?: string;
  code?: ErrorCode;
  issues?: FieldIssue[];
  detail?: string;
  retryAfterSeconds?: number;
}

export class DomainError extends Error {
  /** The request field the error is about, when there is one (the first issue's path otherwise). */
  readonly field: string | undefined;
  readonly code: ErrorCode | undefined;
  readonly issues: FieldIssue[] | undefined;
  readonly detail: string | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    fieldOrOptions?: string | DomainErrorOptions,
  ) {
    super(message);
    this.name = 'DomainError';
    const options: DomainErrorOptions = typeof fieldOrOptions === 'string' ? { field: fieldOrOptions } : (fieldOrOptions ?? {});
    this.field = options.field ?? options.issues?.[0]?.path;
    this.code = options.code;
    this.issues = options.issues;
    this.detail = options.detail;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}
