/**
 * Catalog loading: 100,000 products and variants loaded through the catalog service in batches of
 * 5,000 over the real embedded store, then promoted. Reports items/s, time to active, the latency of
 * a small patch on the full catalog (what sharding buys), and heap use.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Benchmark, BenchResult } from './run.js';
import { heapUsedMb, measure, round } from './harness.js';
import { CatalogService } from '../packages/server/src/domains/catalog/catalog-service.js';
import { parseItemBatch } from '../packages/server/src/apis/catalog/catalog-requests.js';
import { systemClock } from '../packages/server/src/platform/clock.js';
import { ConfigRegistry } from '../packages/server/src/platform/config/registry.js';
import { validateConfig } from '../packages/server/src/platform/config/load.js';
import { createLogger } from '../packages/server/src/platform/logger.js';
import { LowdbStore } from '../packages/server/src/platform/store/lowdb-store.js';

const TOTAL = 100_000;
const BATCH = 5_000;
const TENANT = 'bench';
const ENV = 'prod';

function batchOf(start: number, version: number): unknown[] {
  return Array.from({ length: BATCH }, (_, i) => {
    const n = start + i;
    // Every fourth item is a variant of the product just before it, as in a shop with sizes.
    return n % 4 === 3
      ? { id: `v${n}`, catalogVersion: version, type: 'variant', parentId: `p${n - 1}`, attributes: { size: ['S', 'M', 'L'][n % 3], stock: n % 17 } }
      : {
          id: `p${n}`,
          catalogVersion: version,
          type: 'product',
          attributes: { title: `Product ${n} in colour ${n % 13}`, price: 100 + (n % 9_000), brand_name: `Brand ${n % 200}`, categories: `cat-${n % 40}, cat-${n % 7}` },
        };
  });
}

const benchmark: Benchmark = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'discovery-bench-catalog-'));
  const store = new LowdbStore({ directory: dir });
  const registry = new ConfigRegistry(validateConfig({ tenants: [{ id: TENANT, environments: [{ id: ENV }] }] }, '(bench)', dir));
  const service = new CatalogService({ store, clock: systemClock, logger: createLogger('silent'), registry });
  try {
    const heapBefore = heapUsedMb();
    await service.schemas.create(TENANT, ENV, {
      name: 'product',
      attributes: [
        { name: 'title', type: 'TEXT' },
        { name: 'price', type: 'INTEGER' },
        { name: 'brand_name', type: 'TEXT' },
        { name: 'categories', type: 'TEXT' },
      ],
      nestedItemSchemas: [{ name: 'variant', attributes: [{ name: 'size', type: 'TEXT' }, { name: 'stock', type: 'INTEGER' }] }],
    });
    const { version } = await service.catalogs.create(TENANT, ENV, { catalogItemSchemas: [{ name: 'product', version: 1 }] });

    const loadStart = performance.now();
    for (let start = 0; start < TOTAL; start += BATCH) await service.items.load(TENANT, ENV, parseItemBatch(batchOf(start, version)));
    await store.flush();
    const loadSeconds = (performance.now() - loadStart) / 1000;

    // A stand-in builder that touches every item, as an index build would.
    service.onActivate(async (_tenant, _env, _version, items) => {
      const titles = new Map<string, unknown>();
      for (const item of items) titles.set(item.id, item.attributes.title);
    });
    const promoteStart = performance.now();
    const { activation } = await service.catalogs.promote(TENANT, ENV, version);
    const active = await activation;
    const promoteMs = performance.now() - promoteStart;

    let patchRound = 0;
    const patch = await measure(50, async () => {
      patchRound++;
      const items = Array.from({ length: 100 }, (_, i) => ({ id: `p${(patchRound * 400 + i * 4) % TOTAL}`, catalogVersion: version, type: 'product', attributes: { price: patchRound } }));
      await service.items.patch(TENANT, ENV, parseItemBatch(items));
    }, 5);

    const single = await measure(50, async (i) => {
      await service.items.patch(TENANT, ENV, parseItemBatch([{ id: `p${(i * 4) % TOTAL}`, catalogVersion: version, type: 'product', attributes: { price: i } }]));
    }, 5);

    const rows: BenchResult['rows'] = [
      { step: `load ${TOTAL} items, batches of ${BATCH}`, seconds: round(loadSeconds, 2), itemsPerSecond: Math.round(TOTAL / loadSeconds) },
      { step: 'promote to active (1 builder over every item)', seconds: round(promoteMs / 1000, 2), state: active.state },
      { step: 'patch 1 item of the full catalog', medianMs: single.medianMs, p99Ms: single.p99Ms },
      { step: 'patch 100 items spread over every shard', medianMs: patch.medianMs, p99Ms: patch.p99Ms },
      { step: 'heap used (catalog loaded, promoted, patched)', mb: heapUsedMb(), deltaMb: round(heapUsedMb() - heapBefore, 1) },
    ];
    return {
      name: 'catalog load and promotion (embedded store)',
      rows,
      notes: ['Items are sharded over 32 files per catalog version; a batch rewrites only the shards it touches.'],
    };
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
};

export default benchmark;
