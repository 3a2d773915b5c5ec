/** What reaches the request log: route patterns, never the e-mail addresses, customer ids or client ids a request carried. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { createDiscoveryServer } from '../src/app/server.js';
import { validateConfig } from '../src/platform/config/load.js';
import { FIXTURES, call, makeDataDir, testConfig } from './support/test-server.js';
import { assertionForm, postForm, tokenUrl } from './support/auth-helpers.js';

describe('log privacy', () => {
  it('logs routes instead of paths, and no unknown client id verbatim', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const dataDir = await makeDataDir();
    const server = await createDiscoveryServer({ config: validateConfig(testConfig(), '(test)', FIXTURES), dataDir, logger: pino({ level: 'info' }, sink) });
    const { url } = await server.listen(0);
    try {
      await call(`${url}/widget/tenant-a-popular/recommendations/crm/jane.doe@example.com/1/photo.png`, { redirect: 'manual' });
      await call(`${url}/tracker/tenant-a-tracker/profiles/p_secretprofile/activities`);
      await call(`${url}/nothing-here/jane.doe@example.com`, { headers: { 'x-request-id': 'trace-me-123' } });
      await postForm(tokenUrl(url, 'tenant-a'), assertionForm('my-secret-password-in-the-id-field', 'a.b.c'));
      await postForm(tokenUrl(url, 'tenant-a'), 'grant_type=client_credentials&client_id=nobody-here&client_secret=wrong', { 'x-request-id': 'token-req-7' });
      await server.close();
      const log = lines.join('');
      assert.ok(log.includes('/widget/:widgetId/recommendations'), log);
      for (const secret of ['jane.doe', 'p_secretprofile', 'my-secret-password-in-the-id-field']) assert.ok(!log.includes(secret), `${secret} reached the log`);
      // One line per request, carrying the id the response echoed.
      const requests = log.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as { msg?: string; requestId?: string; route?: string; status?: number });
      const own = requests.filter((line) => line.msg === 'request' && line.requestId === 'trace-me-123');
      assert.deepEqual(own.map((line) => [line.route, line.status]), [['/nothing-here/…', 404]]);
      // A handler's own lines (ctx.state.log) carry the request's id too.
      const token = requests.filter((line) => line.requestId === 'token-req-7').map((line) => line.msg);
      assert.deepEqual(token.sort(), ['request', 'token request refused'], JSON.stringify(token));
    } finally {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
