/** Every error the API sends: a status, a stable code, a public message, and a private detail that is only logged. */
import type { ErrorCode, FieldIssue } from '@discovery-kit/protocol';

export interface HttpErrorOptions {
  field?: string;
  issues?: FieldIssue[];
  /** Logged, never sent: internal context that would help an operator. */
  detail?: string;
  headers?: Record<string, string>;
}

export class HttpError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly field: string | undefined;
  readonly issues: FieldIssue[] | undefined;
  readonly detail: string | undefined;
  readonly headers: Record<string, string>;

  constructor(status: number, code: ErrorCode, message: string, options: HttpErrorOptions = {}) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.code = code;
    this.field = options.field ?? options.issues?.[0]?.path;
    this.issues = options.issues;
    this.detail = options.detail;
    this.headers = options.headers ?? {};
  }
}

export function notFound(code: ErrorCode, message: string, field?: string): HttpError {
  return new HttpError(404, code, message, { field });
}

export function conflict(message: string, field?: string): HttpError {
  return new HttpError(409, 'conflict', message, { field });
}
