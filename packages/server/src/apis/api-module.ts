/** What every API module receives and returns: the seam that lets one server mount every API, or one API per host. */
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Clock } from '../platform/clock.js';
import type { LoadedConfig } from '../platform/config/load.js';
import type { ConfigRegistry } from '../platform/config/registry.js';
import type { Logger } from '../platform/logger.js';
import type { Services } from '../app/services.js';
import type { DocumentStore } from '../platform/store/document-store.js';
import type { EventLogs } from '../platform/event-log/event-log.js';
import type { BlobStore } from '../platform/blob-store/blob-store.js';

/** The spec's hosts, each mounted at a configurable prefix of the one server. */
export type MountPoint = 'base' | 'items' | 'search' | 'collect' | 'auth';

export interface ServerDeps {
  config: LoadedConfig;
  registry: ConfigRegistry;
  store: DocumentStore;
  /** Append-only logs per stream (each tenant's activities). */
  eventLogs: EventLogs;
  /** Named binaries written whole (trained item models). */
  blobs: BlobStore;
  logger: Logger;
  clock: Clock;
  /** Called on shutdown, in reverse order of registration, after the HTTP server stopped taking requests. */
  onClose(hook: () => Promise<void>): void;
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
