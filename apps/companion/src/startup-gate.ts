/**
 * The companion's listening socket, opened before anything is loaded: while the store, indexes and
 * aggregates load, /health says the process is alive, /ready and every other path answer 503 with
 * Retry-After, so a load balancer or container health check sees "starting", not "connection
 * refused". Once warm, requests go to the application.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { applyHttpLimits, DEFAULT_HTTP_LIMITS, httpServerOptions, type HttpLimits } from '@discovery-kit/server/http-limits';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

export interface StartupGate {
  url: string;
  port: number;
  /** Sends every later request to `handler`, under the configured request bounds: the server is ready. */
  open(handler: Handler, limits: HttpLimits): void;
  /** Stops taking connections and waits for the ones in flight to end. */
  close(): Promise<void>;
}

function warmingUp(request: IncomingMessage, response: ServerResponse, startedAt: number): void {
  const path = (request.url ?? '/').split('?')[0];
  const alive = path === '/health';
  const body = alive
    ? { status: 'starting', uptimeSeconds: Math.floor((Date.now() - startedAt) / 1000) }
    : { error: { status: 503, code: 'starting', message: 'The server is loading its catalogs, indexes and activity aggregates; retry shortly.' } };
  response.writeHead(alive ? 200 : 503, {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    ...(alive ? {} : { 'Retry-After': '1' }),
  });
  response.end(JSON.stringify(body));
}

export async function openStartupGate(port: number, host: string): Promise<StartupGate> {
  const startedAt = Date.now();
  let handler: Handler = (request, response) => warmingUp(request, response, startedAt);
  let closing = false;
  // The configuration is not read yet: the default bounds until it is (bounds under a few seconds are then kept within a second).
  const server: Server = createServer(httpServerOptions(DEFAULT_HTTP_LIMITS), (request, response) => {
    // Keep-alive connections would otherwise hold a shutdown open until they time out.
    if (closing) response.setHeader('Connection', 'close');
    handler(request, response);
  });
  applyHttpLimits(server, DEFAULT_HTTP_LIMITS);
  server.listen(port, host);
  await once(server, 'listening');
  const bound = (server.address() as AddressInfo).port;
  const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  let closed: Promise<void> | undefined;
  return {
    url: `http://${shownHost}:${bound}`,
    port: bound,
    open(next, limits) {
      applyHttpLimits(server, limits);
      handler = next;
    },
    close() {
      closed ??= new Promise<void>((resolve) => {
        closing = true;
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      return closed;
    },
  };
}
