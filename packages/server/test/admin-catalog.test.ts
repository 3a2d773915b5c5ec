/** The admin API's catalog reads for the console: the last imports with what failed and why, and a paged, searchable item list. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../src/platform/clock.js';
import { adminConfig, adminToken } from './support/admin-fixture.js';
import { loadCatalog } from './support/recommendation-fixture.js';
import { call, startTestServer, type TestServer } from './support/test-server.js';

describe('admin API: catalog imports and items', () => {
  let server: TestServer;
  const clock = new ManualClock();
  let editor: Record<string, string>;
  let otherTenant: Record<string, string>;
  const api = (path: string, headers: Record<string, string> = editor) => call(`${server.url}/admin${path}${path.includes('?') ? '&' : '?'}environment=prod`, { headers });
  const importItems = (items: unknown[], method = 'POST') =>
    call(`${server.url}/catalog/items?tenant=tenant-a&environment=prod`, { method, headers: editor, json: items });

  before(async () => {
    server = await startTestServer({ config: await adminConfig(), clock });
    await loadCatalog(server.server);
    clock.advance(1000);
    editor = { authorization: `Bearer ${await adminToken(server, clock.now(), 'client-a')}` };
    clock.advance(1000);
    otherTenant = { authorization: `Bearer ${await adminToken(server, clock.now(), 'client-b')}` };
  });
  after(() => server.cleanup());

  it('pages through the active catalog by id, each item with its title, photo and price', async () => {
    const first = await api('/items?limit=3');
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.total, 8);
    assert.deepEqual(first.body.items.map((i: { id: string }) => i.id), ['bag-1', 'bag-2', 'hat-1']);
    assert.deepEqual(first.body.items[0], { id: 'bag-1', type: 'product', title: 'Title bag-1', photo: 'https://img.example/bag-1.png', price: 50 });
    const third = await api('/items?limit=3&offset=6');
    assert.deepEqual(third.body.items.map((i: { id: string }) => i.id), ['sock-1', 'sock-2']);
  });

  it('finds items by words of their title or id', async () => {
    const byTitle = await api(`/items?q=${encodeURIComponent('title SHOE')}`);
    assert.deepEqual(byTitle.body.items.map((i: { id: string }) => i.id), ['shoe-1', 'shoe-2', 'shoe-3']);
    assert.equal(byTitle.body.total, 3);
    const byId = await api('/items?q=sock-2');
    assert.deepEqual(byId.body.items.map((i: { id: string }) => i.id), ['sock-2']);
    assert.equal((await api('/items?q=nothing-like-it')).body.total, 0);
  });

  it('refuses bad parameters with a 400 naming the parameter, and an unknown version with a 404 naming it', async () => {
    for (const [query, field] of [['limit=0', 'query.limit'], ['limit=101', 'query.limit'], ['offset=-1', 'query.offset'], ['offset=x', 'query.offset'], [`q=${'a'.repeat(201)}`, 'query.q'], ['catalogVersion=first', 'query.catalogVersion'], ['q=a&q=b', 'query.q']] as const) {
      const res = await api(`/items?${query}`);
      assert.equal(res.status, 400, query);
      assert.equal(res.body.error.field, field, query);
    }
    const missing = await api('/items?catalogVersion=99');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.field, 'query.catalogVersion');
    assert.equal((await api('/catalog-imports?limit=21')).body.error.field, 'query.limit');
  });

  it('records the last imports: a refused batch with each failing item and why, then a stored one', async () => {
    assert.deepEqual((await api('/catalog-imports')).body, { imports: [] });
    const version = (await api('/catalogs')).body.catalogs[0].version as number;
    const refused = await importItems([
      { id: 'cap-1', catalogVersion: version, type: 'product', attributes: { title: 'Cap', price: 15 } },
      { id: 'cap-2', catalogVersion: version, type: 'product', attributes: { title: 'Cap two', price: 'cheap' } },
    ]);
    assert.equal(refused.status, 400);
    clock.advance(60_000);
    const shape = await importItems([{ catalogVersion: version, type: 'product' }]);
    assert.equal(shape.status, 400);
    clock.advance(60_000);
    const stored = await importItems([{ id: 'cap-1', catalogVersion: version, type: 'product', attributes: { title: 'Cap', price: 15 } }]);
    assert.equal(stored.status, 200, JSON.stringify(stored.body));

    const { imports } = (await api('/catalog-imports')).body;
    assert.equal(imports.length, 3);
    assert.deepEqual({ ...imports[0], at: undefined }, { at: undefined, mode: 'load', catalogVersion: version, received: 1, stored: 1, issues: [], issueCount: 0 });
    assert.equal(imports[1].issues[0].path, '[0].id', 'a batch refused for its shape is recorded too');
    const bad = imports[2];
    assert.equal(bad.stored, 0);
    assert.equal(bad.received, 2);
    assert.match(bad.error, /1 of 2 items is invalid; nothing was stored/);
    assert.deepEqual(bad.issues.map((i: { path: string }) => i.path), ['[1].attributes.price']);
    assert.ok(Date.parse(imports[0].at) > Date.parse(bad.at));
    // The stored item is listed.
    assert.equal((await api('/items?q=cap')).body.total, 1);
    // Another tenant sees none of it.
    assert.deepEqual((await api('/catalog-imports', otherTenant)).body.imports, []);
    assert.equal((await call(`${server.url}/admin/catalog-imports?tenant=tenant-a&environment=prod`, { headers: otherTenant })).status, 403);
  });
});
