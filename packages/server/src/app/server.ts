/** Builds the Koa application over every API module, and runs it: listen, then close gracefully. */
import { once } from 'node:events';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { apiFactories, type ApiFactory } from '../apis/index.js';
import { createOpenApiApi } from '../apis/openapi/openapi-api.js';
import type { ApiModule, ServerDeps } from '../apis/api-module.js';
import { systemClock, type Clock } from '../platform/clock.js';
import type { LoadedConfig } from '../platform/config/load.js';
import { applyHttpLimits, httpServerOptions } from '../platform/http-limits.js';
import { ConfigRegistry } from '../platform/config/registry.js';
import { allowCrossOrigin, crossOriginRoutes } from '../apis/http/cors.js';
import { errorMiddleware } from '../apis/http/error-middleware.js';
import { requestContext } from '../apis/http/request-context.js';
import { clientAddress } from '../apis/http/client-address.js';
import { gatedRoutes } from '../apis/http/route-gate.js';
import { createLogger, type Logger } from '../platform/logger.js';
import type { DocumentStore } from '../platform/store/document-store.js';
import { LowdbStore } from '../platform/store/lowdb-store.js';
import type { EventLogs } from '../platform/event-log/event-log.js';
import { FileEventLogs } from '../platform/event-log/file-event-logs.js';
import type { BlobStore } from '../platform/blob-store/blob-store.js';
import { FileBlobStore } from '../platform/blob-store/file-blob-store.js';
import type { SharedRateWindows } from '../platform/shared-state/rate-windows.js';
import type { SharedClaims } from '../platform/shared-state/shared-claims.js';
import type { FoldLagBoard } from '../platform/shared-state/fold-lag-board.js';
import { ingestGate } from '../apis/http/ingest-gate.js';
import { createServices } from './services.js';

export interface DiscoveryServerOptions {
  config: LoadedConfig;
  /** Directory of the embedded store, event logs and blobs; ignored for those given below. */
  dataDir?: string;
  store?: DocumentStore;
  eventLogs?: EventLogs;
  blobs?: BlobStore;
  /** Rate-limit counts shared by several processes (Redis, docs/scale-out.md). */
  rateWindows?: SharedRateWindows;
  /** Activity idempotency keys decided by several processes together (Redis). */
  sharedClaims?: SharedClaims;
  logger?: Logger;
  clock?: Clock;
  /** False: never train recommendation models here, only load those another process on the shared store trains (ServiceContext.trains). */
  trains?: boolean;
  /** True: only take activities, fold none (ServiceContext.ingestOnly); every other request is answered 421. Needs `foldLagBoard`. */
  ingestOnly?: boolean;
  /** The serving processes' fold lag, shared (Redis): they publish it, ingest-only processes read it. */
  foldLagBoard?: FoldLagBoard;
  /** Extra modules mounted after the built-in APIs (the companion's demo pages and bundle). */
  extraApis?: ApiFactory[];
}

export interface DiscoveryServer {
  app: Koa;
  deps: ServerDeps;
  apis: ApiModule[];
  /** Listens on `port` (0 for any free port); resolves with the bound address. */
  listen(port: number, host?: string): Promise<{ port: number; url: string }>;
  /** Stops taking requests, lets the ones in flight finish, then flushes every pending write. */
  close(): Promise<void>;
}

