/**
 * The bounds every HTTP server of a process applies (the Koa server's, and the companion's start-up
 * gate that serves the same application): a client trickling its headers or body is cut after the
 * timeout instead of holding a connection for minutes, and connections past the cap are closed as
 * they arrive. A small module with no dependencies, so the companion can open its port before it
 * loads the server. See docs/operations.md, "Connections".
 */
import type { Server, ServerOptions } from 'node:http';

export interface HttpLimits {
  headersTimeoutSeconds: number;
  requestTimeoutSeconds: number;
  maxConnections: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = { headersTimeoutSeconds: 20, requestTimeoutSeconds: 60, maxConnections: 1000 };

/** How often Node looks for requests past their timeouts: the bounds are kept within this much. */
const CHECK_EVERY_MS = 1000;

/** Options for `createServer`: the check interval cannot change after, so it is set for the smallest bound used. */
export function httpServerOptions(limits: HttpLimits): ServerOptions {
  return { connectionsCheckingInterval: Math.max(25, Math.min(CHECK_EVERY_MS, Math.round((limits.headersTimeoutSeconds * 1000) / 4))) };
}

/** Sets the timeouts and the connection cap on a server (before or after it listens). */
export function applyHttpLimits(server: Server, limits: HttpLimits): void {
  server.headersTimeout = Math.round(limits.headersTimeoutSeconds * 1000);
  server.requestTimeout = Math.round(limits.requestTimeoutSeconds * 1000);
  server.maxConnections = limits.maxConnections;
}
