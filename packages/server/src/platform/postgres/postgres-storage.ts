/**
 * The three storage ports on one PostgreSQL database, for the composition root: `openPostgresStorage`
 * connects (a one-line PostgresUnreachableError when it cannot), applies the migrations, and gives the
 * document store, event logs and blob store that share the connection. The connection closes once the
 * document store and the event logs are both closed (the server closes both on shutdown).
 */
import type { Logger } from '../logger.js';
import { PostgresBlobStore } from './postgres-blob-store.js';
import { PostgresDocumentStore } from './postgres-document-store.js';
import { PostgresEngine } from './postgres-engine.js';
import { PostgresEventLogs } from './postgres-event-log.js';

export interface PostgresStorage {
  engine: PostgresEngine;
  store: PostgresDocumentStore;
  eventLogs: PostgresEventLogs;
  blobs: PostgresBlobStore;
}

export async function openPostgresStorage(options: { url: string; schema?: string; logger?: Logger; positionSpan?: number }): Promise<PostgresStorage> {
  const engine = await PostgresEngine.connect(options);
  return {
    engine,
    store: new PostgresDocumentStore({ engine }),
    eventLogs: new PostgresEventLogs({ engine, ...(options.positionSpan === undefined ? {} : { positionSpan: options.positionSpan }) }),
    blobs: new PostgresBlobStore({ engine }),
  };
}
