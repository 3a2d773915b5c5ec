/** The OpenAPI document: every route the server mounts is in it and described, and real answers validate against it. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { createConsolePages } from '../src/apis/console/console-pages.js';
import { ManualClock } from '../src/platform/clock.js';
import { openApiPaths } from '../src/apis/openapi/openapi-document.js';
import { adminConfig, adminToken } from './support/admin-fixture.js';
import { loadCatalog } from './support/recommendation-fixture.js';
import { call, startTestServer, type TestServer } from './support/test-server.js';

type Doc = { openapi: string; paths: Record<string, Record<string, { summary: string; 'x-undocumented'?: boolean; responses: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }>; requestBody?: { content: Record<string, { schema?: Record<string, unknown> }> } }>> };

describe('OpenAPI document', () => {
  let server: TestServer;
  let doc: Doc;
  let pagesDir: string;
  const clock = new ManualClock();
  let admin: Record<string, string>;

  /** Validates `body` against the document's schema for this operation and status, as a client generated from it would. */
  function check(path: string, method: string, status: string, body: unknown): void {
    const schema = doc.paths[path]?.[method]?.responses[status]?.content?.['application/json']?.schema;
    assert.ok(schema !== undefined, `the document has a JSON schema for ${method} ${path} ${status}`);
    const result = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]).safeParse(body);
    assert.ok(result.success, `${method} ${path} ${status}: ${JSON.stringify(result.error?.issues.slice(0, 3))}`);
  }

  before(async () => {
    pagesDir = await mkdtemp(join(tmpdir(), 'discovery-pages-'));
    server = await startTestServer({ config: await adminConfig(), clock, extraApis: [createConsolePages(pagesDir)] });
    await loadCatalog(server.server);
    admin = { authorization: `Bearer ${await adminToken(server, clock.now(), 'client-a')}` };
    const res = await call(`${server.url}/openapi.json`);
    assert.equal(res.status, 200);
    doc = res.body as Doc;
  });
  after(async () => {
    await server.cleanup();
    await rm(pagesDir, { recursive: true, force: true });
  });

  it('is OpenAPI 3.1 and lists every route every module mounts, each described', () => {
    assert.equal(doc.openapi, '3.1.0');
    const missing: string[] = [];
    let routes = 0;
    for (const api of server.server.apis) {
      for (const layer of (api.router as unknown as { stack: Array<{ path: string; methods: string[] }> }).stack) {
        for (const method of layer.methods.filter((m) => m !== 'HEAD')) {
          for (const path of openApiPaths(layer.path)) {
            routes++;
            const op = doc.paths[path]?.[method.toLowerCase()];
            if (op === undefined || op['x-undocumented'] === true) missing.push(`${api.name} ${method} ${path}`);
          }
        }
      }
    }
    assert.ok(routes > 60, `${routes} routes`);
    assert.deepEqual(missing, []);
    assert.ok(doc.paths['/admin/widgets/{widgetId}']?.put?.requestBody?.content['application/json']?.schema, 'bodies come from the zod schemas');
    assert.ok(doc.paths['/openapi.json']?.get, 'the document lists itself');
  });

  it('describes request bodies with the schemas that validate them', async () => {
    const body = doc.paths['/admin/widgets/{widgetId}']!.put!.requestBody!.content['application/json']!.schema!;
    const widget = z.fromJSONSchema(body as Parameters<typeof z.fromJSONSchema>[0]);
    assert.equal(widget.safeParse({ id: 'x', strategies: ['popular'] }).success, true);
    assert.equal(widget.safeParse({ id: 'x', strategies: ['psychic'] }).success, false, 'the document refuses what the API refuses');
    const refused = await call(`${server.url}/admin/widgets/x?environment=prod`, { method: 'PUT', headers: admin, json: { strategies: ['psychic'] } });
    assert.equal(refused.status, 400);
  });

  it('validates real answers of the server against the document', async () => {
    check('/health', 'get', '200', (await call(`${server.url}/health`)).body);
    assert.throws(() => check('/health', 'get', '200', { status: 'ok', version: '1', uptimeSeconds: -1, tenants: 1 }), 'a wrong answer fails');
    const get = async (path: string) => {
      const res = await call(`${server.url}/admin${path}${path.includes('?') ? '&' : '?'}environment=prod`, { headers: admin });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body;
    };
    await call(`${server.url}/search`, { json: { token: 'tenant-a-search', query: 'nothing-like-this' } });
    check('/admin/session', 'get', '200', await get('/session'));
    check('/admin/widgets', 'get', '200', await get('/widgets'));
    check('/admin/search-tokens', 'get', '200', await get('/search-tokens'));
    check('/admin/search-tokens/{token}/explain', 'get', '200', await get('/search-tokens/tenant-a-search/explain?q=shoes'));
    check('/admin/tracker-keys', 'get', '200', await get('/tracker-keys'));
    check('/admin/audit', 'get', '200', await get('/audit'));
    check('/admin/analytics', 'get', '200', await get('/analytics'));
    const queries = await get('/analytics/queries');
    assert.equal(queries.zeroResult[0].query, 'nothing-like-this');
    check('/admin/analytics/queries', 'get', '200', queries);
    check('/admin/analytics/activities-per-minute', 'get', '200', await get('/analytics/activities-per-minute'));
    check('/admin/widgets/{widgetId}', 'get', '4XX', (await call(`${server.url}/admin/widgets/nope?environment=prod`, { headers: admin })).body);
  });

  it('serves the reference page and metrics', async () => {
    const page = await fetch(`${server.url}/docs/`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    assert.match(await page.text(), /\/docs\/reference\.js/);
    const trainings = async () => /discovery_recommendation_model_training_seconds_count (\d+)/.exec(await (await fetch(`${server.url}/metrics`)).text())?.[1];
    const before = Number(await trainings());
    const purchases = ['s1', 's2'].map((shopper) => ({ action: 'purchase', target: { product: 'p1' }, user: { identities: { 'customer-id': shopper } }, metadata: { orderId: shopper } }));
    assert.equal((await call(`${server.url}/collect/tenant-a-tracker`, { json: purchases })).status, 200);
    await server.server.deps.services.recommendations.models.trainNow('tenant-a', { force: true });
    assert.equal(Number(await trainings()), before + 1, 'one more model training measured');
    const metrics = await fetch(`${server.url}/metrics`);
    const text = await metrics.text();
    assert.match(text, /discovery_http_requests_total\{method="GET",route="\/health",status="200"\} [1-9]/);
    assert.match(text, /discovery_http_request_duration_seconds_bucket\{le="0.001",method="GET",route="\/health",status="200"\}/);
    assert.match(text, /discovery_search_index_build_seconds_count [1-9]/);
    assert.match(text, /discovery_process_resident_memory_bytes \d+/);
    assert.doesNotMatch(text, /nothing-like-this|tenant-a/, 'no query text or tenant data in metrics');
  });
});