export async function createDiscoveryServer(options: DiscoveryServerOptions): Promise<DiscoveryServer> {
  if (options.ingestOnly === true && (options.foldLagBoard === undefined || options.store === undefined)) throw new Error('an ingest-only process needs a shared store and a fold lag board (--store and --redis)');
  const logger = options.logger ?? createLogger();
  const store = options.store ?? new LowdbStore({ directory: requireDataDir(options.dataDir) });
  // Beside the store's files, in the directory it locked: `activities/<tenant>/` and `models/`.
  const eventLogs =
    options.eventLogs ?? new FileEventLogs({ directory: join(requireDataDir(options.dataDir), 'activities'), segmentBytes: options.config.activityLog.segmentBytes });
  const blobs = options.blobs ?? new FileBlobStore({ directory: requireDataDir(options.dataDir) });
  const closeStorage = async () => {
    await eventLogs.close();
    await store.close();
  };
  const closeHooks: Array<() => Promise<void>> = [];
  const base = {
    config: options.config,
    registry: new ConfigRegistry(options.config),
    store,
    eventLogs,
    blobs,
    logger,
    clock: options.clock ?? systemClock,
    ...(options.rateWindows === undefined ? {} : { rateWindows: options.rateWindows }),
    ...(options.sharedClaims === undefined ? {} : { sharedClaims: options.sharedClaims }),
    ...(options.trains === false ? { trains: false } : {}),
    ...(options.ingestOnly === true ? { ingestOnly: true } : {}),
    ...(options.foldLagBoard === undefined ? {} : { foldLagBoard: options.foldLagBoard }),
    onClose: (hook: () => Promise<void>) => {
      closeHooks.push(hook);
    },
  };
  let deps: ServerDeps;
  try {
    deps = { ...base, services: await createServices(base) };
  } catch (error) {
    await closeStorage();
    throw error;
  }

  const app = new Koa({ proxy: false });
  app.silent = true;
  app.on('error', (error: unknown) => logger.error({ err: error }, 'unhandled application error'));
  let shuttingDown = false;
  app.use(async (ctx, next) => {
    // No answer may be sniffed into another type (a catalog photo into a script, say).
    ctx.set('X-Content-Type-Options', 'nosniff');
    await next();
    // Keep-alive connections would hold the shutdown open until they time out.
    if (shuttingDown) ctx.set('Connection', 'close');
  });
  app.use(clientAddress(options.config.trustedProxies));
  app.use(requestContext(logger));
  app.use(deps.services.metrics.middleware());
  app.use(errorMiddleware());
  if (options.ingestOnly === true) app.use(ingestGate(options.config.mounts));

  const apis: ApiModule[] = [];
  try {
    for (const factory of [...apiFactories, ...(options.extraApis ?? []), createOpenApiApi(() => apis)]) {
      const api = await factory(deps);
      const prefix = options.config.mounts[api.mount];
      if (api.public) allowCrossOrigin(api.router);
      if (prefix !== '/') api.router.prefix(prefix);
      app.use(gatedRoutes(api.router, api.public ? crossOriginRoutes(api.router) : api.router.routes()));
      app.use(api.router.allowedMethods());
      apis.push(api);
    }
  } catch (error) {
    await closeStorage();
    throw error;
  }

  let httpServer: Server | undefined;
  let closing: Promise<void> | undefined;

  return {
    app,
    deps,
    apis,
    async listen(port, host = '127.0.0.1') {
      httpServer = createServer(httpServerOptions(options.config.limits), app.callback());
      applyHttpLimits(httpServer, options.config.limits);
      httpServer.listen(port, host);
      await once(httpServer, 'listening');
      const address = httpServer.address() as AddressInfo;
      const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
      return { port: address.port, url: `http://${shownHost}:${address.port}` };
    },
    close() {
      closing ??= (async () => {
        shuttingDown = true;
        if (httpServer !== undefined) {
          const server = httpServer;
          const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
          // close() waits for every open connection. A keep-alive connection busy at this moment turns idle
          // after its answer and would then stay open as long as the client likes (a browser does): idle
          // ones are closed as they appear, and whatever is still open after the drain time is cut, so a
          // stop always ends.
          server.closeIdleConnections();
          const idle = setInterval(() => server.closeIdleConnections(), 50);
          const cut = setTimeout(() => server.closeAllConnections(), SHUTDOWN_DRAIN_MS);
          await stopped;
          clearInterval(idle);
          clearTimeout(cut);
        }
        for (const hook of closeHooks.reverse()) {
          try {
            await hook();
          } catch (error) {
            logger.error({ err: error }, 'error while closing');
          }
        }
        await closeStorage();
      })();
      return closing;
    },
  };
}

/** How long requests in flight at a stop may take before their connections are cut. */
const SHUTDOWN_DRAIN_MS = 5_000;

function requireDataDir(dataDir: string | undefined): string {
  if (dataDir === undefined || dataDir === '') throw new Error('createDiscoveryServer needs a dataDir (or a store, event logs and blobs)');
  return dataDir;
}
