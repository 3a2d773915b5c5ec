/**
 * Request bounds (config `limits`, platform/http-limits.ts): a body or headers trickled slower than the
 * timeouts are cut, and connections past the per-process cap are closed as they arrive. The timeouts
 * are made small here so that the test takes seconds; the defaults are tens of seconds.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { once } from 'node:events';
import { call, startTestServer, testConfig, type TestServer } from './support/test-server.js';

interface Exchange {
  socket: Socket;
  /** Everything the server sent so far. */
  received: () => string;
  /** Resolves with the milliseconds from connecting to the server closing the connection. */
  closed: Promise<number>;
}

async function open(server: TestServer): Promise<Exchange> {
  const { port } = new URL(server.url);
  const started = performance.now();
  const socket = connect(Number(port), '127.0.0.1');
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = once(socket, 'close').then(() => performance.now() - started);
  await once(socket, 'connect');
  return { socket, received: () => text, closed };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Writes one byte at a time, `everyMs` apart, until the socket is closed or `bytes` are sent. */
async function trickle(socket: Socket, bytes: string, everyMs: number): Promise<number> {
  let sent = 0;
  for (const byte of bytes) {
    if (socket.destroyed || socket.writableEnded) break;
    socket.write(byte);
    sent++;
    await sleep(everyMs);
  }
  return sent;
}

const activity = JSON.stringify({ action: 'view', target: { product: 'p-1' }, user: { sessionId: 'slow' } });
const head = (length: number) => `POST /collect/tenant-a-tracker HTTP/1.1\r\nHost: test\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

describe('request bounds', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ config: testConfig({ limits: { headersTimeoutSeconds: 0.5, requestTimeoutSeconds: 1.5 } }) });
  });
  after(() => server.cleanup());

  it('closes a connection whose body is trickled one byte at a time, answering 408', async () => {
    const slow = await open(server);
    slow.socket.write(head(100_000));
    const sent = await trickle(slow.socket, 'x'.repeat(100_000), 100);
    const ms = await slow.closed;
    assert.ok(ms < 5_000, `closed after ${Math.round(ms)} ms`);
    assert.ok(sent < 60, `${sent} bytes were taken before the cut`);
    assert.match(slow.received(), /^HTTP\/1\.1 408 /);
    // The server still answers everyone else.
    assert.equal((await call(`${server.url}/health`)).status, 200);
  });

  it('closes a connection whose headers are trickled', async () => {
    const slow = await open(server);
    const sent = await trickle(slow.socket, `GET /health HTTP/1.1\r\n${'X-Slow: 1\r\n'.repeat(200)}\r\n`, 50);
    const ms = await slow.closed;
    assert.ok(ms < 4_000, `closed after ${Math.round(ms)} ms`);
    assert.ok(sent < 100, `${sent} bytes were taken before the cut`);
  });

  it('takes a body that arrives in a few parts within the bound', async () => {
    const ok = await open(server);
    ok.socket.write(head(Buffer.byteLength(activity)));
    ok.socket.write(activity.slice(0, 10));
    await sleep(200);
    ok.socket.write(activity.slice(10));
    await ok.closed;
    assert.match(ok.received(), /^HTTP\/1\.1 200 /);
  });
});

describe('connection cap', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ config: testConfig({ limits: { maxConnections: 4 } }) });
  });
  after(() => server.cleanup());

  it('closes connections past maxConnections at once, and takes new ones when others end', async () => {
    const held = await Promise.all(Array.from({ length: 4 }, () => open(server)));
    const extra = await open(server);
    const ms = await extra.closed;
    assert.ok(ms < 2_000, `the fifth connection was closed after ${Math.round(ms)} ms`);
    assert.equal(extra.received(), '');
    for (const { socket } of held) assert.equal(socket.destroyed, false);
    for (const { socket } of held) socket.destroy();
    await Promise.all(held.map((h) => h.closed));
    await sleep(50);
    assert.equal((await call(`${server.url}/health`)).status, 200);
  });
});
