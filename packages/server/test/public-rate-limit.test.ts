/** Per-address and per-key rate limits of the public APIs, over a real server and real sockets from two loopback addresses. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { ManualClock } from '../src/platform/clock.js';
import { call, startTestServer, testConfig, type TestServer } from './support/test-server.js';

/** POST JSON from a chosen loopback address, so that one test plays two visitors. */
function postFrom(localAddress: string, url: string, body: unknown): Promise<{ status: number; retryAfter: string | undefined }> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', localAddress, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] as string | undefined }));
    });
    req.on('error', reject);
    req.end(text);
  });
}

const view = (n: number) => ({ id: `rl-${n}`, action: 'view', target: { product: 'p1' }, user: { sessionId: 's1' } });

describe('public rate limits', () => {
  const clock = new ManualClock(Date.UTC(2026, 10, 24));
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ clock, config: testConfig({ publicRateLimits: { perAddress: { perSecond: 5, burst: 10 }, perKey: { perSecond: 10, burst: 15 } } }) });
  });
  after(() => server.cleanup());

  it('refuses an address past its burst with 429 and Retry-After, while another address goes on', async () => {
    const url = `${server.url}/collect/tenant-a-tracker`;
    const statuses: number[] = [];
    for (let n = 0; n < 12; n++) statuses.push((await postFrom('127.0.0.1', url, view(n))).status);
    assert.deepEqual(statuses, [...Array(10).fill(200), 429, 429]);
    const refused = await call(url, { json: view(99) });
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('retry-after'), '1');
    assert.equal(refused.body.error.code, 'rate_limited');
    // Other endpoints share the address's bucket: search and recommendations are refused too.
    assert.equal((await call(`${server.url}/search`, { json: { token: 'tenant-a-search', query: 'x' } })).status, 429);
    assert.equal((await call(`${server.url}/widget/tenant-a-popular/recommendations`)).status, 429);
    assert.equal((await postFrom('127.0.0.2', url, view(100))).status, 200);
    // Tokens come back with time: 5 a second.
    clock.advance(1000);
    const later: number[] = [];
    for (let n = 0; n < 6; n++) later.push((await postFrom('127.0.0.1', url, view(200 + n))).status);
    assert.deepEqual(later, [200, 200, 200, 200, 200, 429]);
  });

  it('refuses a key past its own burst from many addresses, leaving other keys alone', async () => {
    clock.advance(60_000);
    const statuses: number[] = [];
    for (let n = 0; n < 16; n++) statuses.push((await postFrom(`127.0.1.${n + 1}`, `${server.url}/collect/tenant-b-tracker`, view(300 + n))).status);
    assert.deepEqual(statuses, [...Array(15).fill(200), 429]);
    assert.equal((await postFrom('127.0.2.1', `${server.url}/collect/tenant-a-tracker`, view(400))).status, 200);
  });
});

describe('public rate limits behind a reverse proxy', () => {
  const clock = new ManualClock(Date.UTC(2026, 10, 24));
  const limits = { perAddress: { perSecond: 1, burst: 3 }, perKey: { perSecond: 100, burst: 100 } };
  let direct: TestServer;
  let proxied: TestServer;
  before(async () => {
    direct = await startTestServer({ clock, config: testConfig({ publicRateLimits: limits }) });
    proxied = await startTestServer({ clock, config: testConfig({ publicRateLimits: limits, trustedProxies: 1 }) });
  });
  after(async () => {
    await direct.cleanup();
    await proxied.cleanup();
  });

  const from = (server: TestServer, forwardedFor: string, n: number) =>
    call(`${server.url}/collect/tenant-a-tracker`, { json: view(n), headers: { 'x-forwarded-for': forwardedFor } }).then((r) => r.status);

  it('counts each shopper the proxy names, and ignores what a client wrote to the left of it', async () => {
    const shopperA: number[] = [];
    for (let n = 0; n < 4; n++) shopperA.push(await from(proxied, `10.9.9.9, 203.0.113.${n}, 198.51.100.7`, n));
    // The proxy's entry (rightmost) is the client: forged entries before it change nothing.
    assert.deepEqual(shopperA, [200, 200, 200, 429]);
    assert.equal(await from(proxied, '198.51.100.8', 10), 200);
  });

  it('ignores X-Forwarded-For when no proxy is trusted, so a forged header cannot buy a fresh bucket', async () => {
    const statuses: number[] = [];
    for (let n = 0; n < 4; n++) statuses.push(await from(direct, `198.51.100.${n}`, 20 + n));
    assert.deepEqual(statuses, [200, 200, 200, 429]);
  });
});
