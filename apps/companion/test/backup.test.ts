/** `npm run backup` / `npm run restore`: a copy of a running server's data directory while activities keep arriving. */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger } from '@discovery-kit/server';
import { startCompanion } from '../src/companion.js';
import { DEMO_CONFIG, DEFAULT_SDK_DIR } from '../src/options.js';

const CLI = fileURLToPath(new URL('../src/backup-cli.ts', import.meta.url));
const dirs: string[] = [];
after(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function runCli(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stderr };
}

/** Client ids of every activity in a data directory's logs, and whether any line is torn. */
function loggedKeys(dataDir: string): { keys: Set<string>; torn: boolean } {
  const keys = new Set<string>();
  let torn = false;
  const dir = join(dataDir, 'activities', 'demo-shop');
  for (const name of readdirSync(dir)) {
    const text = readFileSync(join(dir, name), 'utf8');
    if (text !== '' && !text.endsWith('\n')) torn = true;
    for (const line of text.split('\n')) if (line !== '') keys.add(JSON.parse(line).clientKey);
  }
  return { keys, torn };
}

const options = (dataDir: string) => ({ configFile: DEMO_CONFIG, port: 0, host: '127.0.0.1', dataDir, demo: true, demoActivities: false, logLevel: 'silent', sdkDir: DEFAULT_SDK_DIR });

describe('backup and restore', () => {
  it('copies a running data directory while activities flow, and restores it into a server that serves it', async () => {
    const root = await mkdtemp(join(tmpdir(), 'discovery-backup-'));
    dirs.push(root);
    const dataDir = join(root, 'data');
    const running = await startCompanion(options(dataDir), createLogger('silent'));
    const acknowledged: Array<{ key: string; at: number }> = [];
    let flowing = true;
    let sent = 0;
    const send = async () => {
      while (flowing) {
        const key = `evt-${sent++}`;
        const response = await fetch(`${running.url}/collect/demo-tracker-key`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ id: key, action: 'view', target: { product: '84029' }, user: { identities: { 'customer-id': `c-${sent % 50}` } } }),
        });
        if (response.status === 200) acknowledged.push({ key, at: Date.now() });
      }
    };
    const senders = [send(), send(), send()];
    let backupStarted = 0;
    let backup: { code: number | null; stderr: string };
    try {
      while (acknowledged.length < 200) await new Promise((resolve) => setTimeout(resolve, 20));
      backupStarted = Date.now();
      backup = await runCli(['backup', join(root, 'backup'), '--data-dir', dataDir]);
      // Activities keep arriving a little longer after the copy.
      const after = acknowledged.length;
      while (acknowledged.length < after + 50) await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      flowing = false;
      await Promise.all(senders);
      await running.close();
    }
    assert.equal(backup.code, 0, backup.stderr);
    assert.match(backup.stderr, /backed up .* files/);
    assert.ok(existsSync(join(root, 'backup', 'manifest.json')));

    const restoredDir = join(root, 'restored');
    const restore = await runCli(['restore', join(root, 'backup'), '--data-dir', restoredDir]);
    assert.equal(restore.code, 0, restore.stderr);
    const { keys, torn } = loggedKeys(restoredDir);
    assert.equal(torn, false, 'no torn line in the restored log');
    const before = acknowledged.filter((a) => a.at < backupStarted);
    assert.ok(before.length >= 200);
    for (const { key } of before) assert.ok(keys.has(`id:${key}`), `${key} was acknowledged before the backup started but is not in it`);
    assert.ok(keys.size < acknowledged.length, 'activities after the backup are not in it');

    const restored = await startCompanion(options(restoredDir), createLogger('silent'));
    try {
      const search = await fetch(`${restored.url}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"token":"demo-search-token","query":"heart"}' });
      assert.ok((await search.json()).items.length > 0, 'the catalog came back');
      // A customer seen before the backup is the same profile after it.
      const resolved = await restored.server.deps.services.activities.resolveProfile('demo-shop', { identities: { 'customer-id': 'c-1' } });
      assert.equal(resolved.created, false);
    } finally {
      await restored.close();
    }
  });

  it('refuses to restore a damaged backup or over data without --force, and never over a running server', async () => {
    const root = await mkdtemp(join(tmpdir(), 'discovery-backup-'));
    dirs.push(root);
    const dataDir = join(root, 'data');
    const running = await startCompanion(options(dataDir), createLogger('silent'));
    try {
      assert.equal((await runCli(['backup', join(root, 'b1'), '--data-dir', dataDir])).code, 0);
      const again = await runCli(['backup', join(root, 'b1'), '--data-dir', dataDir]);
      assert.equal(again.code, 2);
      assert.match(again.stderr, /already exists/);
      const busy = await runCli(['restore', join(root, 'b1'), '--data-dir', dataDir, '--force']);
      assert.equal(busy.code, 2);
      assert.match(busy.stderr, /in use by a running server/);
    } finally {
      await running.close();
    }
    const over = await runCli(['restore', join(root, 'b1'), '--data-dir', dataDir]);
    assert.equal(over.code, 2);
    assert.match(over.stderr, /already holds data/);
    const forced = await runCli(['restore', join(root, 'b1'), '--data-dir', dataDir, '--force']);
    assert.equal(forced.code, 0, forced.stderr);
    assert.match(forced.stderr, /moved the previous data aside/);

    const manifest = JSON.parse(readFileSync(join(root, 'b1', 'manifest.json'), 'utf8'));
    await writeFile(join(root, 'b1', manifest.files[0].path), 'tampered');
    const damaged = await runCli(['restore', join(root, 'b1'), '--data-dir', join(root, 'fresh')]);
    assert.equal(damaged.code, 2);
    assert.match(damaged.stderr, /damaged: .* does not match its checksum/);
    assert.equal(existsSync(join(root, 'fresh')), false, 'nothing was written');
  });
});
