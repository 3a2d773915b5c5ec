/**
 * Servers of one shop on one PostgreSQL schema, in this test process, each on a real port: the tests of
 * what several processes on a shared store do (a process that never trains, an erasure's notice).
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDiscoveryServer, type DiscoveryServer } from '../../src/app/server.js';
import { openPostgresStorage } from '../../src/platform/postgres/postgres-storage.js';
import type { LoadedConfig } from '../../src/platform/config/load.js';
import type { Logger } from '../../src/platform/logger.js';

export interface SharedStoreServer {
  server: DiscoveryServer;
  base: string;
}

/** A server on `schema` of the PostgreSQL at `url`, with the configuration `configFor` makes for its own data directory. */
export async function openOnSharedStore(url: string, schema: string, options: { configFor: (dir: string) => LoadedConfig; logger: Logger; trains?: boolean }): Promise<SharedStoreServer> {
  const dir = await mkdtemp(join(tmpdir(), 'shared-store-'));
  const storage = await openPostgresStorage({ url, schema });
  const server = await createDiscoveryServer({
    config: options.configFor(dir),
    dataDir: dir,
    logger: options.logger,
    store: storage.store,
    eventLogs: storage.eventLogs,
    blobs: storage.blobs,
    ...(options.trains === false ? { trains: false } : {}),
  });
  const { url: base } = await server.listen(0, '127.0.0.1');
  return { server, base };
}

/** Retries `check` every 50 ms until it passes or `ms` have passed (then its last failure is thrown). */
export async function eventually(check: () => void | Promise<void>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
