/** What every API module receives and returns: the seam that lets one server mount every API, or one API per host. */
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { LoadedConfig } from '../platform/config/load.js';
import type { ServiceContext } from '../platform/service-context.js';
import type { Services } from './services.js';

/** The spec's hosts, each mounted at a configurable prefix of the one server. */
export type MountPoint = 'base' | 'items' | 'search' | 'collect' | 'auth';

/** What an API module is built from: the service context and the built domain services. */
export interface ServerDeps extends ServiceContext {
  /** Shared services (auth, catalog, activities...), built before the API modules. */
  services: Services;
}

export interface ApiModule {
  name: string;
  mount: MountPoint;
  router: Router;
  /** Public browser APIs answer CORS requests from any origin; private ones never do. */
  public: boolean;
}

/** The server's public URL for links and token issuers: the configured one, or the one this request reached. */
export function publicBaseUrl(config: LoadedConfig, ctx: Context): string {
  // Not ctx.origin: in Koa 3 that is the caller's Origin header (null on server-to-server calls).
  return (config.publicUrl ?? `${ctx.protocol}://${ctx.host}`).replace(/\/$/, '');
}

/** Joins a mount prefix and a path: `('/catalog', '/items')` → `/catalog/items`, `('/', '/items')` → `/items`. */
export function mountedPath(prefix: string, path: string): string {
  return prefix === '/' ? path : `${prefix}${path}`;
}
