/** Behaviour every API shares: error shape, request ids, body limits, content types, CORS only on public APIs. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Router from '@koa/router';
import { jsonBody } from '../src/apis/http/body.js';
import type { ApiFactory } from '../src/apis/index.js';
import { call, startTestServer, type TestServer } from './support/test-server.js';

/** A public and a private echo API, built from the real middleware, to observe the shared behaviour (the public one two segments deep, since `/collect/:trackerKey` owns single segments). */
const echoApis: ApiFactory[] = [
  () => {
    const router = new Router();
    router.post('/echo/public-echo', jsonBody({ limit: 2048, textPlainAsJson: true }), (ctx) => {
      ctx.body = { received: ctx.request.body };
    });
    return { name: 'public-echo', mount: 'collect', router, public: true };
  },
  () => {
    const router = new Router();
    router.post('/private-echo', jsonBody({ limit: 2048 }), (ctx) => {
      ctx.body = { received: ctx.request.body };
    });
    router.get('/boom', () => {
      throw new Error('secret internal detail');
    });
    return { name: 'private-echo', mount: 'items', router, public: false };
  },
];

describe('common HTTP behaviour', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ extraApis: echoApis });
  });
  after(() => server.cleanup());

  it('answers the health endpoint', async () => {
    const res = await call(`${server.url}/health`);
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'ok');
    assert.equal(res.body.tenants, 2);
    assert.equal(res.headers.get('access-control-allow-origin'), null);
  });

  it('gives every response a request id, and keeps a safe one sent by the caller', async () => {
    const generated = await call(`${server.url}/health`);
    assert.match(generated.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
    const echoed = await call(`${server.url}/health`, { headers: { 'x-request-id': 'trace-42' } });
    assert.equal(echoed.headers.get('x-request-id'), 'trace-42');
    const unsafe = await call(`${server.url}/health`, { headers: { 'x-request-id': 'a b<script>' } });
    assert.notEqual(unsafe.headers.get('x-request-id'), 'a b<script>');
  });

  it('answers unknown paths and methods with the error shape', async () => {
    const missing = await call(`${server.url}/no/such/path`);
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.code, 'not_found');
    assert.equal(missing.body.error.status, 404);
    assert.equal(typeof missing.body.error.requestId, 'string');
    const wrongMethod = await call(`${server.url}/health`, { method: 'DELETE' });
    assert.equal(wrongMethod.status, 405);
    assert.equal(wrongMethod.body.error.code, 'method_not_allowed');
  });

  it('answers the same through the routers of every module: case of the path, wrong and unknown methods, paths no module has', async () => {
    // Each module's router is skipped for paths none of its routes start with (route-gate.ts): the
    // answers must be what trying every router gave.
    assert.equal((await call(`${server.url}/HEALTH`)).status, 200);
    const wrongMethod = await call(`${server.url}/search`, { method: 'PUT', json: {} });
    assert.equal(wrongMethod.status, 405);
    assert.match(wrongMethod.headers.get('allow') ?? '', /POST/);
    const unknownMethod = await call(`${server.url}/no/such/path`, { method: 'PROPFIND' });
    assert.equal(unknownMethod.status, 501);
    const collectKey = await call(`${server.url}/collect/echo/public-echo`, { method: 'DELETE' });
    assert.equal(collectKey.status, 405);
    assert.equal((await call(`${server.url}/%68ealth`)).status, 404);
  });

  it('mounts each API at its prefix', async () => {
    assert.equal((await call(`${server.url}/collect/echo/public-echo`, { json: { a: 1 } })).status, 200);
    assert.equal((await call(`${server.url}/catalog/private-echo`, { json: { a: 1 } })).status, 200);
    assert.equal((await call(`${server.url}/private-echo`, { json: { a: 1 } })).status, 404);
  });

  it('refuses malformed JSON with its position', async () => {
    const res = await call(`${server.url}/catalog/private-echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a": 1,,}' });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, 'invalid_json');
    assert.match(res.body.error.message, /position|column/i);
  });

  it('refuses an empty body, a wrong content type and a body over the limit', async () => {
    const empty = await call(`${server.url}/catalog/private-echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '' });
    assert.equal(empty.status, 400);
    const wrongType = await call(`${server.url}/catalog/private-echo`, { method: 'POST', headers: { 'content-type': 'text/xml' }, body: '<a/>' });
    assert.equal(wrongType.status, 415);
    assert.equal(wrongType.body.error.code, 'unsupported_media_type');
    assert.equal(wrongType.body.error.field, 'Content-Type');
    const big = await call(`${server.url}/catalog/private-echo`, { json: { text: 'x'.repeat(5000) } });
    assert.equal(big.status, 413);
    assert.equal(big.body.error.code, 'body_too_large');
  });

  it('accepts text/plain JSON (sendBeacon) only where the API allows it', async () => {
    const beacon = await call(`${server.url}/collect/echo/public-echo`, { method: 'POST', headers: { 'content-type': 'text/plain;charset=UTF-8' }, body: '{"a":1}' });
    assert.equal(beacon.status, 200);
    assert.deepEqual(beacon.body, { received: { a: 1 } });
    const privateBeacon = await call(`${server.url}/catalog/private-echo`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{"a":1}' });
    assert.equal(privateBeacon.status, 415);
  });

  it('sends CORS headers on public APIs, errors and preflights included, and none on private ones', async () => {
    const ok = await call(`${server.url}/collect/echo/public-echo`, { json: {}, headers: { origin: 'https://shop.example' } });
    assert.equal(ok.headers.get('access-control-allow-origin'), '*');
    assert.equal(ok.headers.get('access-control-allow-credentials'), null);
    const failed = await call(`${server.url}/collect/echo/public-echo`, { method: 'POST', headers: { 'content-type': 'application/json', origin: 'https://shop.example' }, body: '{' });
    assert.equal(failed.status, 400);
    assert.equal(failed.headers.get('access-control-allow-origin'), '*');
    const preflight = await fetch(`${server.url}/collect/echo/public-echo`, {
      method: 'OPTIONS',
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
    assert.match(preflight.headers.get('access-control-allow-methods') ?? '', /POST/);
    const privateCall = await call(`${server.url}/catalog/private-echo`, { json: {}, headers: { origin: 'https://shop.example' } });
    assert.equal(privateCall.headers.get('access-control-allow-origin'), null);
    const privatePreflight = await fetch(`${server.url}/catalog/private-echo`, { method: 'OPTIONS', headers: { origin: 'https://shop.example' } });
    assert.equal(privatePreflight.headers.get('access-control-allow-origin'), null);
  });

  it('hides the detail of an unexpected error behind a generic 500 and keeps serving', async () => {
    const res = await call(`${server.url}/catalog/boom`);
    assert.equal(res.status, 500);
    assert.equal(res.body.error.code, 'internal_error');
    assert.doesNotMatch(JSON.stringify(res.body), /secret internal detail/);
    assert.equal((await call(`${server.url}/health`)).status, 200);
  });

  it('keeps answers about a caller or about changing data out of every cache, refusals included', async () => {
    const answers = {
      health: await call(`${server.url}/health`),
      metrics: await fetch(`${server.url}/metrics`),
      recommendations: await call(`${server.url}/widget/tenant-a-popular/recommendations/someone`),
      'tracker refusal': await call(`${server.url}/tracker/tenant-a-tracker/identify`, { json: { datasources: 'not a list' } }),
      'collect refusal': await call(`${server.url}/collect/tenant-a-tracker`, { json: { activities: 'not a list' } }),
      'admin without a session': await call(`${server.url}/admin/widgets?environment=prod`),
      'catalog without a token': await call(`${server.url}/catalog/catalogs`),
      'token info without a token': await call(`${server.url}/auth/realms/tenant-a/token-info`),
    };
    const statuses = Object.fromEntries(Object.entries(answers).map(([name, res]) => [name, `${res.status} ${res.headers.get('cache-control')}`]));
    assert.deepEqual(statuses, {
      health: '200 no-store',
      metrics: '200 no-store',
      recommendations: '200 no-store',
      'tracker refusal': '400 no-store',
      'collect refusal': '400 no-store',
      'admin without a session': '401 no-store',
      'catalog without a token': '401 no-store',
      'token info without a token': '401 no-store',
    });
  });
});
