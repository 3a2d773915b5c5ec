/**
 * The server for the reliability bench, in a process of its own so that its RSS is its own: prints
 * `{url, startMs}` once listening; answers each `mem` line on stdin with its memory after a full GC.
 */
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import { createDiscoveryServer } from '../packages/server/src/app/server.js';
import { validateConfig } from '../packages/server/src/platform/config/load.js';
import { createLogger } from '../packages/server/src/platform/logger.js';

const dataDir = process.argv[2]!;
const started = performance.now();
const config = validateConfig(
  {
    tenants: [{ id: 'bench', identityRepositories: ['customer-id'], environments: [{ id: 'prod', trackerKeys: ['bench-key'] }] }],
    // One load generator plays every shopper from one address: the limits would measure themselves.
    publicRateLimits: { enabled: false },
  },
  '(bench)',
  tmpdir(),
);
const server = await createDiscoveryServer({ config, dataDir, logger: createLogger('silent') });
const { url } = await server.listen(0);
process.stdout.write(`${JSON.stringify({ url, startMs: Math.round(performance.now() - started) })}\n`);
const gc = (globalThis as { gc?: () => void }).gc;
for await (const line of createInterface({ input: process.stdin })) {
  if (line !== 'mem') continue;
  gc?.();
  const { heapUsed, rss } = process.memoryUsage();
  process.stdout.write(`${JSON.stringify({ heapMb: Math.round(heapUsed / 2 ** 20), rssMb: Math.round(rss / 2 ** 20), peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024) })}\n`);
}
await server.close();
