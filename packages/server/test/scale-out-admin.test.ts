/**
 * The admin API and the console on a store several processes share (PostgreSQL): a runtime
 * configuration change made through one process (a tracker key revoked, a widget created) is applied
 * by the others, two changes made at once through two processes both stay, a console session
 * signed out through one process is refused by all of them, and failed sign-ins count over all. Real servers on one real PostgreSQL schema.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startPostgres, type PostgresServer } from './support/engines.js';
import { eventually, openOnSharedStore, type SharedStoreServer } from './support/shared-store-servers.js';
import { adminConfig, adminToken, consoleSignIn, CONSOLE_PASSWORD } from './support/admin-fixture.js';
import { call, FIXTURES, type TestServer } from './support/test-server.js';
import { validateConfig } from '../src/platform/config/load.js';
import { createLogger } from '../src/platform/logger.js';

let postgres: PostgresServer | undefined;
const servers: SharedStoreServer[] = [];
after(async () => {
  for (const { server } of servers) await server.close();
  postgres?.dispose();
});

/** Two servers of one shop on a new schema, started one after the other or (`together`) at once. */
async function pair(together = false): Promise<[SharedStoreServer, SharedStoreServer]> {
  postgres ??= await startPostgres();
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const raw = await adminConfig();
  const open = () => openOnSharedStore(postgres!.url, schema, { configFor: () => validateConfig(raw, '(test)', FIXTURES), logger: createLogger('silent') });
  const opened: SharedStoreServer[] = together ? await Promise.all([open(), open()]) : [await open(), await open()];
  servers.push(...opened);
  return opened as [SharedStoreServer, SharedStoreServer];
}

describe('processes started together on an empty shared store', () => {
  it('agree on one token signing key and one console secret, so each accepts what the other issued', async () => {
    const [a, b] = await pair(true);
    for (const [issuer, checker] of [[a, b], [b, a]] as const) {
      const token = await adminToken({ url: issuer.base } as TestServer, Date.now(), 'client-a');
      assert.equal((await call(`${checker.base}/admin/widgets?environment=prod`, { headers: { authorization: `Bearer ${token}` } })).status, 200, 'an access token of the other process');
      const { cookie } = await consoleSignIn({ url: issuer.base } as TestServer);
      assert.equal((await call(`${checker.base}/admin/session`, { headers: { cookie: cookie! } })).status, 200, 'a console session of the other process');
    }
  });
});

describe('the admin API on a shared store', () => {
  it('applies a change made through one process on the others, and keeps two changes made at once', async () => {
    const [a, b] = await pair();
    const auth = { authorization: `Bearer ${await adminToken({ url: a.base } as TestServer, Date.now(), 'client-a')}` };
    const admin = (on: SharedStoreServer, path: string, init: { method?: string; json?: unknown } = {}) => call(`${on.base}/admin${path}?environment=prod`, { ...init, headers: auth });
    const collect = (on: SharedStoreServer) => call(`${on.base}/collect/tenant-a-tracker`, { json: { action: 'view', target: { product: 'p-1' }, user: { sessionId: 's-1' } } });
    assert.equal((await collect(b)).status, 200);
    // A key revoked through A is refused by B as well, once B's copy of the stored changes reloads.
    assert.equal((await admin(a, '/tracker-keys/tenant-a-tracker', { method: 'DELETE' })).status, 204);
    assert.equal((await collect(a)).status, 404);
    await eventually(async () => assert.equal((await collect(b)).status, 404, 'the revoked key is refused by the other process'), 5_000);
    // Two widgets created at once through the two processes: both are stored, and each process serves both.
    const created = await Promise.all([admin(a, '/widgets/made-on-a', { method: 'PUT', json: { strategies: ['popular'] } }), admin(b, '/widgets/made-on-b', { method: 'PUT', json: { strategies: ['popular'] } })]);
    assert.deepEqual(created.map((r) => r.status), [200, 200], JSON.stringify(created.map((r) => r.body)));
    for (const on of [a, b]) {
      await eventually(async () => {
        for (const id of ['made-on-a', 'made-on-b']) assert.equal((await call(`${on.base}/widget/${id}/recommendations`)).status, 200, `${id} on ${on.base}`);
      }, 5_000);
    }
  });
});

describe('console sessions on a shared store', () => {
  it('signs a person out on every process, not only the one they signed out through', async () => {
    const [a, b] = await pair();
    const session = (on: SharedStoreServer, cookie: string) => call(`${on.base}/admin/session`, { headers: { cookie } });
    const headers = await consoleSignIn({ url: a.base } as TestServer);
    // One secret in the store signs every process's cookies.
    assert.equal((await session(b, headers.cookie!)).status, 200);
    assert.equal((await call(`${a.base}/admin/session`, { method: 'DELETE', headers })).status, 204);
    assert.equal((await session(a, headers.cookie!)).status, 401);
    await eventually(async () => assert.equal((await session(b, headers.cookie!)).status, 401, 'signed out on the other process too'), 5_000);
    // Another session of the same person is untouched.
    const again = await consoleSignIn({ url: b.base } as TestServer);
    assert.equal((await session(a, again.cookie!)).status, 200);
  });

  it('counts failed sign-ins over every process: five spread over two lock the username on both', async () => {
    const [a, b] = await pair();
    const signIn = (on: SharedStoreServer, password: string) => call(`${on.base}/admin/session`, { json: { tenant: 'tenant-b', username: 'merch', password } });
    for (const on of [a, b, a, b, a]) assert.equal((await signIn(on, 'a wrong guess')).status, 401);
    for (const on of [a, b]) {
      // Each process reads the failures from its copy of the store document, which the other's commits reach within moments.
      const failures = await on.server.deps.store.document<{ failures: Record<string, number[]> }>('admin/sign-in-failures', () => ({ failures: {} }));
      await eventually(() => assert.equal(failures.data.failures['tenant-b/merch']?.length, 5), 3_000);
      const locked = await signIn(on, CONSOLE_PASSWORD);
      assert.equal(locked.status, 429, `locked on ${on.base}`);
      assert.ok(Number(locked.headers.get('retry-after')) > 0);
    }
  });
});
