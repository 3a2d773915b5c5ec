/** The catalog API over HTTP: a real server, real tokens from the token endpoint, exact statuses and error bodies. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../src/platform/clock.js';
import { bearer, bearerTokens } from './support/bearer-tokens.js';
import { call, startTestServer, testConfig, type TestServer } from './support/test-server.js';

const BODY_LIMIT = 16 * 1024;
const CATALOG_BODY_LIMIT = 256 * 1024;

type Response = Awaited<ReturnType<typeof call>>;

/** The error body without its request id, which differs on every call. */
function errorOf(res: Response): Record<string, unknown> {
  const { requestId, ...rest } = res.body.error as Record<string, unknown>;
  assert.equal(typeof requestId, 'string');
  return rest;
}

const PRODUCT_SCHEMA = {
  name: 'product',
  attributes: [
    { name: 'title', type: 'TEXT' },
    { name: 'price', type: 'INTEGER' },
  ],
  nestedItemSchemas: [{ name: 'variant', attributes: [{ name: 'size', type: 'TEXT' }] }],
};

describe('catalog API', () => {
  const clock = new ManualClock();
  let server: TestServer;
  const tokenFor = bearerTokens(() => server, clock);
  let token: string;

  before(async () => {
    server = await startTestServer({ clock, config: testConfig({ limits: { bodyBytes: BODY_LIMIT, catalogBodyBytes: CATALOG_BODY_LIMIT } }) });
    token = await tokenFor('client-a');
  });
  after(() => server.cleanup());

  function url(path: string, query = 'tenant=tenant-a&environment=prod'): string {
    return `${server.url}/catalog${path}${query === '' ? '' : `${path.includes('?') ? '&' : '?'}${query}`}`;
  }
  const get = (path: string) => call(url(path), bearer(token));
  const send = (method: string, path: string, json: unknown) => call(url(path), { method, json, ...bearer(token) });

  async function waitUntilActive(version: number): Promise<Record<string, unknown>> {
    for (let i = 0; i < 250; i++) {
      const res = await get(`/catalogs/${version}`);
      assert.equal(res.status, 200);
      if (res.body.state !== 'building') return res.body;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`catalog ${version} never left "building"`);
  }

  describe('the whole flow', () => {
    it('creates a schema, a catalog, loads items with variants, promotes it and serves it as active', async () => {
      const schema = await send('POST', '/item-schemas', PRODUCT_SCHEMA);
      assert.equal(schema.status, 201);
      assert.deepEqual(schema.body, { ...PRODUCT_SCHEMA, version: 1, createdAt: new Date(clock.now()).toISOString() });
      assert.equal(schema.headers.get('cache-control'), 'no-store');

      const schemas = await get('/item-schemas');
      assert.equal(schemas.status, 200);
      assert.deepEqual(schemas.body, { schemas: [schema.body] });

      const created = await send('POST', '/catalogs', { catalogItemSchemas: [{ name: 'product', version: 1 }] });
      assert.equal(created.status, 201);
      assert.deepEqual(created.body, {
        version: 1,
        state: 'inactive',
        catalogItemSchemas: [{ name: 'product', version: 1 }],
        createdAt: new Date(clock.now()).toISOString(),
        activatedAt: null,
      });

      const noneActive = await get('/catalogs/active');
      assert.equal(noneActive.status, 404);
      assert.deepEqual(errorOf(noneActive), {
        status: 404,
        code: 'not_found',
        message: 'No catalog is active yet for this tenant and environment: promote one with POST /catalogs/promote/{version}.',
      });

      const loaded = await send('POST', '/items', [
        { id: 'p1', catalogVersion: 1, type: 'product', attributes: { title: 'Shoe', price: 4999 } },
        { id: 'p1-m', catalogVersion: 1, type: 'variant', parentId: 'p1', attributes: { size: 'M' } },
        { id: 'p2', catalogVersion: 1, type: 'product', attributes: { title: 'Sock' } },
      ]);
      assert.equal(loaded.status, 200);
      assert.deepEqual(loaded.body, { catalogVersion: 1, count: 3 });

      const variant = await get('/items/p1-m?catalogVersion=1');
      assert.equal(variant.status, 200);
      assert.deepEqual(variant.body, {
        id: 'p1-m',
        catalogVersion: 1,
        type: 'variant',
        parentId: 'p1',
        attributes: { size: 'M' },
        updated: new Date(clock.now()).toISOString(),
      });

      const promoted = await call(url('/catalogs/promote/1'), { method: 'POST', ...bearer(token) });
      assert.equal(promoted.status, 202);
      assert.equal(promoted.body.version, 1);
      assert.equal(promoted.body.state, 'building');

      const done = await waitUntilActive(1);
      assert.equal(done.state, 'active');
      const active = await get('/catalogs/active');
      assert.equal(active.status, 200);
      assert.deepEqual(active.body, { ...created.body, state: 'active', activatedAt: new Date(clock.now()).toISOString() });

      // Without catalogVersion, an item is read from the active catalog.
      const fromActive = await get('/items/p1');
      assert.equal(fromActive.status, 200);
      assert.deepEqual(fromActive.body.attributes, { title: 'Shoe', price: 4999 });

      const again = await call(url('/catalogs/promote/1'), { method: 'POST', ...bearer(token) });
      assert.equal(again.status, 200);
      assert.equal(again.body.state, 'active');
    });

    it('patches only the given attributes and removes those set to null', async () => {
      const patched = await send('PATCH', '/items', [{ id: 'p1', catalogVersion: 1, type: 'product', attributes: { price: 3999, title: null } }]);
      assert.equal(patched.status, 200);
      assert.deepEqual(patched.body, { catalogVersion: 1, count: 1 });
      assert.deepEqual((await get('/items/p1?catalogVersion=1')).body.attributes, { price: 3999 });

      const wrongParent = await send('PATCH', '/items', [{ id: 'p1-m', catalogVersion: 1, type: 'variant', attributes: { size: 'L' } }]);
      assert.equal(wrongParent.status, 400);
      assert.deepEqual(errorOf(wrongParent), {
        status: 400,
        code: 'invalid_body',
        message: '1 of 1 items is invalid; nothing was stored. [0].parentId: item "p1-m" has parent "p1"',
        field: '[0].parentId',
        issues: [{ path: '[0].parentId', message: 'item "p1-m" has parent "p1"' }],
      });
      assert.deepEqual((await get('/items/p1-m?catalogVersion=1')).body.attributes, { size: 'M' });
    });

    it('lists catalogs, refuses a third one naming the inactive one to delete, and refuses to delete the active one', async () => {
      const second = await send('POST', '/catalogs', { catalogItemSchemas: [{ name: 'product', version: 1 }] });
      assert.equal(second.status, 201);
      assert.equal(second.body.version, 2);

      const third = await send('POST', '/catalogs', { catalogItemSchemas: [{ name: 'product', version: 1 }] });
      assert.equal(third.status, 409);
      assert.deepEqual(errorOf(third), {
        status: 409,
        code: 'limit_exceeded',
        message: 'At most 2 catalogs are held at once: delete inactive catalog version 2 (DELETE /catalogs/2) first.',
      });

      const list = await get('/catalogs');
      assert.equal(list.status, 200);
      assert.deepEqual(list.body.catalogs.map((c: { version: number; state: string }) => [c.version, c.state]), [[1, 'active'], [2, 'inactive']]);

      const deleteActive = await call(url('/catalogs/1'), { method: 'DELETE', ...bearer(token) });
      assert.equal(deleteActive.status, 409);
      assert.deepEqual(errorOf(deleteActive), {
        status: 409,
        code: 'conflict',
        message: 'Catalog version 1 is active; only an inactive catalog can be deleted (promote another version first).',
        field: 'version',
      });
      assert.equal((await get('/catalogs/active')).body.version, 1);
      assert.equal((await get('/items/p1?catalogVersion=1')).status, 200);

      const deleted = await call(url('/catalogs/2'), { method: 'DELETE', ...bearer(token) });
      assert.equal(deleted.status, 204);
      assert.equal(deleted.body, undefined);
      assert.deepEqual((await get('/catalogs')).body.catalogs.map((c: { version: number }) => c.version), [1]);
    });

    it('answers 404 for an unknown catalog version and 400 for one that is not a positive integer', async () => {
      const expected404 = {
        status: 404,
        code: 'not_found',
        message: 'No catalog version 2 exists for this tenant and environment.',
        field: 'version',
      };
      for (const [method, path] of [['GET', '/catalogs/2'], ['DELETE', '/catalogs/2'], ['POST', '/catalogs/promote/2']] as const) {
        const res = await call(url(path), { method, ...bearer(token) });
        assert.equal(res.status, 404, `${method} ${path}`);
        assert.deepEqual(errorOf(res), expected404, `${method} ${path}`);
      }
      const item = await get('/items/p1?catalogVersion=2');
      assert.equal(item.status, 404);
      assert.equal(item.body.error.field, 'query.catalogVersion');
      const missing = await get('/items/nope?catalogVersion=1');
      assert.equal(missing.status, 404);
      assert.deepEqual(errorOf(missing), { status: 404, code: 'not_found', message: 'No item "nope" in catalog version 1.', field: 'id' });

      for (const bad of ['abc', '0', '-1', '1.5']) {
        const res = await get(`/catalogs/${bad}`);
        assert.equal(res.status, 400, bad);
        assert.deepEqual(errorOf(res), { status: 400, code: 'invalid_parameter', message: `version must be a positive integer, not "${bad}".`, field: 'version' });
      }
    });
  });

  describe('refused writes', () => {
    async function storedState(): Promise<unknown> {
      return {
        p1: (await get('/items/p1?catalogVersion=1')).body,
        p1m: (await get('/items/p1-m?catalogVersion=1')).body,
        p2: (await get('/items/p2?catalogVersion=1')).body,
        p9: (await get('/items/p9?catalogVersion=1')).status,
        schemas: (await get('/item-schemas')).body,
        catalogs: (await get('/catalogs')).body,
      };
    }

    it('refuses a batch with wrong types, naming every bad item and field, and stores none of it', async () => {
      const before = await storedState();
      const res = await send('POST', '/items', [
        { id: 'p9', catalogVersion: 1, type: 'product', attributes: { title: 'Fine' } },
        { id: 'p2', catalogVersion: 1, type: 'product', attributes: { title: 5, price: '12' } },
        { id: 'p9-s', catalogVersion: 1, type: 'variant', parentId: 'nope', attributes: { colour: 'red' } },
        { id: 'x', catalogVersion: 1, type: 'gadget' },
      ]);
      assert.equal(res.status, 400);
      assert.deepEqual(errorOf(res), {
        status: 400,
        code: 'invalid_body',
        message: '3 of 4 items are invalid; nothing was stored. [1].attributes.title: expected a string (TEXT attribute)',
        field: '[1].attributes.title',
        issues: [
          { path: '[1].attributes.title', message: 'expected a string (TEXT attribute)' },
          { path: '[1].attributes.price', message: 'expected an integer (INTEGER attribute)' },
          { path: '[2].attributes.colour', message: 'unknown attribute for type "variant" (declared: size)' },
          { path: '[2].parentId', message: 'no item "nope" in this batch or this catalog' },
          { path: '[3].type', message: 'unknown type "gadget"; this catalog\'s types are product, variant' },
        ],
      });
      assert.deepEqual(await storedState(), before);
    });

    it('refuses duplicate ids, an unknown catalog version and a body that is not an array', async () => {
      const before = await storedState();
      const duplicate = await send('POST', '/items', [
        { id: 'p9', catalogVersion: 1, type: 'product' },
        { id: 'p9', catalogVersion: 1, type: 'product' },
      ]);
      assert.equal(duplicate.status, 400);
      assert.deepEqual(errorOf(duplicate).issues, [{ path: '[1].id', message: 'duplicate id "p9" (also at [0])' }]);

      const unknownVersion = await send('POST', '/items', [{ id: 'p9', catalogVersion: 7, type: 'product' }]);
      assert.equal(unknownVersion.status, 400);
      assert.deepEqual(errorOf(unknownVersion), {
        status: 400,
        code: 'invalid_body',
        message: '1 of 1 items is invalid; nothing was stored. [0].catalogVersion: no catalog version 7 exists for this tenant and environment',
        field: '[0].catalogVersion',
        issues: [{ path: '[0].catalogVersion', message: 'no catalog version 7 exists for this tenant and environment' }],
      });

      const notArray = await send('POST', '/items', { id: 'p9' });
      assert.equal(notArray.status, 400);
      assert.deepEqual(errorOf(notArray), { status: 400, code: 'invalid_body', message: 'The body must be an array of catalog items.', field: '(body)' });
      assert.deepEqual(await storedState(), before);
    });

    it('refuses a schema with an unknown attribute type, listing the allowed ones', async () => {
      const before = await storedState();
      const res = await send('POST', '/item-schemas', { name: 'product', attributes: [{ name: 'weight', type: 'FLOAT' }] });
      assert.equal(res.status, 400);
      assert.deepEqual(errorOf(res), {
        status: 400,
        code: 'invalid_body',
        message: 'attributes[0].type: unknown attribute type; allowed types are TEXT, INTEGER',
        field: 'attributes[0].type',
        issues: [{ path: 'attributes[0].type', message: 'unknown attribute type; allowed types are TEXT, INTEGER' }],
      });
      assert.deepEqual(await storedState(), before);
    });

    it('refuses malformed JSON (400), a body over the limit (413) and a body that is not JSON (415)', async () => {
      const before = await storedState();
      const malformed = await call(url('/items'), { method: 'POST', body: '[{"id": "p9",', ...bearer(token, { 'content-type': 'application/json' }) });
      assert.equal(malformed.status, 400);
      assert.equal(malformed.body.error.code, 'invalid_json');
      assert.match(malformed.body.error.message, /^The request body is not valid JSON: /);

      // Item loads take the catalog limit; every other body the general one.
      const bigItems = Array.from({ length: 3000 }, (_, i) => ({ id: `big-${i}`, catalogVersion: 1, type: 'product', attributes: { title: 'x'.repeat(80) } }));
      const tooLarge = await send('POST', '/items', bigItems);
      assert.equal(tooLarge.status, 413);
      assert.deepEqual(errorOf(tooLarge), { status: 413, code: 'body_too_large', message: `The request body is larger than the limit of ${CATALOG_BODY_LIMIT} bytes.` });

      const bigSchema = { name: 'huge', attributes: Array.from({ length: 450 }, (_, i) => ({ name: `long-attribute-name-${i}`, type: 'TEXT' })) };
      assert.ok(JSON.stringify(bigSchema).length > BODY_LIMIT);
      const schemaTooLarge = await send('POST', '/item-schemas', bigSchema);
      assert.equal(schemaTooLarge.status, 413);
      assert.equal(schemaTooLarge.body.error.message, `The request body is larger than the limit of ${BODY_LIMIT} bytes.`);

      // A batch larger than the general limit still loads: only the catalog limit applies to items.
      const midItems = Array.from({ length: 300 }, (_, i) => ({ id: `mid-${i}`, catalogVersion: 1, type: 'product', attributes: { title: 'y'.repeat(40) } }));
      assert.ok(JSON.stringify(midItems).length > BODY_LIMIT);
      const catalogTwo = await send('POST', '/catalogs', { catalogItemSchemas: [{ name: 'product', version: 1 }] });
      assert.equal(catalogTwo.status, 201);
      const mid = await send('POST', '/items', midItems.map((item) => ({ ...item, catalogVersion: catalogTwo.body.version })));
      assert.deepEqual([mid.status, mid.body], [200, { catalogVersion: catalogTwo.body.version, count: 300 }]);
      assert.equal((await call(url(`/catalogs/${catalogTwo.body.version}`), { method: 'DELETE', ...bearer(token) })).status, 204);

      const text = await call(url('/items'), { method: 'POST', body: '[]', ...bearer(token, { 'content-type': 'text/plain' }) });
      assert.equal(text.status, 415);
      assert.equal(text.body.error.code, 'unsupported_media_type');
      assert.deepEqual(await storedState(), before);
    });
  });

  describe('tokens and tenants', () => {
    const unauthorized = (res: Response, description: string) => {
      assert.equal(res.status, 401);
      assert.deepEqual(errorOf(res), { status: 401, code: 'unauthorized', message: `Bearer token refused: ${description}.` });
      assert.equal(res.headers.get('www-authenticate'), `Bearer error="invalid_token", error_description="${description.replace(/"/g, "'")}"`);
    };

    it('refuses a missing token with 401 and WWW-Authenticate, before looking at the body', async () => {
      unauthorized(await call(url('/catalogs')), 'send "Authorization: Bearer <access token>"; get a token from the token endpoint');
      unauthorized(await call(url('/items'), { method: 'POST', body: 'not json', headers: { 'content-type': 'application/json' } }), 'send "Authorization: Bearer <access token>"; get a token from the token endpoint');
    });

    it('refuses an expired token with 401', async () => {
      const shortLived = await tokenFor('client-a');
      clock.advance(301_000);
      unauthorized(await call(url('/catalogs'), bearer(shortLived)), 'the token expired 1 s ago; get a new one from the token endpoint');
      token = await tokenFor('client-a');
      assert.equal((await get('/catalogs')).status, 200);
    });

    it('refuses a master-realm token with 401', async () => {
      const legacy = await tokenFor('client-a-legacy');
      unauthorized(
        await call(url('/catalogs'), bearer(legacy)),
        'this API takes tokens of the tenant\'s realm (/auth/realms/tenant-a), and this one comes from the master realm',
      );
    });

    it('refuses a tenant-b token on tenant-a with 403, on reads and writes, changing nothing', async () => {
      const other = await tokenFor('client-b');
      const message = 'This token belongs to tenant "tenant-b" and cannot reach tenant "tenant-a".';
      const read = await call(url('/catalogs'), bearer(other));
      assert.equal(read.status, 403);
      assert.deepEqual(errorOf(read), { status: 403, code: 'forbidden', message, field: 'tenant' });
      const write = await call(url('/catalogs/1'), { method: 'DELETE', ...bearer(other) });
      assert.equal(write.status, 403);
      const repeated = await call(url('/catalogs', 'tenant=tenant-b&tenant=tenant-a&environment=prod'), bearer(other));
      assert.equal(repeated.status, 403);
      assert.equal((await get('/catalogs/active')).body.version, 1);
      // tenant-b's own data is separate: it sees no catalog.
      const own = await call(url('/catalogs', 'tenant=tenant-b&environment=prod'), bearer(other));
      assert.deepEqual([own.status, own.body], [200, { catalogs: [] }]);
    });

    it('needs tenant and environment, and names an unknown one', async () => {
      const noEnvironment = await call(url('/catalogs', 'tenant=tenant-a'), bearer(token));
      assert.equal(noEnvironment.status, 400);
      assert.deepEqual(errorOf(noEnvironment), { status: 400, code: 'invalid_parameter', message: 'The "environment" query parameter is required.', field: 'environment' });
      const noTenant = await call(url('/catalogs', 'environment=prod'), bearer(token));
      assert.equal(noTenant.status, 400);
      assert.equal(noTenant.body.error.field, 'tenant');
      const unknown = await call(url('/catalogs', 'tenant=tenant-a&environment=qa'), bearer(token));
      assert.equal(unknown.status, 404);
      assert.deepEqual(errorOf(unknown), { status: 404, code: 'unknown_environment', message: 'Tenant "tenant-a" has no environment "qa".', field: 'environment' });
      const staging = await call(url('/catalogs', 'tenant=tenant-a&environment=staging'), bearer(token));
      assert.deepEqual([staging.status, staging.body], [200, { catalogs: [] }]);
    });
  });
});
