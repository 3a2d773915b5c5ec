/** Real access tokens for API tests, fetched from the server's own token endpoint with the fixture keys. */
import assert from 'node:assert/strict';
import type { CryptoKey } from 'jose';
import type { ManualClock } from '../../src/platform/clock.js';
import { assertionForm, postForm, privateKeyOf, signAssertion, tokenUrl } from './auth-helpers.js';
import type { TestServer } from './test-server.js';

export type TestClient = 'client-a' | 'client-a-legacy' | 'client-b' | 'client-b-legacy';

/** Returns `tokenFor(client)`: the realm follows the account (`-legacy` accounts are master-realm). */
export function bearerTokens(server: () => TestServer, clock: ManualClock) {
  const keys = new Map<string, CryptoKey>();
  return async function tokenFor(client: TestClient): Promise<string> {
    const owner = client.startsWith('client-a') ? 'client-a' : 'client-b';
    const realm = client.endsWith('-legacy') ? 'master' : owner === 'client-a' ? 'tenant-a' : 'tenant-b';
    let key = keys.get(owner);
    if (key === undefined) keys.set(owner, (key = await privateKeyOf(owner)));
    // The token endpoint allows 10 requests a second per realm; tests fetch more than that.
    clock.advance(1000);
    const url = tokenUrl(server().url, realm);
    const res = await postForm(url, assertionForm(client, await signAssertion({ key, clientId: client, aud: url, nowMs: clock.now() })));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.access_token as string;
  };
}

export function bearer(token: string, headers: Record<string, string> = {}): { headers: Record<string, string> } {
  return { headers: { authorization: `Bearer ${token}`, ...headers } };
}
