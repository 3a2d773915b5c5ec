/**
 * A profile's activity history past the newest 500 (issue 15): the first page comes from memory, a
 * page beyond comes from the activity log. Measured over a 1,000,000-activity log in which one shopper
 * has 2,000 activities, with the in-memory first page as the same-run baseline.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Benchmark, BenchResult } from './run.js';
import { measure, round } from './harness.js';
import { createDiscoveryServer } from '../packages/server/src/app/server.js';
import { validateConfig } from '../packages/server/src/platform/config/load.js';
import { createLogger } from '../packages/server/src/platform/logger.js';

const LOGGED = 1_000_000;
const DEEP = 2_000;

const config = () => validateConfig({ tenants: [{ id: 'bench', environments: [{ id: 'prod', trackerKeys: ['bench-key'] }] }] }, '(bench)', tmpdir());

async function writeLog(dataDir: string): Promise<void> {
  const dir = join(dataDir, 'activities', 'bench');
  await mkdir(dir, { recursive: true });
  const start = Date.now() - 20 * 24 * 60 * 60 * 1000;
  const out = createWriteStream(join(dir, 'segment-000001.jsonl'));
  const every = LOGGED / DEEP;
  for (let i = 0; i < LOGGED; i++) {
    const at = start + i * 1700;
    const profile = i % every === 0 ? 'p_deep' : `p_${i % 20_000}`;
    const line = `{"kind":"activity","id":"a_${i.toString(36)}","tenant":"bench","profileId":"${profile}","source":"collect","verb":"${i % 7 === 0 ? 'add-to-cart' : 'view'}","type":"product","itemId":"sku-${(i * 7919) % 5000}","timestamp":${at},"receivedAt":${at}}\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

const benchmark: Benchmark = async (): Promise<BenchResult> => {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-history-'));
  await writeLog(dataDir);
  const server = await createDiscoveryServer({ config: config(), dataDir, logger: createLogger('silent') });
  const activities = server.deps.services.activities;
  const rows: BenchResult['rows'] = [];
  try {
    const first = await activities.historyPage('bench', 'p_deep', {}, { offset: 0, limit: 100 });
    const memory = await measure(200, () => activities.historyPage('bench', 'p_deep', {}, { offset: 0, limit: 100 }), 20);
    // The first deep page reads the log; later pages of the same shopper reuse that read until they act again.
    const uncached: number[] = [];
    const cpuBefore = process.cpuUsage();
    let last = first;
    for (const verbs of [undefined, ['view'], ['add-to-cart']]) {
      const started = performance.now();
      last = await activities.historyPage('bench', 'p_deep', verbs === undefined ? {} : { verbs }, { offset: 1_500, limit: 100 });
      uncached.push(performance.now() - started);
    }
    const cpu = process.cpuUsage(cpuBefore);
    const cpuMs = (cpu.user + cpu.system) / 1000 / 3;
    const cached = await measure(50, (i) => activities.historyPage('bench', 'p_deep', {}, { offset: 500 + (i % 15) * 100, limit: 100 }), 1);
    rows.push({ case: 'page 1 (newest 100, memory) — baseline', 'total reported': first.total, 'median ms': memory.medianMs, 'p99 ms': memory.p99Ms });
    rows.push({ case: 'page 16 (read from the log, 3 filters, uncached)', 'total reported': '-', 'median ms': round(uncached.sort((a, b) => a - b)[1]!, 1), 'p99 ms': round(uncached[2]!, 1), 'CPU ms per read': round(cpuMs, 1) });
    rows.push({ case: 'pages 6-20 (same shopper again, cached)', 'total reported': '-', 'median ms': cached.medianMs, 'p99 ms': cached.p99Ms });
    return {
      name: 'Tracker history past the newest 500',
      rows,
      notes: [`${LOGGED.toLocaleString('en')} logged activities (one 150 MB segment), one shopper with ${DEEP.toLocaleString('en')}; the last filtered page returned ${last.activities.length} activities (total ${last.total}).`],
    };
  } finally {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
};

export default benchmark;
