/** A CatalogService over the real LowdbStore in a fresh temporary directory, and helpers to read its files. */
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { CatalogService } from '../../src/domains/catalog/catalog-service.js';
import { ManualClock } from '../../src/platform/clock.js';
import { validateConfig } from '../../src/platform/config/load.js';
import { ConfigRegistry } from '../../src/platform/config/registry.js';
import type { DomainError } from '../../src/platform/domain-error.js';
import { answeredWith } from '../support/domain-refusal.js';
import { catalogRequests, type CatalogRequests } from '../support/catalog-requests.js';
import { createLogger } from '../../src/platform/logger.js';
import { LowdbStore } from '../../src/platform/store/lowdb-store.js';
import { FIXTURES, makeDataDir, testConfig } from '../support/test-server.js';

export interface CatalogFixture {
  service: CatalogService;
  /** The same service behind the API's request parsers: for raw bodies, and for refusals of their shape. */
  api: CatalogRequests;
  store: LowdbStore;
  dir: string;
  clock: ManualClock;
  /** Every stored file under `documents/`, path → content, to prove a refused batch changed nothing. */
  snapshot(): Promise<Map<string, string>>;
  cleanup(): Promise<void>;
}

export async function catalogFixture(): Promise<CatalogFixture> {
  const dir = await makeDataDir();
  const store = new LowdbStore({ directory: dir });
  const clock = new ManualClock();
  const registry = new ConfigRegistry(validateConfig(testConfig(), '(test)', FIXTURES));
  const service = new CatalogService({ store, clock, logger: createLogger('silent'), registry });
  return {
    service,
    api: catalogRequests(service),
    store,
    dir,
    clock,
    async snapshot() {
      await store.flush();
      const files = new Map<string, string>();
      const walk = async (at: string): Promise<void> => {
        for (const entry of await readdir(at, { withFileTypes: true }).catch(() => [])) {
          const full = join(at, entry.name);
          if (entry.isDirectory()) await walk(full);
          else files.set(full.slice(dir.length), await readFile(full, 'utf8'));
        }
      };
      await walk(join(dir, 'documents'));
      return files;
    },
    async cleanup() {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Asserts that `promise` rejects with a DomainError that the API answers with this status and code
 * (mapped as the error middleware maps it), and returns it for more checks.
 */
export async function refused(promise: Promise<unknown>, status: number, code: string): Promise<DomainError> {
  try {
    await promise;
  } catch (error) {
    answeredWith({ status, code })(error);
    return error as DomainError;
  }
  assert.fail('expected a refusal');
}

export const T = 'tenant-a';
export const E = 'prod';

/** A product schema with a variant type, as a shop would declare it. */
export const PRODUCT_SCHEMA = {
  name: 'product',
  attributes: [
    { name: 'title', type: 'TEXT' },
    { name: 'price', type: 'INTEGER' },
    { name: 'brand_name', type: 'TEXT' },
  ],
  nestedItemSchemas: [{ name: 'variant', attributes: [{ name: 'size', type: 'TEXT' }, { name: 'stock', type: 'INTEGER' }] }],
};

/** Creates the product schema and a catalog over it; returns the catalog version. */
export async function productCatalog(service: CatalogService): Promise<number> {
  const schema = await catalogRequests(service).schemas.create(T, E, PRODUCT_SCHEMA);
  const catalog = await service.catalogs.create(T, E, { catalogItemSchemas: [{ name: schema.name, version: schema.version }] });
  return catalog.version;
}
