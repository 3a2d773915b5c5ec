/** The token helper: what it signs, how long it caches, and how it backs off on 429. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPair, exportPKCS8, jwtVerify, type CryptoKey } from 'jose';
import { createTokenProvider, retryDelayMs, TokenRequestError } from '../src/index.js';

const TOKEN_URL = 'https://discovery.example/auth/realms/shop/protocol/openid-connect/token';

async function keyPair(): Promise<{ pem: string; publicKey: CryptoKey }> {
  const pair = await generateKeyPair('RS256', { extractable: true });
  return { pem: await exportPKCS8(pair.privateKey), publicKey: pair.publicKey };
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

describe('createTokenProvider', () => {
  it('signs an RS256 assertion for the token endpoint and caches the token until shortly before it expires', async () => {
    const { pem, publicKey } = await keyPair();
    let clock = 1_800_000_000_000;
    const requests: URLSearchParams[] = [];
    const fakeFetch = (async (_url: string | URL | Request, init?: RequestInit) => {
      requests.push(new URLSearchParams(String(init?.body)));
      return json(200, { access_token: `token-${requests.length}`, expires_in: 300, token_type: 'bearer', 'not-before-policy': 0 });
    }) as typeof fetch;
    const provider = createTokenProvider({ tokenUrl: TOKEN_URL, clientId: 'shop-backoffice', privateKeyPem: pem, fetch: fakeFetch, now: () => clock });
    const [first, concurrent] = await Promise.all([provider.getToken(), provider.getToken()]);
    assert.equal(first, 'token-1');
    assert.equal(concurrent, 'token-1');
    assert.equal(requests.length, 1);
    const form = requests[0]!;
    assert.equal(form.get('grant_type'), 'client_credentials');
    assert.equal(form.get('client_id'), 'shop-backoffice');
    assert.equal(form.get('client_assertion_type'), 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
    const { payload, protectedHeader } = await jwtVerify(form.get('client_assertion')!, publicKey, { currentDate: new Date(clock) });
    assert.equal(protectedHeader.alg, 'RS256');
    assert.equal(payload.iss, 'shop-backoffice');
    assert.equal(payload.sub, 'shop-backoffice');
    assert.equal(payload.aud, TOKEN_URL);
    assert.equal(payload.exp! - payload.iat!, 60);
    assert.equal(typeof payload.jti, 'string');

    clock += 269_000;
    assert.equal(await provider.authorization(), 'Bearer token-1');
    clock += 2_000;
    assert.equal(await provider.getToken(), 'token-2');
    provider.invalidate();
    assert.equal(await provider.getToken(), 'token-3');
    assert.notEqual(requests[1]!.get('client_assertion'), requests[0]!.get('client_assertion'));
  });

  it('retries 429 after Retry-After with a fresh assertion, and reports other refusals', async () => {
    const { pem } = await keyPair();
    const waits: number[] = [];
    const answers = [json(429, { error: 'slow_down', error_description: 'later' }, { 'retry-after': '2' }), json(200, { access_token: 'ok', expires_in: 300 })];
    const assertions: string[] = [];
    const fakeFetch = (async (_url: string | URL | Request, init?: RequestInit) => {
      assertions.push(new URLSearchParams(String(init?.body)).get('client_assertion')!);
      return answers.shift()!;
    }) as typeof fetch;
    const sleep = async (ms: number) => {
      waits.push(ms);
    };
    const provider = createTokenProvider({ tokenUrl: TOKEN_URL, clientId: 'c', privateKeyPem: pem, fetch: fakeFetch, sleep });
    assert.equal(await provider.getToken(), 'ok');
    assert.equal(waits.length, 1);
    assert.ok(waits[0]! >= 2000);
    assert.notEqual(assertions[0], assertions[1]);

    const refusing = createTokenProvider({
      tokenUrl: TOKEN_URL,
      clientId: 'c',
      privateKeyPem: pem,
      sleep,
      maxRetries: 1,
      fetch: (async () => json(429, { error: 'slow_down', error_description: 'too many' }, { 'retry-after': '1' })) as typeof fetch,
    });
    await assert.rejects(refusing.getToken(), (error: unknown) => error instanceof TokenRequestError && error.status === 429 && error.error === 'slow_down');
    const invalid = createTokenProvider({ tokenUrl: TOKEN_URL, clientId: 'c', privateKeyPem: pem, fetch: (async () => json(401, { error: 'invalid_client', error_description: 'no' })) as typeof fetch });
    await assert.rejects(invalid.getToken(), { name: 'TokenRequestError', message: 'Token request failed (401 invalid_client): no' });
  });

  it('waits at least the back-off, longer when Retry-After asks for it', () => {
    assert.ok(retryDelayMs(null, 0, 0) >= 500);
    assert.ok(retryDelayMs(null, 3, 0) >= 4000);
    assert.ok(retryDelayMs('5', 0, 0) === 5000);
    assert.equal(retryDelayMs(new Date(60_000).toUTCString(), 0, 0), 60_000);
  });
});
