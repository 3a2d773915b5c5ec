/** An independent OpenID client (openid-client) discovers a realm, gets a token with private_key_jwt, and calls a guarded endpoint. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as client from 'openid-client';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { privateKeyOf } from './support/auth-helpers.js';
import { call, startTestServer, testConfig, type TestServer } from './support/test-server.js';

describe('auth with an independent OpenID client', () => {
  let server: TestServer;
  before(async () => {
    const config = testConfig() as { tenants: Array<{ serviceAccounts: unknown[] }> };
    config.tenants[1]!.serviceAccounts.push({ clientId: 'client-b-secret', clientSecretHash: `sha256:${createHash('sha256').update('b-secret').digest('hex')}` });
    server = await startTestServer({ config });
  });
  after(() => server.cleanup());

  const discover = (realm: string, clientId: string, auth: client.ClientAuth) =>
    client.discovery(new URL(`${server.url}/auth/realms/${realm}`), clientId, {}, auth, { execute: [client.allowInsecureRequests] });

  it('publishes an OpenID configuration that describes the token endpoint', async () => {
    const res = await call(`${server.url}/auth/realms/tenant-a/.well-known/openid-configuration`);
    assert.equal(res.status, 200);
    const issuer = `${server.url}/auth/realms/tenant-a`;
    assert.deepEqual(res.body, {
      issuer,
      token_endpoint: `${issuer}/protocol/openid-connect/token`,
      jwks_uri: `${issuer}/protocol/openid-connect/certs`,
      grant_types_supported: ['client_credentials'],
      response_types_supported: ['token'],
      token_endpoint_auth_methods_supported: ['private_key_jwt', 'client_secret_post', 'client_secret_basic'],
      token_endpoint_auth_signing_alg_values_supported: ['RS256'],
    });
    const unknown = await call(`${server.url}/auth/realms/nowhere/.well-known/openid-configuration`);
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.code, 'not_found');
  });

  it('gets a token with private_key_jwt, verifies it against the JWKS, and calls the guarded endpoint', async () => {
    const key = await privateKeyOf('client-a');
    const config = await discover('tenant-a', 'client-a', client.PrivateKeyJwt(key));
    const tokens = await client.clientCredentialsGrant(config, {});
    assert.equal(tokens.token_type, 'bearer');
    assert.equal(tokens.expires_in, 300);
    const issuer = `${server.url}/auth/realms/tenant-a`;
    const jwks = createRemoteJWKSet(new URL(config.serverMetadata().jwks_uri!));
    const { payload } = await jwtVerify(tokens.access_token, jwks, { issuer, algorithms: ['RS256'] });
    assert.equal(payload.tenant, 'tenant-a');
    const info = await client.fetchProtectedResource(config, tokens.access_token, new URL(`${issuer}/token-info`), 'GET');
    assert.equal(info.status, 200);
    assert.deepEqual(await info.json(), { clientId: 'client-a', tenant: 'tenant-a', realm: 'tenant-a', expiresAt: payload.exp });
    const other = await fetch(`${server.url}/auth/realms/tenant-b/token-info`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    assert.equal(other.status, 403);
  });

  it('gets a master-realm token for an older-API account', async () => {
    const config = await discover('master', 'client-b-legacy', client.PrivateKeyJwt(await privateKeyOf('client-b')));
    const tokens = await client.clientCredentialsGrant(config, {});
    const info = await call(`${server.url}/auth/realms/master/token-info`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    assert.equal(info.body.tenant, 'tenant-b');
    assert.equal(info.body.realm, 'master');
  });

  it('gets a token with the password method, posted or as HTTP Basic', async () => {
    for (const auth of [client.ClientSecretPost('b-secret'), client.ClientSecretBasic('b-secret')]) {
      const tokens = await client.clientCredentialsGrant(await discover('tenant-b', 'client-b-secret', auth), {});
      assert.equal(tokens.token_type, 'bearer');
    }
  });

  it('surfaces the OAuth error of a refused client', async () => {
    const config = await discover('tenant-a', 'client-a', client.PrivateKeyJwt(await privateKeyOf('client-b')));
    await assert.rejects(client.clientCredentialsGrant(config, {}), (error: unknown) => {
      assert.ok(error instanceof client.ResponseBodyError);
      assert.equal(error.error, 'invalid_client');
      assert.equal(error.status, 401);
      return true;
    });
  });
});
