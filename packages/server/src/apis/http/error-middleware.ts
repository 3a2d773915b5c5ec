/** Registered first: turns every thrown error into the one documented error body, and logs what is not the caller's fault. */
import type { Context, Next } from 'koa';
import type { ErrorBody, ErrorCode } from '@discovery-kit/protocol';
import { DomainError } from '../../platform/domain-error.js';
import { HttpError } from './errors.js';

/** Errors thrown by Koa itself or by its helpers (ctx.throw, http-errors) carry `status` and `expose`. */
interface KoaLikeError {
  status?: unknown;
  expose?: unknown;
  message?: unknown;
}

const codeByStatus: Record<number, ErrorCode> = {
  400: 'invalid_body',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'body_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

const domainStatus: Record<DomainError['kind'], [number, ErrorCode]> = {
  invalid: [400, 'invalid_body'],
  not_found: [404, 'not_found'],
  conflict: [409, 'conflict'],
  too_large: [413, 'body_too_large'],
  forbidden: [403, 'forbidden'],
  limit_exceeded: [400, 'limit_exceeded'],
  internal: [500, 'internal_error'],
  unauthorized: [401, 'unauthorized'],
  rate_limited: [429, 'rate_limited'],
  unavailable: [503, 'storage_unavailable'],
};

/** The status and code a domain refusal is answered with: the kind's, refined by the error's own code. */
export function domainRefusal(error: DomainError): { status: number; code: ErrorCode } {
  const [status, defaultCode] = domainStatus[error.kind];
  return { status, code: error.code ?? defaultCode };
}

export function writeError(ctx: Context, status: number, code: ErrorCode, message: string, extra: Partial<ErrorBody['error']> = {}): void {
  const body: ErrorBody = { error: { status, code, message, ...extra, requestId: ctx.state.requestId as string | undefined } };
  ctx.status = status;
  ctx.body = body;
}

export function errorMiddleware() {
  return async function handleErrors(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
      if (ctx.body == null && ctx.status === 404) {
        writeError(ctx, 404, 'not_found', `No endpoint answers ${ctx.method} ${ctx.path}.`);
      } else if (ctx.body == null && ctx.status === 405) {
        writeError(ctx, 405, 'method_not_allowed', `${ctx.method} is not allowed on ${ctx.path}; allowed: ${ctx.response.get('Allow')}.`);
      }
    } catch (error) {
      if (error instanceof HttpError) {
        for (const [name, value] of Object.entries(error.headers)) ctx.set(name, value);
        if (error.detail !== undefined) ctx.state.log?.info({ code: error.code, detail: error.detail }, 'request refused');
        writeError(ctx, error.status, error.code, error.message, {
          ...(error.field !== undefined ? { field: error.field } : {}),
          ...(error.issues !== undefined ? { issues: error.issues } : {}),
        });
        return;
      }
      if (error instanceof DomainError) {
        const refusal = domainRefusal(error);
        if (error.retryAfterSeconds !== undefined) ctx.set('Retry-After', String(error.retryAfterSeconds));
        if (error.detail !== undefined) ctx.state.log?.info({ code: refusal.code, detail: error.detail }, 'request refused');
        // An internal error's message is for the log: the caller gets the generic body below.
        if (error.kind === 'internal') {
          ctx.state.log?.error({ err: error }, 'unexpected error');
          writeError(ctx, 500, 'internal_error', 'The server failed to answer this request. It has been logged; quote the request id when reporting it.');
          return;
        }
        writeError(ctx, refusal.status, refusal.code, error.message, {
          ...(error.field !== undefined ? { field: error.field } : {}),
          ...(error.issues !== undefined ? { issues: error.issues } : {}),
        });
        return;
      }
      const koaError = error as KoaLikeError;
      const status = typeof koaError.status === 'number' ? koaError.status : 500;
      if (status >= 400 && status < 500 && koaError.expose === true) {
        writeError(ctx, status, codeByStatus[status] ?? 'invalid_body', String(koaError.message));
        return;
      }
      ctx.state.log?.error({ err: error }, 'unexpected error');
      writeError(ctx, 500, 'internal_error', 'The server failed to answer this request. It has been logged; quote the request id when reporting it.');
    }
  };
}
