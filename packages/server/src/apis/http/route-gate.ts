/**
 * Skips an API module's router for requests it cannot answer. The server mounts one router per module,
 * one after the other, and each tests the request against every one of its routes' patterns: a search
 * request passed six routers (dozens of pattern tests) before reaching its own. Most routes start with
 * a fixed first segment (`/catalog/...`, `/search...`), so a request whose first segment none of a
 * router's routes has is passed on at once, with what the router leaves when nothing matches.
 */
import type Router from '@koa/router';
import type { Context, Next } from 'koa';

/** Typed by the router's own context (with route parameters); the gate reads only the path. */
type Middleware<C extends Context> = (ctx: C, next: Next) => unknown;

/** Characters that make a first segment a pattern rather than fixed text. */
const PATTERN = /[:(*{[?+]/;

/**
 * The lower-cased first path segments of `router`'s routes (the router matches without case), or
 * undefined when some route's first segment is a pattern (`/:trackerKey`) and every request must be tried.
 */
function firstSegments(router: Router): ReadonlySet<string> | undefined {
  const segments = new Set<string>();
  for (const layer of router.stack) {
    // Middleware added with `router.use` runs only when a route matched: routes alone decide.
    if (layer.methods.length === 0) continue;
    if (typeof layer.path !== 'string') return undefined;
    const first = layer.path.split('/')[1] ?? '';
    if (PATTERN.test(first)) return undefined;
    segments.add(first.toLowerCase());
  }
  return segments;
}

/** The first segment of a request path, lower-cased. */
function firstSegmentOf(path: string): string {
  const end = path.indexOf('/', 1);
  return (end < 0 ? path.slice(1) : path.slice(1, end)).toLowerCase();
}

/**
 * `middleware` (the router's routes, or a wrapper of them) for the requests whose first segment is one
 * of the router's; others go straight on. Segments are read at the first request, once every route and
 * the mount prefix are in place.
 */
export function gatedRoutes<C extends Context>(router: Router, middleware: Middleware<C>): Middleware<C> {
  let segments: ReadonlySet<string> | undefined | null = null;
  return function routeIfOwnPath(ctx: C, next: Next) {
    if (segments === null) segments = firstSegments(router);
    if (segments === undefined || segments.has(firstSegmentOf(ctx.path))) return middleware(ctx, next);
    // What the router leaves on a request it does not match: allowedMethods reads `matched` to tell a
    // 404 from a 405 or 501.
    const state = ctx as { matched?: unknown[] };
    state.matched ??= [];
    return next();
  };
}
