/** The older item API: every id form, action semantics, the 500-action limit, all-or-nothing batches, contexts, and the product view. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { catalogFixture, E, productCatalog, refused, T } from './catalog-fixture.js';
import { parseLegacyId } from '../../src/domains/catalog/legacy-id.js';
import { toProductView } from '../../src/domains/catalog/product-view.js';
import { ISO_639_1 } from '../../src/domains/catalog/iso-639-1.js';

describe('older item ids', () => {
  it('parses every form with the defaults version 0, context default, kind product', () => {
    const id = (version: number, context: string, kind: string, raw: string) => ({ ok: true, value: { version, context, kind, id: raw } });
    assert.deepEqual(parseLegacyId('sku-1', T), id(0, 'default', 'product', 'sku-1'));
    assert.deepEqual(parseLegacyId('content#sku-1', T), id(0, 'default', 'content', 'sku-1'));
    assert.deepEqual(parseLegacyId('store-fr#content#sku-1', T), id(0, 'store-fr', 'content', 'sku-1'));
    assert.deepEqual(parseLegacyId('3#store-fr#content#sku-1', T), id(3, 'store-fr', 'content', 'sku-1'));
    assert.deepEqual(parseLegacyId(`${T}#3#store-fr#content#sku-1`, T), id(3, 'store-fr', 'content', 'sku-1'));
    assert.deepEqual(parseLegacyId({ id: 'sku-1', kind: 'content' }, T), id(0, 'default', 'content', 'sku-1'));
    assert.deepEqual(parseLegacyId({ version: 2, context: 'x', kind: 'k', id: 'i' }, T), id(2, 'x', 'k', 'i'));
  });

  it('refuses extra parts, another tenant, bad versions, empty parts and unknown object keys', () => {
    const message = (raw: unknown) => {
      const parsed = parseLegacyId(raw, T);
      return parsed.ok ? 'ok' : parsed.message;
    };
    assert.match(message('a#1#c#k#i#extra'), /6 "#"-separated parts; at most 5/);
    assert.match(message('tenant-b#0#default#product#i'), /names tenant "tenant-b"/);
    assert.match(message('x#default#product#i'), /version "x" is not an integer/);
    assert.match(message('default##i'), /kind "" must be 1 to 256/);
    assert.match(message(''), /id "" must be/);
    assert.match(message({ id: 'i', store: 'x' }), /unknown key "store"/);
    assert.match(message({ id: 'a#b' }), /without "#"/);
    assert.match(message({ version: -1, id: 'i' }), /"version" must be an integer/);
    assert.match(message(42), /must be a string or an object/);
  });

  it('keeps the 184 two-letter ISO 639-1 codes', () => {
    assert.equal(ISO_639_1.size, 184);
    assert.ok(ISO_639_1.has('fr') && ISO_639_1.has('zu') && !ISO_639_1.has('xx'));
  });
});

describe('older item actions', () => {
  it('creates, replaces (dropping missing fields), patches (only given fields) and deletes', async () => {
    const f = await catalogFixture();
    try {
      const changes: string[] = [];
      f.service.onItemsChanged((change) => changes.push(`${change.scope.api}/${change.scope.version}:${change.upserted.map((i) => i.key).join(',')}|${change.removedKeys.join(',')}`));
      const created = await f.api.legacy.apply(T, E, [
        { action: 'create', id: 'sku-1', data: { title: 'Shoe', price: 4999, tags: ['shoes'], attributes: { colour: 'red', size: 42 }, l10n: { fr: { title: 'Chaussure' } } } },
        { action: 'create', id: { id: 'sku-2', kind: 'content' }, data: { title: 'Guide' } },
      ]);
      assert.deepEqual(created, [
        { index: 0, action: 'create', id: `${T}#0#default#product#sku-1`, status: 'created' },
        { index: 1, action: 'create', id: `${T}#0#default#content#sku-2`, status: 'created' },
      ]);
      await f.api.legacy.apply(T, E, [{ action: 'patch', id: 'product#sku-1', data: { price: 3999, attributes: { size: 43 } } }]);
      let item = await f.service.getLegacyItem(T, E, 'sku-1');
      assert.equal(item?.title, 'Shoe');
      assert.equal(item?.price, 3999);
      assert.deepEqual(item?.attributes, { colour: 'red', size: 43 });
      await f.api.legacy.apply(T, E, [{ action: 'replace', id: `${T}#0#default#product#sku-1`, data: { title: 'Boot', booster: -2 } }]);
      item = await f.service.getLegacyItem(T, E, 'sku-1');
      assert.deepEqual(
        { title: item?.title, price: item?.price, tags: item?.tags, attributes: item?.attributes, l10n: item?.l10n, booster: item?.booster },
        { title: 'Boot', price: undefined, tags: undefined, attributes: {}, l10n: undefined, booster: -2 },
      );
      const deleted = await f.api.legacy.apply(T, E, [{ action: 'delete', id: 'content#sku-2' }]);
      assert.equal(deleted[0]?.status, 'deleted');
      assert.equal(await f.service.getLegacyItem(T, E, 'content#sku-2'), undefined);
      assert.deepEqual(changes, [
        'legacy/0:default#product#sku-1,default#content#sku-2|',
        'legacy/0:default#product#sku-1|',
        'legacy/0:default#product#sku-1|',
        'legacy/0:|default#content#sku-2',
      ]);
    } finally {
      await f.cleanup();
    }
  });

  it('refuses a partly bad batch whole, naming each bad action, and applies nothing', async () => {
    const f = await catalogFixture();
    try {
      await f.api.legacy.apply(T, E, [{ action: 'create', id: 'kept', data: { title: 'Kept' } }]);
      const before = await f.snapshot();
      const error = await refused(
        f.api.legacy.apply(T, E, [
          { action: 'create', id: 'new-1', data: { title: 'Fine' } },
          { action: 'create', id: 'kept', data: { title: 'Again' } },
          { action: 'patch', id: 'missing', data: { title: 'x' } },
          { action: 'upsert', id: 'x', data: {} },
          { action: 'create', id: 'a#b#c#d#e#f', data: {} },
          { action: 'create', id: 'store-9#product#x', data: {} },
          { action: 'create', id: 'p', data: { price: 12.5, booster: 'high', url: 'javascript:alert(1)', l10n: { english: {} }, colour: 'red' } },
          { action: 'replace', id: 'kept' },
          { action: 'delete', id: 'new-1' },
        ]),
        400,
        'invalid_body',
      );
      // A create of an existing id (a retry) and a key outside the listed fields (`colour`) are accepted.
      assert.deepEqual(error.issues?.map((i) => i.path), [
        '[2].id',
        '[3].action',
        '[4].id',
        '[5].id',
        '[6].data.url',
        '[6].data.booster',
        '[6].data.price',
        '[6].data.l10n.english',
        '[7].data',
      ]);
      assert.equal(error.field, '[2].id');
      assert.match(error.issues![0]!.message, /no item .*; use create/);
      assert.match(error.message, /^6 of 9 actions are invalid; nothing was applied\./);
      assert.match(error.issues![3]!.message, /context "store-9" is not declared/);
      assert.deepEqual(await f.snapshot(), before);
    } finally {
      await f.cleanup();
    }
  });

  it('refuses more than 500 actions without applying any', async () => {
    const f = await catalogFixture();
    try {
      const actions = Array.from({ length: 501 }, (_, i) => ({ action: 'create', id: `sku-${i}`, data: { title: 't' } }));
      const error = await refused(f.api.legacy.apply(T, E, actions), 400, 'limit_exceeded');
      assert.match(error.message, /At most 500 actions per call \(got 501\)/);
      assert.deepEqual(await f.snapshot(), new Map());
      assert.equal((await f.api.legacy.apply(T, E, actions.slice(0, 500))).length, 500);
    } finally {
      await f.cleanup();
    }
  });
});

describe('item contexts', () => {
  it('has default for every tenant; creates, reads, renames, and deletes only when no item uses it', async () => {
    const f = await catalogFixture();
    try {
      assert.deepEqual((await f.service.contexts.list(T)).map((c) => c.name), ['default']);
      const store = await f.api.contexts.create(T, { name: 'store-fr', tenant_ids: [T, T] });
      assert.deepEqual((await f.service.contexts.get(T, store.id)).tenant_ids, [T]);
      assert.equal(await f.service.contexts.findByName('tenant-b', 'store-fr'), undefined, 'another tenant never sees it');
      await refused(f.api.contexts.create(T, { name: 'store-fr', tenant_ids: [T] }), 409, 'conflict');
      const forbidden = await refused(f.api.contexts.create(T, { name: 'other', tenant_ids: ['tenant-b'] }), 403, 'forbidden');
      assert.equal(forbidden.field, 'tenant_ids');
      // Another tenant, known or not, is refused alike: no context lands in its list, and no answer tells
      // which tenant ids exist.
      const known = await refused(f.api.contexts.create(T, { name: 'x', tenant_ids: [T, 'tenant-b'] }), 403, 'forbidden');
      const unknown = await refused(f.api.contexts.create(T, { name: 'x', tenant_ids: [T, 'nobody'] }), 403, 'forbidden');
      assert.equal(known.field, 'tenant_ids[1]');
      assert.equal(unknown.field, 'tenant_ids[1]');
      assert.equal(known.message.replace('tenant-b', ''), unknown.message.replace('nobody', ''));
      assert.deepEqual((await f.service.contexts.list('tenant-b')).map((c) => c.name), ['default']);
      assert.equal((await refused(f.api.contexts.create(T, { name: 'a#b', tenant_ids: [T] }), 400, 'invalid_body')).field, 'name');

      await f.api.legacy.apply(T, E, [{ action: 'create', id: 'store-fr#product#sku-1', data: { title: 'Chaussure' } }]);
      const inUse = await refused(f.service.contexts.delete(T, store.id), 409, 'conflict');
      assert.match(inUse.message, /1 item of tenant "tenant-a" still use it/);
      await refused(f.api.contexts.rename(T, { id: store.id, name: 'store-france' }), 409, 'conflict');
      await f.api.legacy.apply(T, E, [{ action: 'delete', id: 'store-fr#product#sku-1' }]);
      assert.equal((await f.api.contexts.rename(T, { id: store.id, name: 'store-france' })).name, 'store-france');
      await f.service.contexts.delete(T, store.id);
      await refused(f.service.contexts.get(T, store.id), 404, 'not_found');
      await refused(f.service.contexts.delete(T, 'default'), 409, 'conflict');
      const b = await f.api.contexts.create('tenant-b', { name: 'only-b', tenant_ids: ['tenant-b'] });
      await refused(f.service.contexts.get(T, b.id), 404, 'not_found');
    } finally {
      await f.cleanup();
    }
  });
});

describe('product view', () => {
  it('gives older-API and catalog items the same product shape', async () => {
    const f = await catalogFixture();
    try {
      await f.api.legacy.apply(T, E, [
        { action: 'create', id: 'sku-1', data: { title: 'Shoe', url: 'https://shop.example/shoe', image: '/img/shoe.png', price: 4999, booster: 2, recommended: false, tags: ['shoes'], attributes: { brand_name: 'Acme', nested: { a: 1 } } } },
      ]);
      const legacy = (await f.service.getLegacyItem(T, E, 'sku-1'))!;
      assert.deepEqual(toProductView(legacy, { tenantId: T, version: 0 }), {
        brand_name: 'Acme',
        version: 0,
        context: 'default',
        id: `${T}#0#default#product#sku-1`,
        _id: { original_id: 'sku-1', tenant: T, kind: 'product' },
        type: 'product',
        title: 'Shoe',
        url: 'https://shop.example/shoe',
        recommended: false,
        booster: 2,
        price: 4999,
        discount_rate: 0,
        metadata: { updated: '2026-11-21T12:00:00.000Z' },
        categories: ['shoes'],
        photo: '/img/shoe.png',
      });
      const v = await productCatalog(f.service);
      await f.api.items.load(T, E, [{ id: 'p1', catalogVersion: v, type: 'product', attributes: { title: 'Boot', price: 100, brand_name: 'Acme' } }]);
      const view = toProductView((await f.service.getItem(T, E, v, 'p1'))!, { tenantId: T, version: v });
      assert.equal(view.id, `${T}#${v}#default#product#p1`);
      assert.deepEqual([view.title, view.price, view.brand_name, view.recommended, view.url, view.photo], ['Boot', 100, 'Acme', true, '', '']);
    } finally {
      await f.cleanup();
    }
  });
});
