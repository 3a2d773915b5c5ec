/** Item schemas and catalog versions: limits, deletion, and promotion that swaps only when the builders are done. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { catalogFixture, E, PRODUCT_SCHEMA, productCatalog, refused, T } from './catalog-fixture.js';
import type { ItemsChanged } from '../../src/domains/catalog/types.js';
import { FIXTURES, startTestServer, testConfig } from '../support/test-server.js';
import { CatalogService } from '../../src/domains/catalog/catalog-service.js';
import { validateConfig } from '../../src/platform/config/load.js';
import { ConfigRegistry } from '../../src/platform/config/registry.js';
import { createLogger } from '../../src/platform/logger.js';
import { LowdbStore } from '../../src/platform/store/lowdb-store.js';
import { catalogRequests } from '../support/catalog-requests.js';

describe('item schemas', () => {
  it('stores a schema as version 1 and the same name again as version 2', async () => {
    const f = await catalogFixture();
    try {
      const first = await f.api.schemas.create(T, E, PRODUCT_SCHEMA);
      assert.deepEqual(first, { ...PRODUCT_SCHEMA, version: 1, createdAt: '2026-11-21T12:00:00.000Z' });
      const second = await f.api.schemas.create(T, E, { name: 'product', attributes: [{ name: 'title', type: 'TEXT' }] });
      assert.equal(second.version, 2);
      assert.deepEqual(second.nestedItemSchemas, []);
      assert.equal((await f.service.schemas.list(T, 'staging')).length, 0, 'schemas are per environment');
    } finally {
      await f.cleanup();
    }
  });

  it('refuses an unknown attribute type listing the allowed ones, and duplicate attribute names', async () => {
    const f = await catalogFixture();
    try {
      const error = await refused(f.api.schemas.create(T, E, { name: 'p', attributes: [{ name: 'when', type: 'DATE' }] }), 400, 'invalid_body');
      assert.equal(error.field, 'attributes[0].type');
      assert.match(error.message, /allowed types are TEXT, INTEGER/);
      const dup = await refused(
        f.api.schemas.create(T, E, { name: 'p', attributes: [{ name: 'a', type: 'TEXT' }, { name: 'a', type: 'INTEGER' }] }),
        400,
        'invalid_body',
      );
      assert.equal(dup.field, 'attributes[1].name');
      const nested = await refused(f.api.schemas.create(T, E, { name: 'p', nestedItemSchemas: [{ name: 'p', attributes: [] }] }), 400, 'invalid_body');
      assert.equal(nested.field, 'nestedItemSchemas[0].name');
      assert.deepEqual(await f.snapshot(), new Map(), 'nothing stored');
    } finally {
      await f.cleanup();
    }
  });
});

describe('catalogs', () => {
  it('numbers catalogs 1, 2, refuses a third naming the inactive one to delete, and never reuses a version', async () => {
    const f = await catalogFixture();
    try {
      assert.equal(await productCatalog(f.service), 1);
      const two = await f.api.catalogs.create(T, E, { catalogItemSchemas: [{ name: 'product', version: 1 }] });
      assert.deepEqual(two, { version: 2, state: 'inactive', catalogItemSchemas: [{ name: 'product', version: 1 }], createdAt: '2026-11-21T12:00:00.000Z', activatedAt: null });
      const third = await refused(f.api.catalogs.create(T, E, { catalogItemSchemas: [{ name: 'product', version: 1 }] }), 409, 'limit_exceeded');
      assert.match(third.message, /delete inactive catalog version 1 \(DELETE \/catalogs\/1\)/);
      await (await f.service.catalogs.promote(T, E, 1)).activation;
      const again = await refused(f.api.catalogs.create(T, E, { catalogItemSchemas: [{ name: 'product', version: 1 }] }), 409, 'limit_exceeded');
      assert.match(again.message, /delete inactive catalog version 2/);
      await f.service.catalogs.delete(T, E, 2);
      assert.equal((await f.api.catalogs.create(T, E, { catalogItemSchemas: [{ name: 'product', version: 1 }] })).version, 3);
      assert.deepEqual((await f.service.catalogs.list(T, E)).map((c) => [c.version, c.state]), [[1, 'active'], [3, 'inactive']]);
    } finally {
      await f.cleanup();
    }
  });

  it('refuses unknown schema versions and clashing type names, naming the reference', async () => {
    const f = await catalogFixture();
    try {
      await f.api.schemas.create(T, E, PRODUCT_SCHEMA);
      const missing = await refused(f.api.catalogs.create(T, E, { catalogItemSchemas: [{ name: 'product', version: 2 }] }), 400, 'invalid_body');
      assert.equal(missing.field, 'catalogItemSchemas[0]');
      assert.match(missing.message, /no item schema "product" version 2/);
      await f.api.schemas.create(T, E, PRODUCT_SCHEMA);
      const clash = await refused(f.api.catalogs.create(T, E, { catalogItemSchemas: [{ name: 'product', version: 1 }, { name: 'product', version: 2 }] }), 400, 'invalid_body');
      assert.equal(clash.field, 'catalogItemSchemas[1]');
      await refused(f.api.catalogs.create(T, E, {}), 400, 'invalid_body');
    } finally {
      await f.cleanup();
    }
  });

  it('refuses to delete the active catalog (409) and an unknown one (404); deleting removes the item files', async () => {
    const f = await catalogFixture();
    try {
      const v1 = await productCatalog(f.service);
      await (await f.service.catalogs.promote(T, E, v1)).activation;
      const active = await refused(f.service.catalogs.delete(T, E, v1), 409, 'conflict');
      assert.equal(active.field, 'version');
      await refused(f.service.catalogs.delete(T, E, 9), 404, 'not_found');
      await refused(f.service.catalogs.promote(T, E, 9), 404, 'not_found');
      const v2 = (await f.api.catalogs.create(T, E, { catalogItemSchemas: [{ name: 'product', version: 1 }] })).version;
      await f.api.items.load(T, E, [{ id: 'p1', catalogVersion: v2, type: 'product', attributes: { title: 'Shoe' } }]);
      assert.ok([...(await f.snapshot()).keys()].some((name) => name.includes(`/catalog/${v2}/items-`)));
      await f.service.catalogs.delete(T, E, v2);
      assert.ok(![...(await f.snapshot()).keys()].some((name) => name.includes(`/catalog/${v2}/`)));
      assert.equal((await f.service.catalogs.active(T, E))?.version, v1);
    } finally {
      await f.cleanup();
    }
  });

  it('promotes in the background: the old catalog stays active until the builders finish, then both swap in one write', async () => {
    const f = await catalogFixture();
    try {
      const v1 = await productCatalog(f.service);
      await f.api.items.load(T, E, [{ id: 'old', catalogVersion: v1, type: 'product', attributes: { title: 'Old' } }]);
      await (await f.service.catalogs.promote(T, E, v1)).activation;
      const v2 = (await f.api.catalogs.create(T, E, { catalogItemSchemas: [{ name: 'product', version: 1 }] })).version;
      await f.api.items.load(T, E, [{ id: 'new', catalogVersion: v2, type: 'product', attributes: { title: 'New' } }]);

      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const built: Array<{ version: number; ids: string[] }> = [];
      f.service.onActivate(async (tenantId, environmentId, version, items) => {
        assert.equal(tenantId, T);
        assert.equal(environmentId, E);
        await gate;
        built.push({ version, ids: items.map((i) => i.id) });
      });
      const changes: ItemsChanged[] = [];
      f.service.onItemsChanged((change) => changes.push(change));

      const promotion = await f.service.catalogs.promote(T, E, v2);
      assert.equal(promotion.catalog.state, 'building');
      assert.equal((await f.service.catalogs.active(T, E))?.version, v1, 'queries during the build see the old catalog');
      assert.equal((await f.service.getItem(T, E, v1, 'old'))?.attributes.title, 'Old');
      await refused(f.service.catalogs.promote(T, E, v2), 409, 'conflict');
      assert.equal((await f.service.catalogs.promote(T, E, v1)).catalog.state, 'active', 'promoting the active one is a no-op');
      await refused(f.service.catalogs.delete(T, E, v2), 409, 'conflict');
      // A write during the build is held back, then delivered once the new catalog is live.
      await f.api.items.patch(T, E, [{ id: 'new', catalogVersion: v2, type: 'product', attributes: { price: 1999 } }]);
      await f.api.items.patch(T, E, [{ id: 'old', catalogVersion: v1, type: 'product', attributes: { price: 5 } }]);
      assert.deepEqual(changes.map((c) => c.scope.version), [v1], 'only the write to the active catalog was announced');
      await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal((await f.service.catalogs.active(T, E))?.version, v1, 'still the old one while the builder waits');

      release();
      const done = await promotion.activation;
      assert.equal(done.state, 'active');
      assert.deepEqual(built, [{ version: v2, ids: ['new'] }]);
      assert.equal((await f.service.catalogs.active(T, E))?.version, v2);
      assert.equal((await f.service.catalogs.get(T, E, v1)).state, 'inactive');
      assert.deepEqual(changes.map((c) => [c.scope.version, c.upserted.map((i) => i.attributes.price)]), [[v1, [5]], [v2, [1999]]]);
    } finally {
      await f.cleanup();
    }
  });

  it('leaves the previous catalog active when a builder fails, and records why', async () => {
    const f = await catalogFixture();
    try {
      const v1 = await productCatalog(f.service);
      await (await f.service.catalogs.promote(T, E, v1)).activation;
      const v2 = (await f.api.catalogs.create(T, E, { catalogItemSchemas: [{ name: 'product', version: 1 }] })).version;
      f.service.onActivate(async () => {
        throw new Error('index build ran out of memory');
      });
      const done = await (await f.service.catalogs.promote(T, E, v2)).activation;
      assert.equal(done.state, 'inactive');
      assert.equal(done.promotionError, 'index build ran out of memory');
      assert.equal((await f.service.catalogs.active(T, E))?.version, v1);
    } finally {
      await f.cleanup();
    }
  });

  it('abandons a build on shutdown, and the next start makes that catalog inactive and promotable again', async () => {
    const f = await catalogFixture();
    try {
      const v1 = await productCatalog(f.service);
      let release!: () => void;
      let builderStarted!: () => void;
      const started = new Promise<void>((resolve) => (builderStarted = resolve));
      f.service.onActivate(() => {
        builderStarted();
        return new Promise<void>((resolve) => (release = resolve));
      });
      const { activation } = await f.service.catalogs.promote(T, E, v1);
      // Wait for the build to be under way rather than for a fixed time, which a loaded machine can overrun.
      await started;
      f.service.close();
      release();
      assert.equal((await activation).promotionError, 'interrupted by shutdown');
      await f.store.close();
      const store = new LowdbStore({ directory: f.dir });
      const registry = new ConfigRegistry(validateConfig(testConfig(), '(test)', FIXTURES));
      const again = new CatalogService({ store, clock: f.clock, logger: createLogger('silent'), registry });
      const record = await again.catalogs.get(T, E, v1);
      assert.deepEqual([record.state, record.promotionError], ['inactive', 'interrupted by a restart']);
      assert.equal((await (await again.catalogs.promote(T, E, v1)).activation).state, 'active');
      await store.close();
    } finally {
      await f.cleanup();
    }
  });

  it('is part of the shared services of a running server', async () => {
    const server = await startTestServer();
    try {
      const { catalog } = server.server.deps.services;
      assert.equal(await catalog.catalogs.active(T, E), undefined);
      await catalogRequests(catalog).schemas.create(T, E, PRODUCT_SCHEMA);
      assert.equal((await catalog.schemas.list(T, E)).length, 1);
    } finally {
      await server.cleanup();
    }
  });
});
