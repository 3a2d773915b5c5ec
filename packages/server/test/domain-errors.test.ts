/**
 * Domain refusals as a client receives them: every DomainError kind, the zod helpers' refusals of a
 * body and of a query, through the real error middleware of a running server.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Router from '@koa/router';
import { z } from 'zod';
import { jsonBody } from '../src/apis/http/body.js';
import type { ApiFactory } from '../src/apis/index.js';
import { DomainError, type DomainErrorKind } from '../src/platform/domain-error.js';
import { formatPath, parseInput } from '../src/platform/validation.js';
import { call, startTestServer, type TestServer } from './support/test-server.js';

const pageQuery = z.strictObject({ page: z.coerce.number().int().min(1) });
const itemBody = z.strictObject({ name: z.string().min(1), tags: z.array(z.string()).max(2) });

/** A private API whose routes throw what a domain would throw, as a domain would throw it. */
const refusingApi: ApiFactory = () => {
  const router = new Router();
  router.get('/refuse/:kind', (ctx) => {
    throw new DomainError(ctx.params.kind as DomainErrorKind, `refused as ${ctx.params.kind}`, { field: 'thing', detail: 'for the log only' });
  });
  router.get('/unknown-widget', () => {
    throw new DomainError('not_found', 'No widget "w" is configured.', { code: 'unknown_widget', field: 'widgetId' });
  });
  router.get('/locked', () => {
    throw new DomainError('rate_limited', 'Try again in 2 minutes.', { retryAfterSeconds: 120 });
  });
  router.get('/paged', (ctx) => {
    ctx.body = parseInput(pageQuery, ctx.query, 'query');
  });
  router.post('/checked-body', jsonBody({ limit: 4096 }), (ctx) => {
    ctx.body = parseInput(itemBody, ctx.request.body);
  });
  return { name: 'refusing', mount: 'items', router, public: false };
};

describe('domain errors over HTTP', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ extraApis: [refusingApi] });
  });
  after(() => server.cleanup());

  const errorOf = (body: { error: Record<string, unknown> }) => {
    const { requestId, ...rest } = body.error;
    assert.equal(typeof requestId, 'string');
    return rest;
  };

  it('answers each kind with its status and default code, the message and the field, never the detail', async () => {
    const expected: Array<[DomainErrorKind, number, string]> = [
      ['invalid', 400, 'invalid_body'],
      ['not_found', 404, 'not_found'],
      ['conflict', 409, 'conflict'],
      ['too_large', 413, 'body_too_large'],
      ['forbidden', 403, 'forbidden'],
      ['limit_exceeded', 400, 'limit_exceeded'],
      ['unauthorized', 401, 'unauthorized'],
      ['rate_limited', 429, 'rate_limited'],
    ];
    for (const [kind, status, code] of expected) {
      const res = await call(`${server.url}/catalog/refuse/${kind}`);
      assert.equal(res.status, status, kind);
      assert.deepEqual(errorOf(res.body), { status, code, message: `refused as ${kind}`, field: 'thing' }, kind);
      assert.doesNotMatch(JSON.stringify(res.body), /for the log only/);
    }
  });

  it('hides an internal error behind the generic 500 body', async () => {
    const res = await call(`${server.url}/catalog/refuse/internal`);
    assert.equal(res.status, 500);
    assert.equal(res.body.error.code, 'internal_error');
    assert.doesNotMatch(JSON.stringify(res.body), /refused as internal/);
  });

  it('sends the stable code an error names instead of its kind\'s default', async () => {
    const res = await call(`${server.url}/catalog/unknown-widget`);
    assert.equal(res.status, 404);
    assert.deepEqual(errorOf(res.body), { status: 404, code: 'unknown_widget', message: 'No widget "w" is configured.', field: 'widgetId' });
  });

  it('tells a rate-limited caller when to retry', async () => {
    const res = await call(`${server.url}/catalog/locked`);
    assert.equal(res.status, 429);
    assert.equal(res.headers.get('retry-after'), '120');
  });

  it('refuses a bad body naming every field, the first in the message and as the field', async () => {
    const res = await call(`${server.url}/catalog/checked-body`, { json: { name: '', tags: ['a', 'b', 'c'], extra: 1 } });
    assert.equal(res.status, 400);
    const error = errorOf(res.body);
    assert.equal(error.code, 'invalid_body');
    assert.equal(error.field, 'name');
    assert.deepEqual((error.issues as Array<{ path: string }>).map((i) => i.path), ['name', 'tags', '(body)']);
    assert.match(String(error.message), /^name: .+ \(and 2 more problems\)$/);
  });

  it('refuses a bad query as invalid_parameter with query-rooted paths', async () => {
    const res = await call(`${server.url}/catalog/paged?page=0`);
    assert.equal(res.status, 400);
    const error = errorOf(res.body);
    assert.equal(error.code, 'invalid_parameter');
    assert.equal(error.field, 'query.page');
    assert.match(String(error.message), /^query\.page: /);
    assert.deepEqual((await call(`${server.url}/catalog/paged?page=3`)).body, { page: 3 });
  });

  it('writes field paths as a client reads them', () => {
    assert.equal(formatPath(['items', 3, 'price']), 'items[3].price');
    assert.equal(formatPath([2, 'attributes', 'size'], '[0]'), '[0][2].attributes.size');
    assert.equal(formatPath(['page'], 'query'), 'query.page');
    assert.equal(formatPath([]), '(body)');
  });
});
