/**
 * The data-directory lock as `npm start` meets it: a second server on a held directory is refused before
 * it binds a port or says it listens; a holder killed but not yet reaped by its parent (a zombie, as
 * under a supervisor that reaps late) does not block the restart.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
/** `<dir>/config.json` (one tenant, no demo: the quickest start) and `<dir>/data`. */
const ARGS = (dir: string) => ['--import', 'tsx', MAIN, '--port', '0', '--data-dir', join(dir, 'data'), '--no-demo', '--config', join(dir, 'config.json'), '--log-level', 'warn'];
const CONFIG = { tenants: [{ id: 'shop', environments: [{ id: 'prod', trackerKeys: ['shop-tracker'] }] }] };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `read` until it gives a value or `ms` pass. */
async function until<T>(read: () => Promise<T | undefined>, ms: number, what: string): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

const stateOf = async (pid: number) => {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
};

/** Runs the companion directly; resolves its stderr once it is ready, or its exit code and stderr when it stops first. */
function startServer(dir: string): { child: ChildProcess; result: Promise<{ ready: true; url: string; stderr: string } | { ready: false; code: number | null; stderr: string }> } {
  const child = spawn(process.execPath, ARGS(dir), { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const result = new Promise<{ ready: true; url: string; stderr: string } | { ready: false; code: number | null; stderr: string }>((resolve) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const url = /listening on (http:\/\/\S+) /.exec(stderr)?.[1];
      if (url !== undefined && /is ready after/.test(stderr)) resolve({ ready: true, url, stderr });
    });
    child.on('close', (code) => resolve({ ready: false, code, stderr }));
  });
  return { child, result };
}

describe('data directory lock at start', () => {
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  after(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('refuses a second server without listening, and restarts after a holder killed and left unreaped', { timeout: 120_000 }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'discovery-lock-'));
    dirs.push(dir);
    const dataDir = join(dir, 'data');
    await writeFile(join(dir, 'config.json'), JSON.stringify(CONFIG));
    const log = join(dir, 'holder.log');
    // The holder runs under a parent that never reaps it: `sh` starts it in the background, then becomes `sleep`.
    const command = `"${process.execPath}" ${ARGS(dir).map((a) => `"${a}"`).join(' ')} 2>"${log}" & echo $!; exec sleep 120`;
    const parent = spawn('sh', ['-c', command], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(parent);
    const [pidLine] = (await once(parent.stdout!, 'data')) as [Buffer];
    const holderPid = Number(pidLine.toString().trim());
    await until(async () => ((await readFile(log, 'utf8')).includes('is ready after') ? true : undefined), 60_000, 'the holder to be ready');
    assert.equal((JSON.parse(await readFile(join(dataDir, 'server.lock'), 'utf8')) as { pid: number }).pid, holderPid);

    // A second server on the held directory: refused, naming the holder, and it never said it listens.
    const second = startServer(dir);
    children.push(second.child);
    const refused = await second.result;
    assert.equal(refused.ready, false);
    assert.equal((refused as { code: number }).code, 2);
    assert.match(refused.stderr, new RegExp(`in use by another Discovery Kit server \\(pid ${holderPid}\\)`));
    assert.doesNotMatch(refused.stderr, /listening/);

    // kill -9 the holder; its parent (sleep) never reaps it, so it stays a zombie with its pid.
    process.kill(holderPid, 'SIGKILL');
    await until(async () => ((await stateOf(holderPid)) === 'Z' ? true : undefined), 10_000, 'the holder to be a zombie');

    const restarted = startServer(dir);
    children.push(restarted.child);
    const ready = await restarted.result;
    assert.equal(ready.ready, true, ready.stderr);
    const { url, stderr } = ready as { url: string; stderr: string };
    assert.equal(stderr.match(/listening/g)?.length, 1);
    assert.equal((await fetch(`${url}/health`)).status, 200);
    assert.equal(await stateOf(holderPid), 'Z', 'the holder was still unreaped when the new server took over');
    assert.notEqual((JSON.parse(await readFile(join(dataDir, 'server.lock'), 'utf8')) as { pid: number }).pid, holderPid);
    restarted.child.kill('SIGTERM');
    const [code] = (await once(restarted.child, 'exit')) as [number | null];
    assert.equal(code, 0);
    parent.kill('SIGKILL');
  });
});
