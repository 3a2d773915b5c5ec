/** The bearer guard: which tokens reach which tenant's data, through token-info and a catalog-style probe route. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Router from '@koa/router';
import { SignJWT, decodeJwt, type CryptoKey } from 'jose';
import { ManualClock } from '../src/platform/clock.js';
import { requireBearer } from '../src/apis/http/bearer-guard.js';
import type { ApiFactory } from '../src/apis/index.js';
import { assertionForm, postForm, privateKeyOf, signAssertion, tokenUrl } from './support/auth-helpers.js';
import { call, startTestServer, type TestServer } from './support/test-server.js';

/** How the catalog API will use the guard: tenant realm, `tenant` query parameter checked against the token. */
const probeApi: ApiFactory = (deps) => {
  const router = new Router();
  router.get('/probe', requireBearer(deps.services.auth, { realm: 'tenant' }), (ctx) => {
    ctx.body = { auth: ctx.state.auth };
  });
  router.get('/legacy-probe', requireBearer(deps.services.auth, { realm: 'master' }), (ctx) => {
    ctx.body = { auth: ctx.state.auth };
  });
  return { name: 'probe', mount: 'items', router, public: false };
};

describe('bearer guard', () => {
  const clock = new ManualClock();
  let server: TestServer;
  const keys: Record<string, CryptoKey> = {};

  before(async () => {
    server = await startTestServer({ clock, extraApis: [probeApi] });
    keys['client-a'] = await privateKeyOf('client-a');
    keys['client-b'] = await privateKeyOf('client-b');
  });
  after(() => server.cleanup());

  async function tokenFor(clientId: string, realm: string): Promise<string> {
    clock.advance(1000);
    const url = tokenUrl(server.url, realm);
    const key = keys[clientId.replace('-legacy', '')]!;
    const res = await postForm(url, assertionForm(clientId, await signAssertion({ key, clientId, aud: url, nowMs: clock.now() })));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.access_token as string;
  }

  const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

  function assertUnauthorized(res: Awaited<ReturnType<typeof call>>, description: string): void {
    assert.equal(res.status, 401);
    assert.equal(res.body.error.code, 'unauthorized');
    assert.equal(res.body.error.message, `Bearer token refused: ${description}.`);
    assert.equal(res.headers.get('www-authenticate'), `Bearer error="invalid_token", error_description="${description.replace(/"/g, "'")}"`);
  }

  it('lets a token through any number of times until it expires, then refuses it', async () => {
    const token = await tokenFor('client-a', 'tenant-a');
    const exp = decodeJwt(token).exp;
    for (let i = 0; i < 3; i++) {
      const res = await call(`${server.url}/auth/realms/tenant-a/token-info`, bearer(token));
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { clientId: 'client-a', tenant: 'tenant-a', realm: 'tenant-a', expiresAt: exp });
    }
    clock.advance(299_000);
    assert.equal((await call(`${server.url}/catalog/probe?tenant=tenant-a`, bearer(token))).status, 200);
    clock.advance(2_000);
    assertUnauthorized(await call(`${server.url}/catalog/probe?tenant=tenant-a`, bearer(token)), 'the token expired 1 s ago; get a new one from the token endpoint');
  });

  it('refuses missing, malformed and badly signed tokens with 401 and WWW-Authenticate', async () => {
    const url = `${server.url}/catalog/probe?tenant=tenant-a`;
    assertUnauthorized(await call(url), 'send "Authorization: Bearer <access token>"; get a token from the token endpoint');
    const malformed = 'the Authorization header must be "Bearer " followed by the access token';
    assertUnauthorized(await call(url, { headers: { authorization: 'Bearer' } }), malformed);
    assertUnauthorized(await call(url, { headers: { authorization: 'Basic Y2xpZW50LWE6eA==' } }), malformed);
    const badToken = 'the token is malformed or its signature does not verify; get a new one from the token endpoint';
    assertUnauthorized(await call(url, bearer('abc.def.ghi')), badToken);
    const token = await tokenFor('client-a', 'tenant-a');
    const [header, , signature] = token.split('.');
    // Same claims, signed by the client's key instead of the server's.
    const forged = await new SignJWT(decodeJwt(token)).setProtectedHeader({ alg: 'RS256', typ: 'at+jwt' }).sign(keys['client-a']!);
    assertUnauthorized(await call(url, bearer(forged)), badToken);
    const tampered = `${header}.${Buffer.from(JSON.stringify({ ...decodeJwt(token), tenant: 'tenant-b' })).toString('base64url')}.${signature}`;
    assertUnauthorized(await call(`${server.url}/catalog/probe?tenant=tenant-b`, bearer(tampered)), badToken);
  });

  it('never lets a token of tenant A reach tenant B: 403', async () => {
    const tokenB = await tokenFor('client-b', 'tenant-b');
    const info = await call(`${server.url}/auth/realms/tenant-a/token-info`, bearer(tokenB));
    assert.equal(info.status, 403);
    assert.equal(info.body.error.code, 'forbidden');
    assert.equal(info.body.error.message, 'This token belongs to tenant "tenant-b" and cannot reach tenant "tenant-a".');
    const probe = await call(`${server.url}/catalog/probe?tenant=tenant-a`, bearer(tokenB));
    assert.equal(probe.status, 403);
    const own = await call(`${server.url}/catalog/probe?tenant=tenant-b`, bearer(tokenB));
    assert.equal(own.status, 200);
    assert.equal(own.body.auth.tenantId, 'tenant-b');
    const repeated = await call(`${server.url}/catalog/probe?tenant=tenant-b&tenant=tenant-a`, bearer(tokenB));
    assert.equal(repeated.status, 403);
    const unnamed = await call(`${server.url}/catalog/probe`, bearer(tokenB));
    assert.equal(unnamed.body.auth.tenantId, 'tenant-b');
  });

  it('keeps master-realm tokens to the older APIs and tenant-realm tokens to the catalog API', async () => {
    const master = await tokenFor('client-a-legacy', 'master');
    const tenant = await tokenFor('client-a', 'tenant-a');
    assertUnauthorized(
      await call(`${server.url}/catalog/probe?tenant=tenant-a`, bearer(master)),
      "this API takes tokens of the tenant's realm (/auth/realms/tenant-a), and this one comes from the master realm",
    );
    assertUnauthorized(await call(`${server.url}/catalog/legacy-probe`, bearer(tenant)), 'this API takes tokens of the master realm, and this one comes from realm "tenant-a"');
    const legacy = await call(`${server.url}/catalog/legacy-probe`, bearer(master));
    assert.equal(legacy.status, 200);
    assert.deepEqual({ ...legacy.body.auth, expiresAt: 0 }, { tenantId: 'tenant-a', clientId: 'client-a-legacy', realm: 'master', expiresAt: 0 });
    assert.equal((await call(`${server.url}/catalog/legacy-probe?tenant=tenant-b`, bearer(master))).status, 403);
    const info = await call(`${server.url}/auth/realms/master/token-info`, bearer(master));
    assert.equal(info.status, 200);
    assert.equal(info.body.tenant, 'tenant-a');
    assertUnauthorized(
      await call(`${server.url}/auth/realms/tenant-a/token-info`, bearer(master)),
      "this API takes tokens of the tenant's realm (/auth/realms/tenant-a), and this one comes from the master realm",
    );
  });

  it('keeps its signing key across restarts, so that issued tokens stay valid', async () => {
    const token = await tokenFor('client-a', 'tenant-a');
    const jwksBefore = (await call(`${server.url}/auth/realms/tenant-a/protocol/openid-connect/certs`)).body;
    await server.close();
    server = await startTestServer({ clock, dataDir: server.dataDir, extraApis: [probeApi] });
    const jwksAfter = (await call(`${server.url}/auth/realms/tenant-a/protocol/openid-connect/certs`)).body;
    assert.deepEqual(jwksAfter, jwksBefore);
    assert.equal(jwksAfter.keys.length, 1);
    assert.equal(jwksAfter.keys[0].d, undefined);
    assert.equal((await call(`${server.url}/auth/realms/tenant-a/token-info`, bearer(token))).status, 200);
  });
});
