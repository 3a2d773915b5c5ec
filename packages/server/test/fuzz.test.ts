/** Seeded fuzzing of the public endpoints over a real server: no request may get a 5xx, and the server stays responsive. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fuzzRequest, seededRandom } from './support/fuzz-requests.js';
import { startTestServer, testConfig } from './support/test-server.js';

const REQUESTS = 1000;

describe('fuzzed requests', () => {
  it(`answers ${REQUESTS} seeded random requests without a 5xx`, { timeout: 120_000 }, async () => {
    // Rate limits are tested on their own; here they would only turn the fuzz into 429s.
    const server = await startTestServer({ config: testConfig({ publicRateLimits: { enabled: false } }) });
    try {
      const rng = seededRandom(20261124);
      const failures: string[] = [];
      const statuses = new Map<number, number>();
      const send = async () => {
        const request = fuzzRequest(rng);
        const res = await fetch(`${server.url}${request.path}`, { method: request.method, headers: request.headers, body: request.method === 'GET' || request.method === 'HEAD' ? undefined : request.body });
        await res.arrayBuffer();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status >= 500) failures.push(`${res.status} ${request.method} ${request.path.slice(0, 200)} ${(request.body ?? '').slice(0, 300)}`);
      };
      for (let sent = 0; sent < REQUESTS; sent += 8) await Promise.all(Array.from({ length: 8 }, send));
      assert.deepEqual([...new Set(failures.map((f) => f.slice(0, 160)))].slice(0, 20), []);
      // The fuzz reached the handlers: most requests are refused as bad input, many are answered.
      assert.ok((statuses.get(400) ?? 0) > REQUESTS / 10, JSON.stringify([...statuses]));
      assert.ok((statuses.get(200) ?? 0) > REQUESTS / 20, JSON.stringify([...statuses]));
      const health = await fetch(`${server.url}/health`);
      assert.equal(health.status, 200);
    } finally {
      await server.cleanup();
    }
  });
});
