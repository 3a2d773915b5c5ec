/**
 * `npm run bench -- fuzz`: 100,000 seeded random requests (FUZZ_REQUESTS to change it, FUZZ_SEED for
 * another sequence) against a real server, rate limits off; counts answers by status. Any 5xx is
 * listed with its request, so that it can be replayed from the seed.
 */
import { rm } from 'node:fs/promises';
import type { Benchmark, BenchResult } from './run.js';
import { fuzzRequest, seededRandom } from '../packages/server/test/support/fuzz-requests.js';
import { startTestServer, testConfig } from '../packages/server/test/support/test-server.js';

const benchmark: Benchmark = async (): Promise<BenchResult> => {
  const total = Number(process.env.FUZZ_REQUESTS ?? 100_000);
  const seed = Number(process.env.FUZZ_SEED ?? 16);
  const server = await startTestServer({ config: testConfig({ publicRateLimits: { enabled: false } }) });
  const rng = seededRandom(seed);
  const statuses = new Map<number, number>();
  const failures: string[] = [];
  const started = performance.now();
  let sent = 0;
  let resets = 0;
  const worker = async () => {
    while (sent < total) {
      sent++;
      const request = fuzzRequest(rng);
      let res: Response;
      try {
        res = await fetch(`${server.url}${request.path}`, { method: request.method, headers: request.headers, body: request.method === 'GET' ? undefined : request.body });
        await res.arrayBuffer();
      } catch (error) {
        // A connection the server closed without an answer: counted apart, with the request, to be looked at.
        resets++;
        if (failures.length < 20) failures.push(`no answer (${String((error as Error).cause ?? error)}) ${request.method} ${request.path.slice(0, 160)} ${(request.body ?? '').length} bytes`);
        continue;
      }
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status >= 500 && failures.length < 20) failures.push(`${res.status} ${request.method} ${request.path.slice(0, 160)} ${(request.body ?? '').slice(0, 200)}`);
      if (sent % 10_000 === 0) console.error(`  ${sent} requests`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  const seconds = (performance.now() - started) / 1000;
  const health = await fetch(`${server.url}/health`);
  await server.close();
  await rm(server.dataDir, { recursive: true, force: true });
  const fiveHundreds = [...statuses].filter(([status]) => status >= 500).reduce((sum, [, n]) => sum + n, 0);
  return {
    name: 'fuzz',
    rows: [
      { case: `seed ${seed}`, requests: total, '5xx': fiveHundreds, 'no answer': resets, 'health after': health.status, seconds: Math.round(seconds) },
      ...[...statuses].sort(([a], [b]) => a - b).map(([status, n]) => ({ case: `status ${status}`, requests: n, '5xx': status >= 500 ? n : 0, 'no answer': '', 'health after': '', seconds: '' })),
    ],
    notes: failures,
  };
};

export default benchmark;
