/** The older item API and the item-context API over HTTP, with real master-realm tokens. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../src/platform/clock.js';
import { bearer, bearerTokens } from './support/bearer-tokens.js';
import { call, startTestServer, type TestServer } from './support/test-server.js';

type Response = Awaited<ReturnType<typeof call>>;

function errorOf(res: Response): Record<string, unknown> {
  const { requestId, ...rest } = res.body.error as Record<string, unknown>;
  assert.equal(typeof requestId, 'string');
  return rest;
}

describe('older item API and item contexts', () => {
  const clock = new ManualClock();
  let server: TestServer;
  const tokenFor = bearerTokens(() => server, clock);
  let token: string;
  let storeFr: Record<string, unknown>;

  before(async () => {
    server = await startTestServer({ clock });
    token = await tokenFor('client-a-legacy');
  });
  after(() => server.cleanup());

  const url = (path: string) => `${server.url}${path}`;
  const get = (path: string) => call(url(path), bearer(token));
  const send = (method: string, path: string, json: unknown) => call(url(path), { method, json, ...bearer(token) });
  const actions = (json: unknown) => send('POST', '/items', json);
  /** The older API has no read endpoint, so stored items are checked through the service the routes write to. */
  const stored = (id: string) => server.server.deps.services.catalog.getLegacyItem('tenant-a', 'prod', id);

  describe('item contexts', () => {
    it('creates a context, then lists it and finds it by id and by name', async () => {
      const created = await send('PUT', '/items/contexts', { name: 'store-fr', tenant_ids: ['tenant-a'] });
      assert.equal(created.status, 201);
      storeFr = created.body;
      const now = new Date(clock.now()).toISOString();
      assert.match(String(storeFr.id), /^[0-9a-f-]{36}$/);
      assert.deepEqual(storeFr, { id: storeFr.id, name: 'store-fr', tenant_ids: ['tenant-a'], createdAt: now, updatedAt: now });

      const list = await get('/items/contexts/tenant/tenant-a');
      assert.equal(list.status, 200);
      assert.deepEqual(list.body.map((c: { name: string }) => c.name), ['default', 'store-fr']);
      assert.deepEqual((await get(`/items/contexts/${String(storeFr.id)}`)).body, storeFr);
      const byName = await get('/items/contexts/tenant/tenant-a/name/store-fr');
      assert.deepEqual([byName.status, byName.body], [200, storeFr]);
      assert.equal((await get('/items/contexts/tenant/tenant-a/name/default')).body.id, 'default');
    });

    it('answers 405 for DELETE on the by-name path: a read never deletes', async () => {
      const res = await call(url('/items/contexts/tenant/tenant-a/name/store-fr'), { method: 'DELETE', ...bearer(token) });
      assert.equal(res.status, 405);
      assert.equal(res.body.error.code, 'method_not_allowed');
      assert.equal(res.headers.get('allow'), 'HEAD, GET');
      assert.equal((await get('/items/contexts/tenant/tenant-a/name/store-fr')).status, 200);
    });

    it('answers 404 for a missing context and refuses a duplicate name and a foreign tenant list', async () => {
      const missing = await get('/items/contexts/tenant/tenant-a/name/store-de');
      assert.equal(missing.status, 404);
      assert.deepEqual(errorOf(missing), { status: 404, code: 'not_found', message: 'No item context named "store-de" for tenant "tenant-a".', field: 'contextName' });
      const duplicate = await send('PUT', '/items/contexts', { name: 'store-fr', tenant_ids: ['tenant-a'] });
      assert.equal(duplicate.status, 409);
      assert.equal(duplicate.body.error.message, 'A context named "store-fr" already exists for tenant "tenant-a".');
      const foreign = await send('PUT', '/items/contexts', { name: 'store-de', tenant_ids: ['tenant-b'] });
      assert.equal(foreign.status, 403);
      assert.deepEqual(errorOf(foreign), { status: 403, code: 'forbidden', message: 'tenant_ids must include the caller\'s tenant "tenant-a".', field: 'tenant_ids' });
      assert.deepEqual((await get('/items/contexts/tenant/tenant-a')).body.map((c: { name: string }) => c.name), ['default', 'store-fr']);
    });
  });

  describe('item actions', () => {
    it('applies create, patch, replace and delete in order, with ids in every form, answering {results}', async () => {
      const res = await actions([
        { action: 'create', id: 'sku-1', data: { title: 'Mug', price: 1299, tags: ['kitchen'], attributes: { colour: 'blue' } } },
        { action: 'create', id: 'store-fr#product#sku-2', data: { title: 'Tasse', l10n: { fr: { title: 'Tasse' } } } },
        { action: 'patch', id: 'tenant-a#0#default#product#sku-1', data: { price: 999, attributes: { size: 'L' } } },
        { action: 'create', id: { version: 1, context: 'store-fr', kind: 'content', id: 'guide' }, data: { title: 'Guide', url: '/guide' } },
        { action: 'create', id: 'content#sku-3', data: { title: 'Temp' } },
        { action: 'replace', id: '0#default#content#sku-3', data: { title: 'Kept' } },
        { action: 'delete', id: 'content#sku-3' },
      ]);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, {
        results: [
          { index: 0, action: 'create', id: 'tenant-a#0#default#product#sku-1', status: 'created' },
          { index: 1, action: 'create', id: 'tenant-a#0#store-fr#product#sku-2', status: 'created' },
          { index: 2, action: 'patch', id: 'tenant-a#0#default#product#sku-1', status: 'patched' },
          { index: 3, action: 'create', id: 'tenant-a#1#store-fr#content#guide', status: 'created' },
          { index: 4, action: 'create', id: 'tenant-a#0#default#content#sku-3', status: 'created' },
          { index: 5, action: 'replace', id: 'tenant-a#0#default#content#sku-3', status: 'replaced' },
          { index: 6, action: 'delete', id: 'tenant-a#0#default#content#sku-3', status: 'deleted' },
        ],
      });
      // The first configured environment of the tenant holds older-API items.
      const item = await stored('sku-1');
      assert.equal(item?.title, 'Mug');
      assert.equal(item?.price, 999);
      assert.deepEqual(item?.attributes, { colour: 'blue', size: 'L' });
      assert.equal(await server.server.deps.services.catalog.getLegacyItem('tenant-a', 'staging', 'sku-1'), undefined);
      assert.equal(await stored('content#sku-3'), undefined);
    });

    it('refuses a partly bad batch whole, naming every bad action and field', async () => {
      const before = await stored('sku-1');
      const res = await actions([
        { action: 'create', id: 'sku-4', data: { title: 'Fine' } },
        { action: 'patch', id: 'sku-1', data: { price: -1 } },
        { action: 'create', id: 'a#0#default#product#b#c', data: {} },
        { action: 'create', id: 'tenant-b#0#default#product#x', data: {} },
        { action: 'create', id: 'store-de#product#x', data: {} },
        { action: 'erase', id: 'sku-1' },
      ]);
      assert.equal(res.status, 400);
      assert.deepEqual(errorOf(res), {
        status: 400,
        code: 'invalid_body',
        message: '5 of 6 actions are invalid; nothing was applied. [1].data.price: Too small: expected number to be >=0',
        field: '[1].data.price',
        issues: [
          { path: '[1].data.price', message: 'Too small: expected number to be >=0' },
          { path: '[2].id', message: 'has 6 "#"-separated parts; at most 5 (TENANT#VERSION#CONTEXT#KIND#ID)' },
          { path: '[3].id', message: 'names tenant "tenant-b", but the caller\'s tenant is "tenant-a"' },
          { path: '[4].id', message: 'context "store-de" is not declared for tenant "tenant-a"; create it with PUT /items/contexts first' },
          { path: '[5].action', message: 'Invalid option: expected one of "create"|"replace"|"patch"|"delete"' },
        ],
      });
      assert.deepEqual(await stored('sku-1'), before);
      assert.equal(await stored('sku-4'), undefined);
    });

    it('refuses 501 actions with nothing applied, and takes 500', async () => {
      const many = (count: number, prefix: string) => Array.from({ length: count }, (_, i) => ({ action: 'create', id: `${prefix}-${i}`, data: { title: `Item ${i}` } }));
      const tooMany = await actions(many(501, 'bulk'));
      assert.equal(tooMany.status, 400);
      assert.deepEqual(errorOf(tooMany), {
        status: 400,
        code: 'limit_exceeded',
        message: 'At most 500 actions per call (got 501); nothing was applied. Split the batch.',
        field: '(body)',
      });
      assert.equal(await stored('bulk-0'), undefined);
      const exactly = await actions(many(500, 'bulk'));
      assert.equal(exactly.status, 200);
      assert.equal(exactly.body.results.length, 500);
      assert.equal((await stored('bulk-499'))?.title, 'Item 499');
    });

    it('refuses malformed JSON with 400', async () => {
      const malformed = await call(url('/items'), { method: 'POST', body: '[{"action":', ...bearer(token, { 'content-type': 'application/json' }) });
      assert.equal(malformed.status, 400);
      assert.equal(malformed.body.error.code, 'invalid_json');
    });
  });

  describe('contexts in use', () => {
    it('refuses to delete or rename a context while items use it, then allows both once they are gone', async () => {
      const id = String(storeFr.id);
      const refused = await call(url(`/items/contexts/${id}`), { method: 'DELETE', ...bearer(token) });
      assert.equal(refused.status, 409);
      assert.deepEqual(errorOf(refused), {
        status: 409,
        code: 'conflict',
        message: 'Item context "store-fr" cannot be deleted: 2 items of tenant "tenant-a" still use it. Delete them first.',
        field: 'itemContextId',
      });
      const rename = await send('POST', '/items/contexts', { id, name: 'store-france' });
      assert.equal(rename.status, 409);
      assert.deepEqual((await get(`/items/contexts/${id}`)).body, storeFr);

      const cleared = await actions([
        { action: 'delete', id: 'store-fr#product#sku-2' },
        { action: 'delete', id: '1#store-fr#content#guide' },
      ]);
      assert.equal(cleared.status, 200);
      const renamed = await send('POST', '/items/contexts', { id, name: 'store-france' });
      assert.equal(renamed.status, 200);
      assert.equal(renamed.body.name, 'store-france');
      const deleted = await call(url(`/items/contexts/${id}`), { method: 'DELETE', ...bearer(token) });
      assert.equal(deleted.status, 204);
      const gone = await get(`/items/contexts/${id}`);
      assert.equal(gone.status, 404);
      assert.deepEqual(errorOf(gone), { status: 404, code: 'not_found', message: `No item context "${id}" for tenant "tenant-a".`, field: 'itemContextId' });
    });
  });

  describe('tokens and tenants', () => {
    it('refuses a missing token and a tenant-realm token with 401 and WWW-Authenticate', async () => {
      const missing = await call(url('/items'), { method: 'POST', json: [] });
      assert.equal(missing.status, 401);
      assert.match(String(missing.headers.get('www-authenticate')), /^Bearer error="invalid_token"/);
      const tenantToken = await tokenFor('client-a');
      for (const [method, path] of [['POST', '/items'], ['GET', '/items/contexts/tenant/tenant-a'], ['GET', '/items/contexts/default']] as const) {
        const res = await call(url(path), { method, ...(method === 'POST' ? { json: [] } : {}), ...bearer(tenantToken) });
        assert.equal(res.status, 401, `${method} ${path}`);
        assert.deepEqual(errorOf(res), {
          status: 401,
          code: 'unauthorized',
          message: 'Bearer token refused: this API takes tokens of the master realm, and this one comes from realm "tenant-a".',
        });
        assert.equal(res.headers.get('www-authenticate'), 'Bearer error="invalid_token", error_description="this API takes tokens of the master realm, and this one comes from realm \'tenant-a\'"');
      }
    });

    it('refuses a tenant in the path or query that is not the token\'s with 403, and hides other tenants\' contexts', async () => {
      const other = await tokenFor('client-b-legacy');
      for (const path of ['/items/contexts/tenant/tenant-a', '/items/contexts/tenant/tenant-a/name/default']) {
        const res = await call(url(path), bearer(other));
        assert.equal(res.status, 403, path);
        assert.deepEqual(errorOf(res), { status: 403, code: 'forbidden', message: 'This token belongs to tenant "tenant-b" and cannot reach tenant "tenant-a".', field: 'tenant' });
      }
      const query = await call(url('/items?tenant=tenant-a'), { method: 'POST', json: [{ action: 'delete', id: 'sku-1' }], ...bearer(other) });
      assert.equal(query.status, 403);
      assert.notEqual(await stored('sku-1'), undefined);

      const created = await send('PUT', '/items/contexts', { name: 'store-it', tenant_ids: ['tenant-a'] });
      assert.equal(created.status, 201);
      const hidden = await call(url(`/items/contexts/${String(created.body.id)}`), bearer(other));
      assert.equal(hidden.status, 404);
      const own = await call(url('/items/contexts/tenant/tenant-b'), bearer(other));
      assert.deepEqual(own.body.map((c: { name: string }) => c.name), ['default']);
      // tenant-b's ids with tenant-b's default context land in tenant-b's data, not tenant-a's.
      const write = await call(url('/items'), { method: 'POST', json: [{ action: 'create', id: 'sku-1', data: { title: 'B' } }], ...bearer(other) });
      assert.equal(write.status, 200);
      assert.equal(write.body.results[0].id, 'tenant-b#0#default#product#sku-1');
      assert.equal((await stored('sku-1'))?.title, 'Mug');
    });
  });
});
