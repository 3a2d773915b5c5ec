/** The fields our middleware adds to Koa's request and state. */
import type { Logger } from 'pino';

declare module 'koa' {
  interface Request {
    /** Set by `jsonBody`: the parsed JSON body. */
    body?: unknown;
  }
  interface DefaultState {
    requestId?: string;
    log?: Logger;
  }
}

export {};
