/**
 * A real server with one search token and one promoted catalog of products, for the search engine's
 * tests that call the search service in process or over HTTP: `attributes` are the schema's TEXT
 * attributes, `numbers` its INTEGER ones, and `items` gets the catalog version to build the products.
 */
import { rm } from 'node:fs/promises';
import { createDiscoveryServer, type DiscoveryServer } from '../../src/app/server.js';
import { validateConfig } from '../../src/platform/config/load.js';
import { createLogger } from '../../src/platform/logger.js';
import { FIXTURES, makeDataDir, testConfigWithSearch } from './test-server.js';
import { catalogRequests } from './catalog-requests.js';

export const SEARCH_TOKEN = 'shop-search';
export const SEARCH_TENANT = 'tenant-a';
export const SEARCH_ENV = 'prod';

export interface SearchCatalog {
  server: DiscoveryServer;
  version: number;
  close(): Promise<void>;
}

export async function startSearchCatalog(options: {
  configuration: Record<string, unknown>;
  attributes: string[];
  numbers?: string[];
  items: (version: number) => unknown[];
  /** Top-level configuration settings besides the tenants (`searchThreads`). */
  settings?: Record<string, unknown>;
}): Promise<SearchCatalog> {
  const dataDir = await makeDataDir();
  const config = validateConfig({ ...testConfigWithSearch(SEARCH_TOKEN, options.configuration), ...options.settings }, '(test)', FIXTURES);
  const server = await createDiscoveryServer({ config, dataDir, logger: createLogger('silent') });
  const catalog = catalogRequests(server.deps.services.catalog);
  const schema = await catalog.schemas.create(SEARCH_TENANT, SEARCH_ENV, {
    name: 'product',
    attributes: [...options.attributes.map((name) => ({ name, type: 'TEXT' })), ...(options.numbers ?? []).map((name) => ({ name, type: 'INTEGER' }))],
  });
  const { version } = await catalog.catalogs.create(SEARCH_TENANT, SEARCH_ENV, { catalogItemSchemas: [{ name: schema.name, version: schema.version }] });
  const items = options.items(version);
  // The catalog API takes at most 10,000 items per call.
  for (let start = 0; start < items.length; start += 10_000) await catalog.items.load(SEARCH_TENANT, SEARCH_ENV, items.slice(start, start + 10_000));
  await (await server.deps.services.catalog.catalogs.promote(SEARCH_TENANT, SEARCH_ENV, version)).activation;
  return {
    server,
    version,
    close: async () => {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
