/** The data-directory lock between real processes: one holder after a race for a stale lock, and no refusal from a reused pid. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DataDirectoryLockedError, lockDataDirectory } from '../src/platform/store/data-dir-lock.js';
import { makeDataDir } from './support/test-server.js';

const CHILD = fileURLToPath(new URL('./support/lock-child.ts', import.meta.url));

interface LockChild {
  /** The child's answer: `held` or `locked`. */
  outcome: Promise<string>;
  /** Lets the child exit (it holds what it got until then). */
  finish(): Promise<void>;
}

function startChild(dataDir: string, startAt: number, mode?: string): LockChild {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dataDir, String(startAt), ...(mode === undefined ? [] : [mode])], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  const exited = new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`lock child exited with ${code}`))));
  });
  const outcome = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out.trim());
    });
    exited.then(() => reject(new Error(`lock child exited without an answer: ${out}`)), reject);
  });
  return { outcome, finish: () => (child.stdin!.end(), exited) };
}

async function runChildren(dataDir: string, count: number, startAt: number, mode?: string): Promise<string[]> {
  const children = Array.from({ length: count }, () => startChild(dataDir, startAt, mode));
  try {
    return await Promise.all(children.map((c) => c.outcome));
  } finally {
    await Promise.all(children.map((c) => c.finish()));
  }
}

describe('data directory lock', () => {
  it('gives a stale lock to exactly one of several servers starting at once', { timeout: 60_000 }, async () => {
    for (let trial = 0; trial < 2; trial++) {
      const dataDir = await makeDataDir();
      try {
        // Left by a crashed server whose pid no longer exists.
        await writeFile(join(dataDir, 'server.lock'), `${JSON.stringify({ pid: 999_999_999, nonce: 'crashed' })}\n`);
        const startAt = Date.now() + 2000;
        const outcomes = await runChildren(dataDir, 6, startAt);
        assert.equal(outcomes.filter((o) => o === 'held').length, 1, `trial ${trial}: ${outcomes.join(',')}`);
        assert.equal(outcomes.filter((o) => o === 'locked').length, 5);
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    }
  });

  it('starts when the lock names its own pid from an earlier run (a container restarted after kill -9)', { timeout: 20_000 }, async () => {
    const dataDir = await makeDataDir();
    try {
      assert.deepEqual(await runChildren(dataDir, 1, Date.now(), 'reused-pid'), ['held']);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('takes over a lock whose pid now belongs to another process, and refuses a live holder', async () => {
    const dataDir = await makeDataDir();
    try {
      // process.ppid is alive, but it is not the process that wrote this lock (its start time differs).
      await writeFile(join(dataDir, 'server.lock'), `${JSON.stringify({ pid: process.ppid, nonce: 'gone', startTime: '1' })}\n`);
      const release = lockDataDirectory(dataDir);
      const holder = JSON.parse(await readFile(join(dataDir, 'server.lock'), 'utf8')) as { pid: number; nonce: string };
      assert.equal(holder.pid, process.pid);
      assert.notEqual(holder.nonce, 'gone');
      assert.throws(() => lockDataDirectory(dataDir), DataDirectoryLockedError);
      release();
      // Our own pid with a nonce this process never held: the lock of an earlier run in the same pid.
      await writeFile(join(dataDir, 'server.lock'), `${JSON.stringify({ pid: process.pid, nonce: 'earlier-run' })}\n`);
      const again = lockDataDirectory(dataDir);
      again();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
