/** Graceful shutdown: a request in flight when the server is asked to stop still finishes, and its write is on disk. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import Router from '@koa/router';
import type { ApiFactory } from '../src/apis/index.js';
import { startTestServer } from './support/test-server.js';

let requestArrived!: () => void;
const arrived = new Promise<void>((resolve) => (requestArrived = resolve));

const slowWriter: ApiFactory = async (deps) => {
  const router = new Router();
  const doc = await deps.store.document('orders', () => ({ ids: [] as string[] }));
  router.post('/slow-order/:id', async (ctx) => {
    requestArrived();
    await new Promise((resolve) => setTimeout(resolve, 150));
    await doc.update((data) => data.ids.push(ctx.params.id!));
    ctx.body = { stored: ctx.params.id };
  });
  return { name: 'slow-writer', mount: 'base', router, public: false };
};

it('finishes requests in flight and flushes their writes before close resolves', async () => {
  const server = await startTestServer({ extraApis: [slowWriter] });
  const inFlight = fetch(`${server.url}/slow-order/o-1`, { method: 'POST' });
  // Close only once the request is in the handler: it must then finish, not be refused.
  await arrived;
  const closed = server.close();
  const response = await inFlight;
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), { stored: 'o-1' });
  await closed;
  const saved = JSON.parse(await readFile(join(server.dataDir, 'documents/orders.json'), 'utf8'));
  assert.deepEqual(saved.ids, ['o-1']);
  await assert.rejects(fetch(`${server.url}/health`));
  await rm(server.dataDir, { recursive: true, force: true });
});
