/** Catalog item batches: validation against the schemas, all-or-nothing writes, patches, and a 20,000-item load. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { catalogFixture, E, productCatalog, refused, T } from './catalog-fixture.js';
import { LowdbStore } from '../../src/platform/store/lowdb-store.js';
import { ItemStore, SHARD_COUNT } from '../../src/domains/catalog/item-store.js';

describe('catalog items', () => {
  it('loads parents and variants together and reads them back, also after a restart', async () => {
    const f = await catalogFixture();
    try {
      const v = await productCatalog(f.service);
      const result = await f.api.items.load(T, E, [
        { id: 'v1', catalogVersion: v, type: 'variant', parentId: 'p1', attributes: { size: 'M', stock: 3 } },
        { id: 'p1', catalogVersion: v, type: 'product', attributes: { title: 'Shoe', price: 4999 } },
      ]);
      assert.deepEqual(result, { catalogVersion: v, count: 2 });
      await f.api.items.load(T, E, [{ id: 'v2', catalogVersion: v, type: 'variant', parentId: 'p1', attributes: { size: 'L' } }]);
      assert.deepEqual(await f.service.getItem(T, E, v, 'v1'), {
        key: 'v1', id: 'v1', type: 'variant', context: 'default', kind: 'product', parentId: 'p1', attributes: { size: 'M', stock: 3 }, updated: '2026-11-21T12:00:00.000Z',
      });
      assert.deepEqual((await f.service.getItems(T, E, v, ['p1', 'nope', 'v2'])).map((i) => i.id), ['p1', 'v2']);
      await f.store.close();
      const reopened = new LowdbStore({ directory: f.dir });
      const items = new ItemStore(reopened);
      assert.equal((await items.all({ tenantId: T, environmentId: E, api: 'catalog', version: v })).length, 3);
      await reopened.close();
    } finally {
      await f.cleanup();
    }
  });

  it('refuses a batch with bad items as a whole, naming each item and field, and leaves the files unchanged', async () => {
    const f = await catalogFixture();
    try {
      const v = await productCatalog(f.service);
      await f.api.items.load(T, E, [{ id: 'p1', catalogVersion: v, type: 'product', attributes: { title: 'Shoe', price: 10 } }]);
      const before = await f.snapshot();
      const error = await refused(
        f.api.items.load(T, E, [
          { id: 'ok', catalogVersion: v, type: 'product', attributes: { title: 'Fine' } },
          { id: 'a', catalogVersion: v, type: 'gadget' },
          { id: 'b', catalogVersion: v, type: 'variant', parentId: 'missing' },
          { id: 'c', catalogVersion: v, type: 'product', attributes: { price: '12.50', colour: 'red' } },
          { id: 'ok', catalogVersion: v, type: 'product' },
          { id: 'd', catalogVersion: v, type: 'variant' },
          { id: 'e', catalogVersion: v, type: 'product', parentId: 'p1' },
          { id: 'f', catalogVersion: v, type: 'product', attributes: { price: 1.5 } },
          { id: 'g', catalogVersion: v, type: 'variant', parentId: 'v-of-nothing-but-a-product-id-of-wrong-type' },
        ]),
        400,
        'invalid_body',
      );
      assert.deepEqual(
        error.issues?.map((i) => i.path),
        ['[1].type', '[2].parentId', '[3].attributes.price', '[3].attributes.colour', '[4].id', '[5].parentId', '[6].parentId', '[7].attributes.price', '[8].parentId'],
      );
      assert.equal(error.field, '[1].type');
      assert.match(error.message, /^8 of 9 items are invalid; nothing was stored\./);
      assert.match(error.issues![2]!.message, /expected an integer/);
      assert.match(error.issues![3]!.message, /unknown attribute/);
      assert.deepEqual(await f.snapshot(), before);
      assert.equal(await f.service.getItem(T, E, v, 'ok'), undefined);
    } finally {
      await f.cleanup();
    }
  });

  it('refuses malformed bodies, mixed or unknown catalog versions, and batches over the limit', async () => {
    const f = await catalogFixture();
    try {
      const v = await productCatalog(f.service);
      await refused(f.api.items.load(T, E, { id: 'x' }), 400, 'invalid_body');
      await refused(f.api.items.load(T, E, []), 400, 'invalid_body');
      const shape = await refused(f.api.items.load(T, E, [{ id: 'x', catalogVersion: v, type: 'product' }, { id: 7, catalogVersion: v, type: 'product' }]), 400, 'invalid_body');
      assert.equal(shape.field, '[1].id');
      const mixed = await refused(f.api.items.load(T, E, [{ id: 'x', catalogVersion: v, type: 'product' }, { id: 'y', catalogVersion: 2, type: 'product' }]), 400, 'invalid_body');
      assert.equal(mixed.field, '[1].catalogVersion');
      const unknown = await refused(f.api.items.load(T, E, [{ id: 'x', catalogVersion: 5, type: 'product' }]), 400, 'invalid_body');
      assert.equal(unknown.field, '[0].catalogVersion');
      const big = Array.from({ length: 10_001 }, (_, i) => ({ id: `p${i}`, catalogVersion: v, type: 'product' }));
      const limit = await refused(f.api.items.load(T, E, big), 400, 'limit_exceeded');
      assert.match(limit.message, /At most 10000 items per call \(got 10001\)/);
      assert.deepEqual([...(await f.snapshot()).keys()].filter((k) => k.includes('/items-')), []);
    } finally {
      await f.cleanup();
    }
  });

  it('patches only the given attributes; null removes one; id, type and parentId must match the stored item', async () => {
    const f = await catalogFixture();
    try {
      const v = await productCatalog(f.service);
      await f.api.items.load(T, E, [
        { id: 'p1', catalogVersion: v, type: 'product', attributes: { title: 'Shoe', price: 10, brand_name: 'Acme' } },
        { id: 'v1', catalogVersion: v, type: 'variant', parentId: 'p1', attributes: { size: 'M', stock: 3 } },
      ]);
      f.clock.advance(60_000);
      await f.api.items.patch(T, E, [
        { id: 'p1', catalogVersion: v, type: 'product', attributes: { price: 12, brand_name: null } },
        { id: 'v1', catalogVersion: v, type: 'variant', parentId: 'p1', attributes: { stock: 2 } },
      ]);
      const p1 = await f.service.getItem(T, E, v, 'p1');
      assert.deepEqual(p1?.attributes, { title: 'Shoe', price: 12 });
      assert.equal(p1?.updated, '2026-11-21T12:01:00.000Z');
      assert.deepEqual((await f.service.getItem(T, E, v, 'v1'))?.attributes, { size: 'M', stock: 2 });
      const before = await f.snapshot();
      const error = await refused(
        f.api.items.patch(T, E, [
          { id: 'p1', catalogVersion: v, type: 'product', attributes: { price: 13 } },
          { id: 'nope', catalogVersion: v, type: 'product', attributes: {} },
          { id: 'v1', catalogVersion: v, type: 'product', attributes: {} },
          { id: 'v1', catalogVersion: v, type: 'variant', attributes: {} },
          { id: 'p1', catalogVersion: v, type: 'product', attributes: { price: 'cheap' } },
        ]),
        400,
        'invalid_body',
      );
      assert.deepEqual(error.issues?.map((i) => i.path), ['[1].id', '[2].type', '[3].id', '[4].id']);
      const parent = await refused(f.api.items.patch(T, E, [{ id: 'v1', catalogVersion: v, type: 'variant', attributes: { stock: 'x' } }]), 400, 'invalid_body');
      assert.deepEqual(parent.issues?.map((i) => i.path), ['[0].parentId']);
      assert.deepEqual(await f.snapshot(), before);
    } finally {
      await f.cleanup();
    }
  });

  it('treats __proto__ as an ordinary id and refuses it as an undeclared attribute', async () => {
    const f = await catalogFixture();
    try {
      const v = await productCatalog(f.service);
      const error = await refused(f.api.items.load(T, E, JSON.parse(`[{"id":"x","catalogVersion":${v},"type":"product","attributes":{"__proto__":{"polluted":1}}}]`)), 400, 'invalid_body');
      assert.equal(error.field, '[0].attributes.__proto__');
      await f.api.items.load(T, E, [{ id: '__proto__', catalogVersion: v, type: 'product', attributes: { title: 'Odd id' } }]);
      assert.equal((await f.service.getItem(T, E, v, '__proto__'))?.attributes.title, 'Odd id');
      assert.equal(await f.service.getItem(T, E, v, 'constructor'), undefined);
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
    } finally {
      await f.cleanup();
    }
  });

  it('loads 20,000 items in batches of 5,000 in reasonable time, writing only sharded files', async () => {
    const f = await catalogFixture();
    try {
      const v = await productCatalog(f.service);
      const started = performance.now();
      for (let batch = 0; batch < 4; batch++) {
        const items = Array.from({ length: 5_000 }, (_, i) => {
          const n = batch * 5_000 + i;
          return n % 2 === 0
            ? { id: `p${n}`, catalogVersion: v, type: 'product', attributes: { title: `Product ${n}`, price: n, brand_name: `Brand ${n % 50}` } }
            : { id: `v${n}`, catalogVersion: v, type: 'variant', parentId: `p${n - 1}`, attributes: { size: 'M', stock: n % 7 } };
        });
        await f.api.items.load(T, E, items);
      }
      const seconds = (performance.now() - started) / 1000;
      assert.equal(await f.service.countItems(T, E, v), 20_000);
      let iterated = 0;
      for await (const item of f.service.iterateItems(T, E, v)) if (item.parentId !== undefined) iterated++;
      assert.equal(iterated, 10_000);
      assert.ok(seconds < 30, `took ${seconds.toFixed(1)} s`);
      const files = [...(await f.snapshot()).keys()].filter((k) => k.includes(`/catalog/${v}/items-`));
      assert.equal(files.length, SHARD_COUNT);
      const done = await (await f.service.catalogs.promote(T, E, v)).activation;
      assert.equal(done.state, 'active');
    } finally {
      await f.cleanup();
    }
  });
});
