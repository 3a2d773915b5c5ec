/**
 * kill -9 during catalog batches: a batch is on disk whole or not at all (never some of its shard
 * files), a truncated store file stops the start with an error naming it, and stale temporary files
 * left by a crash are removed at the next start.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { watch } from 'node:fs';
import { readdir, rm, writeFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { assertionForm, postForm, privateKeyOf, signAssertion, tokenUrl } from './support/auth-helpers.js';
import { PRODUCT_SCHEMA } from './catalog/catalog-fixture.js';
import { call, makeDataDir, startTestServer } from './support/test-server.js';

const CHILD = fileURLToPath(new URL('./support/tracking-child.ts', import.meta.url));
const BATCH = 2500;

async function startChild(dataDir: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  const [line] = (await once(lines, 'line')) as [string];
  return { child, url: (JSON.parse(line) as { url: string }).url };
}

async function tokenAt(url: string): Promise<string> {
  const endpoint = tokenUrl(url, 'tenant-a');
  const res = await postForm(endpoint, assertionForm('client-a', await signAssertion({ key: await privateKeyOf('client-a'), clientId: 'client-a', aud: endpoint, nowMs: Date.now() })));
  assert.equal(res.status, 200);
  return res.body.access_token as string;
}

function items(batch: number) {
  return Array.from({ length: BATCH }, (_, i) => ({ id: `b${batch}-${i}`, catalogVersion: 1, type: 'product', attributes: { title: `Item ${i} of batch ${batch}`, price: i } }));
}

/** Items per batch number in the catalog's shard files on disk. */
async function storedBatches(dataDir: string): Promise<Map<number, number>> {
  const dir = join(dataDir, 'documents', 'tenants', 'tenant-a', 'envs', 'prod', 'catalog', '1');
  const counts = new Map<number, number>();
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (!/^items-\d+\.json$/.test(name)) continue;
    const shard = JSON.parse(await readFile(join(dir, name), 'utf8')) as { items: Record<string, unknown> };
    for (const key of Object.keys(shard.items)) {
      const batch = Number(/b(\d+)-/.exec(key)?.[1]);
      counts.set(batch, (counts.get(batch) ?? 0) + 1);
    }
  }
  return counts;
}

describe('catalog writes through crashes', () => {
  it('keeps each batch whole through kill -9 in the middle of its write', { timeout: 60_000 }, async () => {
    const dataDir = await makeDataDir();
    try {
      for (let round = 0; round < 2; round++) {
        const { child, url } = await startChild(dataDir);
        const token = await tokenAt(url);
        const auth = { authorization: `Bearer ${token}` };
        const at = (path: string) => `${url}/catalog${path}${path.includes('?') ? '&' : '?'}tenant=tenant-a&environment=prod`;
        if (round === 0) {
          assert.equal((await call(at('/item-schemas'), { json: PRODUCT_SCHEMA, headers: auth })).status, 201);
          assert.equal((await call(at('/catalogs'), { json: { catalogItemSchemas: [{ name: 'product', version: 1 }] }, headers: auth })).status, 201);
        }
        const exited = once(child, 'exit');
        // Killed the moment the first file of the batch changes on disk: the others are still being written.
        const watcher = watch(join(dataDir, 'documents', 'tenants', 'tenant-a'), { recursive: true }, (_event, name) => {
          if (name !== null && /items-\d+\.json/.test(name.toString())) child.kill('SIGKILL');
        });
        const sent = call(at('/items'), { json: items(round), headers: auth }).catch(() => undefined);
        const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
        await exited;
        clearTimeout(timer);
        watcher.close();
        await sent;
        // Starting on the directory completes or discards what the crash interrupted.
        const restarted = await startTestServer({ dataDir });
        await restarted.close();
        const counts = await storedBatches(dataDir);
        for (const [batch, found] of counts) assert.equal(found, BATCH, `round ${round}: batch ${batch} is partly stored (${found} of ${BATCH} items)`);
      }
      // No temporary file survives a start.
      const leftovers: string[] = [];
      const walk = async (dir: string): Promise<void> => {
        for (const entry of await readdir(dir, { withFileTypes: true })) {
          if (entry.isDirectory()) await walk(join(dir, entry.name));
          else if (entry.name.endsWith('.tmp')) leftovers.push(join(dir, entry.name));
        }
      };
      await walk(join(dataDir, 'documents'));
      assert.deepEqual(leftovers, []);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses to start on a truncated store file, naming the file', async () => {
    const dataDir = await makeDataDir();
    try {
      const first = await startTestServer({ dataDir });
      await first.close();
      const file = join(dataDir, 'documents', 'auth', 'replays.json');
      const text = await readFile(file, 'utf8').catch(() => '{"replays": {"a": 1}}');
      await writeFile(file, text.slice(0, Math.max(1, Math.floor(text.length / 2))));
      await assert.rejects(startTestServer({ dataDir }), (error: Error) => {
        assert.match(error.message, /auth\/replays\.json/);
        assert.match(error.message, /not valid JSON/);
        return true;
      });
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
