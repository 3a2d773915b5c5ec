/** kill -9 during a burst of sends: every activity that got a 2xx is in the log after a restart, and the log reads cleanly. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { call, makeDataDir, startTestServer } from './support/test-server.js';

const CHILD = fileURLToPath(new URL('./support/tracking-child.ts', import.meta.url));

async function startChild(dataDir: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  const [line] = (await once(lines, 'line')) as [string];
  return { child, url: (JSON.parse(line) as { url: string }).url };
}

/** Client keys of every activity line in the tenant's segments; a torn last line is allowed, nothing else. */
async function loggedKeys(dataDir: string): Promise<{ keys: Map<string, number>; torn: number }> {
  const dir = join(dataDir, 'activities', 'tenant-a');
  const keys = new Map<string, number>();
  let torn = 0;
  const segments = (await readdir(dir)).sort();
  for (const [index, name] of segments.entries()) {
    const lines = (await readFile(join(dir, name), 'utf8')).split('\n');
    for (const [n, line] of lines.entries()) {
      if (line === '') continue;
      try {
        const record = JSON.parse(line) as { clientKey?: string };
        if (record.clientKey !== undefined) keys.set(record.clientKey, (keys.get(record.clientKey) ?? 0) + 1);
      } catch (error) {
        const isLastLine = index === segments.length - 1 && n === lines.length - 1;
        if (!isLastLine) throw error;
        torn++;
      }
    }
  }
  return { keys, torn };
}

/** Per session id, the profile ids its logged activities name. */
async function loggedProfiles(dataDir: string): Promise<Map<string, Set<string>>> {
  const dir = join(dataDir, 'activities', 'tenant-a');
  const out = new Map<string, Set<string>>();
  for (const name of (await readdir(dir)).sort()) {
    for (const line of (await readFile(join(dir, name), 'utf8')).split('\n')) {
      if (line === '') continue;
      try {
        const record = JSON.parse(line) as { sessionId?: string; profileId?: string };
        if (record.sessionId === undefined || record.profileId === undefined) continue;
        if (!out.has(record.sessionId)) out.set(record.sessionId, new Set());
        out.get(record.sessionId)!.add(record.profileId);
      } catch {
        // the torn tail, checked by loggedKeys
      }
    }
  }
  return out;
}

