/**
 * Gives each request an id (echoed in `X-Request-Id`) and a child logger, and writes one structured log
 * line when it ends. The line is what an operator needs per request (id, method, route pattern,
 * status, time) and nothing a request carries; it is written by the server's logger with the id as a
 * field, and the child logger (`ctx.state.log`, for a handler's own lines) is made only when a handler
 * asks for it: most requests never log anything else, and making a child per request cost more than
 * the line. Below the `info` level the line is not even built.
 */
import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * A request's `ctx.state`: its id, and `log`, a child logger made at the first ask. The accessor is
 * the class's, shared by every request. Defined on each request's state object instead (with its own
 * getter and setter), it gave every request's state a hidden class of its own, which V8 makes in the
 * old generation: the class held the getter's closure, so every request's state was promoted with it
 * and lived until the next full collection (1.7 MB promoted per young collection at 16,000 requests a
 * second of GET /health, against none without; docs/decisions/search-tuning-rounds.md, "Seventh round").
 */
class RequestState {
  [key: string]: unknown;
  readonly #logger: Logger;
  #child: Logger | undefined;

  constructor(
    logger: Logger,
    readonly requestId: string,
  ) {
    this.#logger = logger;
  }

  get log(): Logger {
    return (this.#child ??= this.#logger.child({ requestId: this.requestId }));
  }

  set log(value: Logger) {
    this.#child = value;
  }
}

export function requestContext(logger: Logger) {
  return async function trackRequest(ctx: Context, next: Next): Promise<void> {
    const started = performance.now();
    const incoming = ctx.get('x-request-id');
    const requestId = REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
    ctx.state = Object.assign(new RequestState(logger, requestId), ctx.state);
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
    } finally {
      // The route, not the path: paths carry e-mail addresses, customer and profile ids, and query
      // strings carry search tokens and assertions; none of them go to logs.
      if (logger.isLevelEnabled('info')) {
        logger.info({ requestId, method: ctx.method, route: loggedRoute(ctx), status: ctx.status, ms: Math.round((performance.now() - started) * 10) / 10 }, 'request');
      }
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
