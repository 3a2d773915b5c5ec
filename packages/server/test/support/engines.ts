/**
 * Throwaway PostgreSQL and Redis servers for the tests and the bench: Debian's packages (installed with
 * apt-get when we are root and they are missing), each on a free local port over a temporary directory,
 * stopped and deleted when the process exits. Nothing here is shared with another test process.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ENGINE_PACKAGES = 'postgresql redis-server';

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? join(root, versions[0]!, 'bin') : undefined;
}

function redisBin(): string | undefined {
  return ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((path) => existsSync(path));
}

/** Finds both engines, installing Debian's packages when root; otherwise fails naming the packages. */
export function ensureEngines(): { postgresBin: string; redisServer: string } {
  let pg = postgresBin();
  let redis = redisBin();
  if ((pg === undefined || redis === undefined) && isRoot && existsSync('/usr/bin/apt-get')) {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const install = () => spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'postgresql', 'redis-server'], { stdio: 'ignore', env }).status === 0;
    if (!install()) {
      spawnSync('apt-get', ['update'], { stdio: 'ignore', env });
      install();
    }
    pg = postgresBin();
    redis = redisBin();
  }
  if (pg === undefined || redis === undefined) {
    throw new Error(
      `These tests need PostgreSQL and Redis servers, and ${pg === undefined ? 'PostgreSQL' : 'Redis'} was not found. ` +
        `On Debian or Ubuntu: sudo apt-get install ${ENGINE_PACKAGES}   (the packages are named postgresql and redis-server)`,
    );
  }
  return { postgresBin: pg, redisServer: redis };
}

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Runs a PostgreSQL binary as the `postgres` user when we are root (PostgreSQL refuses to run as root). */
function runPostgresTool(bin: string, args: string[]): void {
  const [command, fullArgs] = isRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  execFileSync(command, fullArgs, { stdio: ['ignore', 'ignore', 'pipe'] });
}

export interface PostgresServer {
  /** postgres://postgres@127.0.0.1:PORT/postgres (trust authentication, local only). */
  url: string;
  port: number;
  /** Stops the server (fast shutdown); `start` brings it back on the same port and data. */
  stop(): void;
  start(): void;
  /** Stops it and deletes its directory. */
  dispose(): void;
}

export interface PostgresServerOptions {
  /** Keep fsync on (the bench measures real commits); the tests turn it off to spare the shared disk. */
  durable?: boolean;
}

const cleanups = new Set<() => void>();
let exitHookInstalled = false;
function atExit(cleanup: () => void): void {
  cleanups.add(cleanup);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  const runAll = () => {
    for (const run of cleanups) {
      try {
        run();
      } catch {
        // Best effort: the process is leaving anyway.
      }
    }
  };
  process.once('exit', runAll);
  // A test runner's timeout or a Ctrl-C must not leave servers behind either.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      runAll();
      process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
    });
  }
}

export async function startPostgres(options: PostgresServerOptions = {}): Promise<PostgresServer> {
  const { postgresBin: bin } = ensureEngines();
  const dir = mkdtempSync(join(tmpdir(), 'discovery-pg-'));
  if (isRoot) {
    const user = execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim();
    const group = execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim();
    chownSync(dir, Number(user), Number(group));
  }
  chmodSync(dir, 0o700);
  runPostgresTool(join(bin, 'initdb'), ['-D', dir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync', '--locale=C.UTF-8']);
  const port = await freePort();
  const settings = [`-p ${port}`, `-k ${dir}`, "-c listen_addresses=127.0.0.1", '-c max_connections=200'];
  if (options.durable !== true) settings.push('-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off');
  let running = false;
  const start = () => {
    runPostgresTool(join(bin, 'pg_ctl'), ['-D', dir, '-o', settings.join(' '), '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
    running = true;
  };
  const stop = () => {
    if (!running) return;
    running = false;
    runPostgresTool(join(bin, 'pg_ctl'), ['-D', dir, '-m', 'fast', '-w', 'stop']);
  };
  const dispose = () => {
    cleanups.delete(dispose);
    try {
      stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  atExit(dispose);
  start();
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, port, stop, start, dispose };
}

export interface RedisServer {
  url: string;
  port: number;
  /** Kills the server (as a crash would); `start` brings an empty one back on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  dispose(): Promise<void>;
}

export async function startRedis(): Promise<RedisServer> {
  const { redisServer } = ensureEngines();
  const dir = mkdtempSync(join(tmpdir(), 'discovery-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    const started = spawn(redisServer, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) resolve();
      };
      started.stdout!.on('data', onData);
      started.stderr!.on('data', onData);
      started.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${output.slice(-500)}`)));
    });
    started.stdout!.resume();
    started.stderr!.resume();
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null) return;
    const exited = once(running, 'exit');
    running.kill('SIGKILL');
    await exited;
  };
  const killNow = () => {
    child?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  atExit(killNow);
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    start,
    async dispose() {
      cleanups.delete(killNow);
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