describe('activity log durability', () => {
  it('keeps activities acknowledged to an overlapping retry (same ids sent twice at once) through kill -9', { timeout: 60_000 }, async () => {
    const dataDir = await makeDataDir();
    try {
      const acknowledged = new Set<string>();
      // Several rounds: the window between the first send's append and its fsync is short.
      for (let round = 0; round < 3; round++) {
        const { child, url } = await startChild(dataDir);
        let stop = false;
        const post = async (batch: unknown[]) => {
          const res = await fetch(`${url}/collect/tenant-a-tracker`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(batch) });
          await res.arrayBuffer();
          return res.status;
        };
        const sender = async (worker: number) => {
          for (let n = 0; !stop; n++) {
            const ids = Array.from({ length: 3 }, (_, i) => `r${round}-w${worker}-${n}-${i}`);
            const batch = ids.map((id) => ({ id, action: 'view', target: { product: `item-${n % 50}` }, user: { sessionId: `retry-${worker}` } }));
            // The tracker's beacon and its retry: the same ids, in flight together.
            // Each answer counts the moment it arrives, as a tracker dropping its queue entry would.
            let outstanding = 2;
            const noteAnswer = (status: number) => {
              outstanding--;
              if (status !== 200) return;
              for (const id of ids) acknowledged.add(id);
              // Acknowledged while its twin is still being written: the moment a crash tells whether the answer waited for the disk.
              if (outstanding === 1 && acknowledged.size >= killAfter) killNow();
            };
            const answers = await Promise.allSettled([post(batch).then(noteAnswer), post(batch).then(noteAnswer)]);
            if (answers.some((a) => a.status === 'rejected')) return;
          }
        };
        const killAfter = acknowledged.size + 300;
        const exited = once(child, 'exit');
        const killNow = () => child.kill('SIGKILL');
        const senders = Array.from({ length: 12 }, (_, worker) => sender(worker));
        const deadline = setTimeout(killNow, 8_000);
        await exited;
        clearTimeout(deadline);
        stop = true;
        await Promise.all(senders);
        const { keys } = await loggedKeys(dataDir);
        const missing = [...acknowledged].filter((id) => !keys.has(`id:${id}`));
        assert.deepEqual(missing, [], `round ${round}`);
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('keeps every acknowledged activity through kill -9', { timeout: 60_000 }, async () => {
    const dataDir = await makeDataDir();
    const { child, url } = await startChild(dataDir);
    const acknowledged: string[] = [];
    let sent = 0;
    let stop = false;
    const sender = async (worker: number) => {
      for (let n = 0; !stop; n++) {
        const ids = Array.from({ length: 5 }, (_, i) => `w${worker}-${n}-${i}`);
        const batch = ids.map((id) => ({ id, action: 'view', target: { product: `item-${n % 50}` }, user: { sessionId: `crash-${worker}` } }));
        sent += ids.length;
        try {
          const res = await fetch(`${url}/collect/tenant-a-tracker`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(batch) });
          await res.arrayBuffer();
          if (res.status >= 200 && res.status < 300) acknowledged.push(...ids);
        } catch {
          return; // the server is gone
        }
      }
    };
    const senders = Array.from({ length: 16 }, (_, worker) => sender(worker));
    // Kill once a fair number are in, while requests are certainly in flight.
    while (acknowledged.length < 500) await new Promise((resolve) => setTimeout(resolve, 5));
    child.kill('SIGKILL');
    await once(child, 'exit');
    stop = true;
    await Promise.all(senders);
    assert.ok(sent > acknowledged.length, 'some sends were still in flight at the kill');

    const before = await loggedKeys(dataDir);
    assert.ok(before.torn <= 1);
    const missing = acknowledged.filter((id) => !before.keys.has(`id:${id}`));
    assert.deepEqual(missing, []);

    // The stale lock of the killed process is taken over; the log reopens, drops any torn tail, and takes new lines.
    const restarted = await startTestServer({ dataDir });
    try {
      // Anonymous profiles are written after the answer (profiles.ts): the ones the kill left unwritten come back from the log.
      const { activities } = restarted.server.deps.services;
      for (const [sessionId, ids] of await loggedProfiles(dataDir)) {
        assert.equal(ids.size, 1, `one profile for ${sessionId}`);
        assert.equal(activities.findProfile('tenant-a', { sessionId })?.id, [...ids][0], `${sessionId} finds the profile its activities were logged under`);
      }
      assert.ok(activities.history('tenant-a', activities.findProfile('tenant-a', { sessionId: 'crash-0' })!.id).length > 0, 'with its history');
      const res = await call(`${restarted.url}/collect/tenant-a-tracker`, { json: { id: 'after-restart', action: 'view', target: { product: 'z' }, user: { sessionId: 'z' } } });
      assert.equal(res.status, 200);
      const retried = await call(`${restarted.url}/collect/tenant-a-tracker`, { json: [{ id: acknowledged[0], action: 'view', target: { product: 'item-0' }, user: { sessionId: 'crash-0' } }] });
      assert.equal(retried.status, 200);
      await restarted.close();
      const after = await loggedKeys(dataDir);
      assert.equal(after.torn, 0);
      assert.ok(after.keys.has('id:after-restart'));
      assert.equal(acknowledged.filter((id) => !after.keys.has(`id:${id}`)).length, 0);
      // The retry of an acknowledged activity after the restart was recognised, not logged twice.
      assert.equal(after.keys.get(`id:${acknowledged[0]}`), 1);
    } finally {
      await restarted.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
