/** Starts the real server on an ephemeral port over a fresh temporary data directory, for tests. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDiscoveryServer, type DiscoveryServer, type DiscoveryServerOptions } from '../../src/app/server.js';
import { validateConfig } from '../../src/platform/config/load.js';
import { createLogger, type Logger } from '../../src/platform/logger.js';
import type { Clock } from '../../src/platform/clock.js';
import type { ApiFactory } from '../../src/apis/index.js';
import { postgresStorageFor, testsUsePostgres } from './postgres-test-storage.js';

export const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

/** Two tenants, each with one environment, keys, tokens and widgets: enough to test isolation between them. */
export function testConfig(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const tenant = (id: string, client: string, keyFile: string) => ({
    id,
    identityRepositories: ['customer-id'],
    datasources: ['crm'],
    serviceAccounts: [
      { clientId: `${client}`, realm: 'tenant', publicKeyFile: keyFile },
      { clientId: `${client}-legacy`, realm: 'master', publicKeyFile: keyFile },
    ],
    environments: [
      {
        id: 'prod',
        trackerKeys: [`${id}-tracker`],
        searchTokens: [{ token: `${id}-search`, configurations: [{ id: 'default' }] }],
        widgets: [{ id: `${id}-popular`, title: 'Popular', strategies: ['popular'] }],
      },
      { id: 'staging' },
    ],
  });
  return {
    tenants: [tenant('tenant-a', 'client-a', 'client-a.public.pem'), tenant('tenant-b', 'client-b', 'client-b.public.pem')],
    ...overrides,
  };
}

/** `testConfig` with tenant-a's prod environment answering one search token with one configuration. */
export function testConfigWithSearch(token: string, configuration: Record<string, unknown>): Record<string, unknown> {
  const base = testConfig() as { tenants: { environments: Record<string, unknown>[] }[] };
  base.tenants[0]!.environments[0]!.searchTokens = [{ token, configurations: [configuration] }];
  return base;
}

export interface TestServer {
  url: string;
  server: DiscoveryServer;
  dataDir: string;
  /** Closes the server; the data directory stays until `cleanup`. */
  close(): Promise<void>;
  /** Closes the server and deletes the data directory. */
  cleanup(): Promise<void>;
}

export interface TestServerOptions {
  config?: Record<string, unknown>;
  clock?: Clock;
  dataDir?: string;
  extraApis?: ApiFactory[];
  store?: DiscoveryServerOptions['store'];
  /** Where the server logs (silent unless TEST_LOG=1 by default). */
  logger?: Logger;
}

export async function makeDataDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'discovery-test-'));
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? (await makeDataDir());
  const config = validateConfig(options.config ?? testConfig(), '(test)', FIXTURES);
  // npm run test:postgres runs the API tests on PostgreSQL: the data directory names the schema.
  const postgres = testsUsePostgres() && options.store === undefined ? await postgresStorageFor(dataDir) : undefined;
  const server = await createDiscoveryServer({
    config,
    dataDir,
    store: options.store ?? postgres?.store,
    ...(postgres === undefined ? {} : { eventLogs: postgres.eventLogs, blobs: postgres.blobs }),
    clock: options.clock,
    extraApis: options.extraApis,
    logger: options.logger ?? createLogger(process.env.TEST_LOG === '1' ? 'debug' : 'silent'),
  });
  const { url } = await server.listen(0);
  return {
    url,
    server,
    dataDir,
    close: () => server.close(),
    async cleanup() {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** fetch + JSON, returning status, headers and the parsed body (or the text when it is not JSON). */
export async function call(
  url: string,
  init: RequestInit & { json?: unknown } = {},
): Promise<{ status: number; headers: Headers; body: any }> {
  const { json, ...rest } = init;
  const request: RequestInit = { ...rest };
  if (json !== undefined) {
    request.body = JSON.stringify(json);
    request.headers = { 'content-type': 'application/json', ...(rest.headers as Record<string, string> | undefined) };
    request.method ??= 'POST';
  }
  const response = await fetch(url, request);
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body };
}
