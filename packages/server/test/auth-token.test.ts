/** The token endpoint: what it issues, and every way an assertion or request is refused without changing anything else. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { SignJWT, decodeJwt, decodeProtectedHeader, type CryptoKey } from 'jose';
import { ManualClock } from '../src/platform/clock.js';
import { assertionForm, b64json, fixturePem, postForm, postFormFrom, privateKeyOf, signAssertion, tokenUrl } from './support/auth-helpers.js';
import { call, startTestServer, testConfig, type TestServer } from './support/test-server.js';

const AUTH_FAILED = {
  error: 'invalid_client',
  error_description: 'Client authentication failed: the client is unknown, or its credentials (secret or assertion signature) are wrong.',
};

/** testConfig plus a password-method account in tenant-a, whose secret is "s3cret". */
function configWithSecretAccount(): Record<string, unknown> {
  const config = testConfig() as { tenants: Array<{ serviceAccounts: unknown[] }> };
  const hash = createHash('sha256').update('s3cret').digest('hex');
  config.tenants[0]!.serviceAccounts.push({ clientId: 'client-a-secret', clientSecretHash: `sha256:${hash}` });
  return config;
}

describe('token endpoint', () => {
  const clock = new ManualClock();
  let server: TestServer;
  let keyA: CryptoKey;
  let keyB: CryptoKey;
  let url: string;
  let issuer: string;

  before(async () => {
    server = await startTestServer({ clock, config: configWithSecretAccount() });
    keyA = await privateKeyOf('client-a');
    keyB = await privateKeyOf('client-b');
    url = tokenUrl(server.url, 'tenant-a');
    issuer = `${server.url}/auth/realms/tenant-a`;
  });
  after(() => server.cleanup());

  /** Each request in its own second, so that only the rate-limit test meets the limit. */
  function send(target: string, form: URLSearchParams | string, headers: Record<string, string> = {}) {
    clock.advance(1000);
    return postForm(target, form, headers);
  }

  function assertion(claims: Record<string, unknown> = {}, key = keyA, clientId = 'client-a') {
    return signAssertion({ key, clientId, aud: url, nowMs: clock.now() + 1000, claims });
  }

  it('issues a realm-scoped access token for a valid assertion, aud being the token endpoint or the issuer', async () => {
    for (const aud of [url, issuer]) {
      const res = await send(url, assertionForm('client-a', await signAssertion({ key: keyA, clientId: 'client-a', aud, nowMs: clock.now() + 1000 })));
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.deepEqual(Object.keys(res.body).sort(), ['access_token', 'expires_in', 'not-before-policy', 'token_type']);
      assert.equal(res.body.token_type, 'bearer');
      assert.equal(res.body.expires_in, 300);
      assert.equal(res.body['not-before-policy'], 0);
      const claims = decodeJwt(res.body.access_token);
      assert.equal(claims.iss, issuer);
      assert.equal(claims.sub, 'client-a');
      assert.equal(claims.azp, 'client-a');
      assert.equal(claims.tenant, 'tenant-a');
      assert.equal(claims.realm, 'tenant-a');
      assert.equal(claims.exp, Math.floor(clock.now() / 1000) + 300);
      assert.equal(decodeProtectedHeader(res.body.access_token).typ, 'at+jwt');
    }
  });

  it('refuses each bad assertion with the right error, and burns nothing: its jti still works afterwards', async () => {
    const now = () => Math.floor((clock.now() + 1000) / 1000);
    const cases: Array<{ name: string; build: (jti: string) => Promise<string>; status: number; body: object }> = [
      { name: 'wrong key', build: (jti) => assertion({ jti }, keyB), status: 401, body: AUTH_FAILED },
      {
        name: 'alg none',
        build: async (jti) => `${b64json({ alg: 'none' })}.${b64json({ iss: 'client-a', sub: 'client-a', aud: url, iat: now(), exp: now() + 60, jti })}.`,
        status: 400,
        body: { error: 'invalid_client', error_description: 'Invalid client assertion: the signature algorithm must be RS256, not none.' },
      },
      {
        name: 'HS256 signed with the public key as secret',
        build: (jti) =>
          new SignJWT({ iss: 'client-a', sub: 'client-a', aud: url, iat: now(), exp: now() + 60, jti })
            .setProtectedHeader({ alg: 'HS256' })
            .sign(new TextEncoder().encode(fixturePem('client-a.public.pem'))),
        status: 400,
        body: { error: 'invalid_client', error_description: 'Invalid client assertion: the signature algorithm must be RS256, not HS256.' },
      },
      {
        name: 'expired',
        build: (jti) => assertion({ jti, iat: now() - 100, exp: now() - 42 }),
        status: 400,
        body: { error: 'invalid_client', error_description: 'Invalid client assertion: the assertion expired 42 s ago; sign a fresh one for each request.' },
      },
      {
        name: 'exp too far',
        build: (jti) => assertion({ jti, exp: now() + 120 }),
        status: 400,
        body: { error: 'invalid_client', error_description: 'Invalid client assertion: exp is 120 s after iat; this client allows at most 60 s.' },
      },
      {
        name: 'exp missing',
        build: (jti) => assertion({ jti, exp: undefined }),
        status: 400,
        body: { error: 'invalid_client', error_description: 'Invalid client assertion: exp is required (seconds since the epoch).' },
      },
      {
        name: 'future nbf',
        build: (jti) => assertion({ jti, nbf: now() + 45 }),
        status: 400,
        body: { error: 'invalid_client', error_description: "Invalid client assertion: nbf is 45 s in the future; check the client's clock." },
      },
      {
        name: 'wrong aud',
        build: (jti) => assertion({ jti, aud: 'https://elsewhere.example/token' }),
        status: 400,
        body: {
          error: 'invalid_client',
          error_description: `Invalid client assertion: aud must be this realm's token endpoint (${url}) or its issuer (${issuer}), not "https://elsewhere.example/token".`,
        },
      },
      {
        name: 'aud of another realm',
        build: (jti) => assertion({ jti, aud: tokenUrl(server.url, 'tenant-b') }),
        status: 400,
        body: {
          error: 'invalid_client',
          error_description: `Invalid client assertion: aud must be this realm's token endpoint (${url}) or its issuer (${issuer}), not "${tokenUrl(server.url, 'tenant-b')}".`,
        },
      },
      {
        name: 'aud array',
        build: (jti) => assertion({ jti, aud: [url] }),
        status: 400,
        body: { error: 'invalid_client', error_description: `Invalid client assertion: aud must be one string naming this realm (${url}), not an array.` },
      },
      {
        name: 'iss ≠ sub',
        build: (jti) => assertion({ jti, sub: 'client-b' }),
        status: 400,
        body: { error: 'invalid_client', error_description: 'Invalid client assertion: sub must equal iss, the client id "client-a", not "client-b".' },
      },
      {
        name: 'iss ≠ client_id',
        build: (jti) => assertion({ jti, iss: 'client-b' }),
        status: 400,
        body: { error: 'invalid_client', error_description: 'Invalid client assertion: iss must be the client id "client-a", not "client-b".' },
      },
      {
        name: 'not a JWT',
        build: async () => 'not-a-jwt',
        status: 400,
        body: { error: 'invalid_client', error_description: 'Invalid client assertion: client_assertion is not a compact JWT (three base64url parts separated by dots).' },
      },
    ];
    for (const bad of cases) {
      const jti = randomUUID();
      const refused = await send(url, assertionForm('client-a', await bad.build(jti)));
      assert.equal(refused.status, bad.status, bad.name);
      assert.deepEqual(refused.body, bad.body, bad.name);
      assert.equal(refused.headers.get('cache-control'), 'no-store', bad.name);
      const accepted = await send(url, assertionForm('client-a', await assertion({ jti })));
      assert.equal(accepted.status, 200, `${bad.name}: a valid assertion with the same jti is still accepted`);
    }
  });

  it('refuses a jti twice until its assertion has expired', async () => {
    const jti = randomUUID();
    assert.equal((await send(url, assertionForm('client-a', await assertion({ jti })))).status, 200);
    const replayed = await send(url, assertionForm('client-a', await assertion({ jti })));
    assert.equal(replayed.status, 400);
    assert.deepEqual(replayed.body, { error: 'invalid_client', error_description: `Invalid client assertion: jti "${jti}" was already used; sign a new assertion with a new jti.` });
    const missing = await send(url, assertionForm('client-a', await assertion({ jti: undefined })));
    assert.deepEqual(missing.body, { error: 'invalid_client', error_description: 'Invalid client assertion: jti is required: a unique id for each assertion.' });
    clock.advance(120_000);
    assert.equal((await send(url, assertionForm('client-a', await assertion({ jti })))).status, 200);
  });

  it('answers an unknown client exactly like a wrong key: 401 invalid_client, without saying which', async () => {
    const unknown = await send(url, assertionForm('nobody', await assertion({}, keyA, 'nobody')));
    assert.equal(unknown.status, 401);
    assert.deepEqual(unknown.body, AUTH_FAILED);
    assert.equal(unknown.headers.get('cache-control'), 'no-store');
    const header = b64json({ alg: 'none' });
    for (const clientId of ['client-a', 'nobody']) {
      const unsigned = `${header}.${b64json({ iss: clientId, sub: clientId, aud: url, exp: Math.floor(clock.now() / 1000) + 60, jti: randomUUID() })}.`;
      const res = await send(url, assertionForm(clientId, unsigned));
      assert.deepEqual([res.status, res.body.error_description], [400, 'Invalid client assertion: the signature algorithm must be RS256, not none.'], clientId);
    }
  });

  it('refuses malformed requests with invalid_request or unsupported_grant_type, never a text error', async () => {
    const good = () => assertion().then((a) => assertionForm('client-a', a));
    const without = async (name: string) => {
      const form = await good();
      form.delete(name);
      return form;
    };
    const cases: Array<{ name: string; request: () => Promise<Awaited<ReturnType<typeof send>>>; status: number; body: object }> = [
      {
        name: 'wrong grant type',
        request: async () => send(url, (await good()).toString().replace('grant_type=client_credentials', 'grant_type=password')),
        status: 400,
        body: { error: 'unsupported_grant_type', error_description: 'grant_type "password" is not supported; use client_credentials.' },
      },
      { name: 'missing grant_type', request: async () => send(url, await without('grant_type')), status: 400, body: { error: 'invalid_request', error_description: 'grant_type is required; use grant_type=client_credentials.' } },
      { name: 'missing client_id', request: async () => send(url, await without('client_id')), status: 400, body: { error: 'invalid_request', error_description: 'client_id is required.' } },
      {
        name: 'missing client_assertion',
        request: async () => send(url, await without('client_assertion')),
        status: 400,
        body: { error: 'invalid_request', error_description: "client_assertion is required: a JWT signed with the client's private key." },
      },
      {
        name: 'missing client_assertion_type',
        request: async () => send(url, await without('client_assertion_type')),
        status: 400,
        body: { error: 'invalid_request', error_description: 'client_assertion_type must be urn:ietf:params:oauth:client-assertion-type:jwt-bearer.' },
      },
      {
        name: 'no client authentication',
        request: () => send(url, 'grant_type=client_credentials&client_id=client-a'),
        status: 400,
        body: { error: 'invalid_request', error_description: 'No client authentication: send client_assertion (with client_assertion_type), or a client secret as client_secret or HTTP Basic.' },
      },
      {
        name: 'repeated parameter',
        request: async () => send(url, `${(await good()).toString()}&client_id=client-a`),
        status: 400,
        body: { error: 'invalid_request', error_description: 'The parameter "client_id" is repeated; send each parameter once.' },
      },
      {
        name: 'JSON body',
        request: async () => {
          clock.advance(1000);
          return call(url, { json: Object.fromEntries(await good()) });
        },
        status: 400,
        body: { error: 'invalid_request', error_description: 'Send the token request as application/x-www-form-urlencoded, not application/json.' },
      },
      {
        name: 'text body',
        request: async () => send(url, await good(), { 'content-type': 'text/plain;charset=UTF-8' }),
        status: 400,
        body: { error: 'invalid_request', error_description: 'Send the token request as application/x-www-form-urlencoded, not text/plain.' },
      },
      {
        name: 'body too large',
        request: async () => send(url, `${(await good()).toString()}&padding=${'x'.repeat(20_000)}`),
        status: 413,
        body: { error: 'invalid_request', error_description: 'The request body is larger than the limit of 16384 bytes.' },
      },
      {
        name: 'unknown realm',
        request: async () => send(tokenUrl(server.url, 'no-such-tenant'), await good()),
        status: 404,
        body: { error: 'invalid_request', error_description: 'No realm "no-such-tenant": use a tenant id, or "master" for the older APIs.' },
      },
    ];
    for (const bad of cases) {
      const res = await bad.request();
      assert.equal(res.status, bad.status, bad.name);
      assert.deepEqual(res.body, bad.body, bad.name);
      assert.equal(res.headers.get('cache-control'), 'no-store', bad.name);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/, bad.name);
    }
    assert.equal((await send(url, await good())).status, 200);
  });

  it('keeps each account to its realm: tenant accounts to their tenant, master accounts to master', async () => {
    const masterUrl = tokenUrl(server.url, 'master');
    const legacyOnTenant = await send(url, assertionForm('client-a-legacy', await assertion({}, keyA, 'client-a-legacy')));
    assert.equal(legacyOnTenant.status, 400);
    assert.deepEqual(legacyOnTenant.body, {
      error: 'unauthorized_client',
      error_description: 'Client "client-a-legacy" belongs to realm "master"; request its tokens at /auth/realms/master/protocol/openid-connect/token.',
    });
    const tenantOnMaster = await send(masterUrl, assertionForm('client-a', await signAssertion({ key: keyA, clientId: 'client-a', aud: masterUrl, nowMs: clock.now() + 1000 })));
    assert.equal(tenantOnMaster.status, 400);
    assert.deepEqual(tenantOnMaster.body, {
      error: 'unauthorized_client',
      error_description: 'Client "client-a" belongs to realm "tenant-a"; request its tokens at /auth/realms/tenant-a/protocol/openid-connect/token.',
    });
    const b = await send(url, assertionForm('client-b', await signAssertion({ key: keyB, clientId: 'client-b', aud: url, nowMs: clock.now() + 1000 })));
    assert.equal(b.body.error, 'unauthorized_client');
    const legacy = await send(masterUrl, assertionForm('client-a-legacy', await signAssertion({ key: keyA, clientId: 'client-a-legacy', aud: masterUrl, nowMs: clock.now() + 1000 })));
    assert.equal(legacy.status, 200);
    const claims = decodeJwt(legacy.body.access_token);
    assert.equal(claims.realm, 'master');
    assert.equal(claims.tenant, 'tenant-a');
    assert.equal(claims.iss, `${server.url}/auth/realms/master`);
  });

  it('accepts the password method as client_secret_post or HTTP Basic, and refuses a wrong secret like an unknown client', async () => {
    const form = 'grant_type=client_credentials&client_id=client-a-secret&client_secret=s3cret';
    const posted = await send(url, form);
    assert.equal(posted.status, 200);
    assert.equal(decodeJwt(posted.body.access_token).sub, 'client-a-secret');
    const basic = (id: string, secret: string) => ({ authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}` });
    const viaBasic = await send(url, 'grant_type=client_credentials', basic('client-a-secret', 's3cret'));
    assert.equal(viaBasic.status, 200);
    for (const [id, secret] of [['client-a-secret', 'wrong'], ['nobody', 's3cret'], ['client-a', 's3cret']] as const) {
      const refused = await send(url, 'grant_type=client_credentials', basic(id, secret));
      assert.equal(refused.status, 401, `${id}:${secret}`);
      assert.deepEqual(refused.body, AUTH_FAILED);
      assert.equal(refused.headers.get('www-authenticate'), 'Basic realm="token endpoint", charset="UTF-8"');
    }
    const wrongPost = await send(url, form.replace('s3cret', 'wrong'));
    assert.deepEqual([wrongPost.status, wrongPost.body], [401, AUTH_FAILED]);
    const assertionForSecretAccount = await send(url, assertionForm('client-a-secret', await assertion({}, keyA, 'client-a-secret')));
    assert.deepEqual([assertionForSecretAccount.status, assertionForSecretAccount.body], [401, AUTH_FAILED]);
    const both = await send(url, form, basic('client-a-secret', 's3cret'));
    assert.deepEqual(both.body, { error: 'invalid_request', error_description: 'Use exactly one client authentication method: an assertion, client_secret, or HTTP Basic.' });
  });

  it('answers a client\'s 11th token inside one second with 429 and Retry-After, leaving other clients alone', async () => {
    clock.advance(5000);
    for (let i = 0; i < 10; i++) {
      const res = await postForm(url, assertionForm('client-a', await assertion()));
      assert.equal(res.status, 200, `request ${i + 1}`);
    }
    const limited = await postForm(url, assertionForm('client-a', await assertion()));
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get('retry-after'), '1');
    assert.equal(limited.headers.get('cache-control'), 'no-store');
    assert.deepEqual(limited.body, {
      error: 'slow_down',
      error_description: 'More than 10 token requests in one second; retry in 1 s, and cache tokens until they expire.',
    });
    const otherRealm = tokenUrl(server.url, 'tenant-b');
    const b = await postForm(otherRealm, assertionForm('client-b', await signAssertion({ key: keyB, clientId: 'client-b', aud: otherRealm, nowMs: clock.now() })));
    assert.equal(b.status, 200);
    clock.advance(1000);
    assert.equal((await postForm(url, assertionForm('client-a', await assertion()))).status, 200);
  });

  it('counts failures per source address: junk from another address, under any client id, never blocks a client that signs correctly', async () => {
    clock.advance(5000);
    // The attacker sends from 127.0.0.2 (still the loopback interface), the real client from 127.0.0.1.
    const fromAttacker = (form: URLSearchParams | string) => postFormFrom('127.0.0.2', url, form.toString());
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const clientId = ['client-a', 'nobody', `junk-${i}`][i % 3]!;
      statuses.push((await fromAttacker(assertionForm(clientId, await assertion({}, keyB, clientId)))).status);
      if (i % 3 === 0) {
        const real = await postForm(url, assertionForm('client-a', await assertion()));
        assert.equal(real.status, 200, `real client after ${i + 1} junk requests`);
      }
    }
    assert.deepEqual(statuses.slice(0, 10), Array(10).fill(401));
    assert.deepEqual(statuses.slice(10), Array(20).fill(429));
    // The victim's id on another realm, junk included, changes nothing either.
    const otherRealm = tokenUrl(server.url, 'tenant-b');
    for (let i = 0; i < 12; i++) await postFormFrom('127.0.0.3', otherRealm, assertionForm('client-a', 'x.y.z').toString());
    clock.advance(1000);
    assert.equal((await postForm(url, assertionForm('client-a', await assertion()))).status, 200);
  });
});
