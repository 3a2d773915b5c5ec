/**
 * `TEST_STORE=postgres` (npm run test:postgres): the API tests' servers keep everything in PostgreSQL
 * instead of their data directory. One PostgreSQL server per test process (the harness), one schema
 * per data directory, so that a test reopening a server on its directory finds what it stored.
 */
import { createHash } from 'node:crypto';
import { startPostgres, type PostgresServer } from './engines.js';
import { openPostgresStorage, type PostgresStorage } from '../../src/platform/postgres/postgres-storage.js';

let server: Promise<PostgresServer> | undefined;

export function testsUsePostgres(): boolean {
  return process.env.TEST_STORE === 'postgres';
}

export async function postgresStorageFor(dataDir: string): Promise<PostgresStorage> {
  server ??= startPostgres();
  const { url } = await server;
  const schema = `t_${createHash('sha256').update(dataDir).digest('hex').slice(0, 16)}`;
  return openPostgresStorage({ url, schema, positionSpan: 16 });
}
