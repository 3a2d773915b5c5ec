/**
 * CORS for the public browser APIs only (recommendations, search, tracker, collect): any origin, no credentials.
 * Private APIs never get these headers, so a browser page can never read them with a shopper's cookies.
 */
import type Router from '@koa/router';
import type { Context, Next } from 'koa';

const ALLOWED_HEADERS = 'Content-Type, Accept, X-Request-Id, Idempotency-Key';
const EXPOSED_HEADERS = 'X-Request-Id, Retry-After';

function setCorsHeaders(ctx: Context): void {
  ctx.set('Access-Control-Allow-Origin', '*');
  ctx.set('Access-Control-Expose-Headers', EXPOSED_HEADERS);
}

/**
 * Makes every route of `router` answer cross-origin requests, preflights included.
 * Call it after the routes are declared: it adds an OPTIONS route per declared path.
 */
export function allowCrossOrigin(router: Router): void {
  const paths = new Map<string, Set<string>>();
  for (const layer of router.stack) {
    if (layer.methods.length === 0 || typeof layer.path !== 'string') continue;
    const methods = paths.get(layer.path) ?? new Set<string>();
    for (const method of layer.methods) if (method !== 'HEAD') methods.add(method);
    paths.set(layer.path, methods);
  }
  for (const [path, methods] of paths) {
    const allow = [...methods, 'OPTIONS'].join(', ');
    router.options(path, (ctx: Context) => {
      setCorsHeaders(ctx);
      ctx.set('Access-Control-Allow-Methods', allow);
      ctx.set('Access-Control-Allow-Headers', ALLOWED_HEADERS);
      ctx.set('Access-Control-Max-Age', '600');
      ctx.status = 204;
    });
  }
}

/**
 * The router's routes, with CORS headers set before any of its handlers runs (so error answers
 * carry them too) and only on paths the router answers.
 */
export function crossOriginRoutes(router: Router) {
  const routes = router.routes() as unknown as (ctx: Context, next: Next) => Promise<unknown>;
  return function routeCrossOrigin(ctx: Context, next: Next) {
    if (router.match(ctx.path, ctx.method).path.length > 0) setCorsHeaders(ctx);
    return routes(ctx, next);
  };
}
