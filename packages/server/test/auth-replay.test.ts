// An assertion is accepted once: not twice at the same moment, and not again after a restart (the
// accepted ids are on disk before the token is issued).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CryptoKey } from 'jose';
import { ManualClock } from '../src/platform/clock.js';
import { assertionForm, postForm, privateKeyOf, signAssertion, tokenUrl } from './support/auth-helpers.js';
import { makeDataDir, startTestServer, testConfig, type TestServer } from './support/test-server.js';

// A fixed public URL keeps the token endpoint (the assertion's audience) the same across restarts.
const PUBLIC_URL = 'https://discovery.test';
const AUDIENCE = tokenUrl(PUBLIC_URL, 'tenant-a');

describe('assertion replay', () => {
  const clock = new ManualClock();
  let dataDir: string;
  let server: TestServer;
  let key: CryptoKey;

  before(async () => {
    dataDir = await makeDataDir();
    server = await startTestServer({ clock, dataDir, config: testConfig({ publicUrl: PUBLIC_URL }) });
    key = await privateKeyOf('client-a');
  });
  after(async () => server.cleanup());

  const send = (assertion: string) => postForm(tokenUrl(server.url, 'tenant-a'), assertionForm('client-a', assertion));

  it('accepts one of two simultaneous requests with the same assertion', async () => {
    clock.advance(2_000);
    const assertion = await signAssertion({ key, clientId: 'client-a', aud: AUDIENCE, nowMs: clock.now() });
    const answers = await Promise.all([send(assertion), send(assertion), send(assertion)]);
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 400, 400]);
    const refused = answers.find((a) => a.status === 400)!;
    assert.match(JSON.stringify(refused.body), /already used/);
  });

  it('refuses an assertion after a restart when it was accepted before it', async () => {
    clock.advance(2_000);
    const assertion = await signAssertion({ key, clientId: 'client-a', aud: AUDIENCE, nowMs: clock.now() });
    assert.equal((await send(assertion)).status, 200);
    await server.close();
    server = await startTestServer({ clock, dataDir, config: testConfig({ publicUrl: PUBLIC_URL }) });
    clock.advance(2_000);
    const again = await send(assertion);
    assert.equal(again.status, 400);
    assert.match(JSON.stringify(again.body), /already used/);
    // A fresh assertion still works on the restarted server.
    assert.equal((await send(await signAssertion({ key, clientId: 'client-a', aud: AUDIENCE, nowMs: clock.now() }))).status, 200);
  });
});
