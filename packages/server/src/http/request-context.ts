/** Gives each request an id (echoed in `X-Request-Id`) and a child logger, and writes one structured log line when it ends. */
import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

export function requestContext(logger: Logger) {
  return async function trackRequest(ctx: Context, next: Next): Promise<void> {
    const started = performance.now();
    const incoming = ctx.get('x-request-id');
    const requestId = REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.state.log = logger.child({ requestId });
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
    } finally {
      // The path only: query strings can carry search tokens and assertions, which never go to logs.
      ctx.state.log.info(
        { method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round((performance.now() - started) * 10) / 10 },
        'request',
      );
    }
  };
}
