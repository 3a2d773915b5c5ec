/**
 * Console sign-out on a store several processes share (PostgreSQL): a session signed in through one
 * process works on the others, and once signed out through one it is refused by all of them (the
 * revocation is a store document they reload). Two real servers on one real PostgreSQL schema.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startPostgres, type PostgresServer } from './support/engines.js';
import { eventually, openOnSharedStore, type SharedStoreServer } from './support/shared-store-servers.js';
import { adminConfig, consoleSignIn } from './support/admin-fixture.js';
import { call, FIXTURES, type TestServer } from './support/test-server.js';
import { validateConfig } from '../src/platform/config/load.js';
import { createLogger } from '../src/platform/logger.js';

let postgres: PostgresServer | undefined;
const servers: SharedStoreServer[] = [];
after(async () => {
  for (const { server } of servers) await server.close();
  postgres?.dispose();
});

describe('console sessions on a shared store', () => {
  it('signs a person out on every process, not only the one they signed out through', async () => {
    postgres = await startPostgres();
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const raw = await adminConfig();
    for (let i = 0; i < 2; i++) servers.push(await openOnSharedStore(postgres.url, schema, { configFor: () => validateConfig(raw, '(test)', FIXTURES), logger: createLogger('silent') }));
    const [a, b] = servers as [SharedStoreServer, SharedStoreServer];
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
});
