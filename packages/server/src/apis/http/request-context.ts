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
      // The route, not the path: paths carry e-mail addresses, customer and profile ids, and query
      // strings carry search tokens and assertions; none of them go to logs.
      ctx.state.log.info(
        { method: ctx.method, route: loggedRoute(ctx), status: ctx.status, ms: Math.round((performance.now() - started) * 10) / 10 },
        'request',
      );
    }
  };
}

/** The matched route pattern (`/widget/:widgetId/recommendations{/*rest}`), or the first path segment when none matched. */
export function loggedRoute(ctx: Context): string {
  const route = (ctx as { _matchedRoute?: unknown })._matchedRoute;
  if (typeof route === 'string') return route;
  const first = ctx.path.split('/')[1] ?? '';
  return /^[A-Za-z0-9._-]{1,40}$/.test(first) ? `/${first}/…` : '/…';
}
