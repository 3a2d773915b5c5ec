/** A shop for the admin API and console tests: tenant-a with an editing and a read-only admin account and a console user. */
import assert from 'node:assert/strict';
import { hashPassword } from '../../src/domains/admin/console-sessions.js';
import { assertionForm, postForm, privateKeyOf, signAssertion, tokenUrl } from './auth-helpers.js';
import { recommendationConfig } from './recommendation-fixture.js';
import { call, type TestServer } from './test-server.js';

export const CONSOLE_PASSWORD = 'correct horse battery staple';

type MutableConfig = { tenants: Array<{ id: string; serviceAccounts: Array<Record<string, unknown>>; consoleUsers?: unknown[] }> };

/** The recommendation shop's configuration, plus admin accounts and console users on both tenants. */
export async function adminConfig(): Promise<Record<string, unknown>> {
  const config = recommendationConfig() as MutableConfig & Record<string, unknown>;
  const hash = await hashPassword(CONSOLE_PASSWORD);
  const [a, b] = config.tenants;
  a!.serviceAccounts[0]!.adminRole = 'edit';
  // The reader signs with client-b's key pair: any registered public key will do for a second account.
  a!.serviceAccounts.push({ clientId: 'reader-a', realm: 'tenant', publicKeyFile: 'client-b.public.pem', adminRole: 'read' });
  a!.consoleUsers = [
    { username: 'merch', passwordHash: hash, role: 'edit' },
    { username: 'viewer', passwordHash: hash, role: 'read' },
  ];
  b!.serviceAccounts[0]!.adminRole = 'edit';
  b!.consoleUsers = [{ username: 'merch', passwordHash: hash, role: 'edit' }];
  return config;
}

/** An access token of tenant-a's realm for `client-a` (edit), `reader-a` (read) or client-b of tenant-b (edit). */
export async function adminToken(server: TestServer, nowMs: number, who: 'client-a' | 'reader-a' | 'client-b'): Promise<string> {
  const realm = who === 'client-b' ? 'tenant-b' : 'tenant-a';
  const key = await privateKeyOf(who === 'client-a' ? 'client-a' : 'client-b');
  const url = tokenUrl(server.url, realm);
  const res = await postForm(url, assertionForm(who, await signAssertion({ key, clientId: who, aud: url, nowMs })));
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.access_token as string;
}

/** Signs a console user in; returns the headers that carry the session cookie and the CSRF token. */
export async function consoleSignIn(server: TestServer, username = 'merch', tenant = 'tenant-a'): Promise<Record<string, string>> {
  const res = await call(`${server.url}/admin/session`, { json: { tenant, username, password: CONSOLE_PASSWORD } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
  return { cookie, 'x-csrf-token': res.body.csrfToken as string };
}
