/**
 * The Dockerfile, replayed without a docker engine: its runtime stage is rebuilt in a clean
 * directory from its own COPY, RUN, ENV and CMD lines, started as the container would start, probed
 * with its HEALTHCHECK, stopped with its STOPSIGNAL, and started again on the same /data.
 * `npm ci` lines link this checkout's node_modules instead of downloading (the offline stand-in), and
 * `npm run build` compiles the server into the replay; any other RUN line must be taught here.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer } from '../../../scripts/build-server.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const dirs: string[] = [];
after(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

interface Instruction {
  op: string;
  args: string;
}

/** Dockerfile lines, continuations joined and comments dropped, split into stages. */
function parseDockerfile(text: string): Array<{ name: string; instructions: Instruction[] }> {
  const joined = text.replace(/\\\n/g, ' ');
  const stages: Array<{ name: string; instructions: Instruction[] }> = [];
  for (const raw of joined.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const [, op, args] = /^(\w+)\s+(.*)$/.exec(line)!;
    if (op!.toUpperCase() === 'FROM') stages.push({ name: /\sAS\s+(\S+)/i.exec(args!)?.[1] ?? '', instructions: [] });
    stages.at(-1)?.instructions.push({ op: op!.toUpperCase(), args: args! });
  }
  return stages;
}

function ignoredByDockerignore(path: string): boolean {
  const patterns = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  return patterns.some((pattern) => {
    const plain = pattern.replace(/^\*\*\//, '');
    return path === plain || path.startsWith(`${plain}/`) || path.split('/').includes(plain.replace(/\/$/, ''));
  });
}

describe('container image (Dockerfile replayed without docker)', () => {
  const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
  const stages = parseDockerfile(dockerfile);
  const runtime = stages.at(-1)!;

  it('declares a non-root user, the /data volume, a HEALTHCHECK on /ready and the compiled entry point', () => {
    assert.deepEqual(stages.map((stage) => stage.name), ['build', 'runtime']);
    const ops = (op: string) => runtime.instructions.filter((i) => i.op === op).map((i) => i.args);
    assert.deepEqual(ops('USER'), ['node']);
    assert.deepEqual(ops('VOLUME'), ['["/data"]']);
    assert.match(ops('HEALTHCHECK')[0]!, /\/ready/);
    assert.deepEqual(ops('STOPSIGNAL'), ['SIGTERM']);
    assert.deepEqual(JSON.parse(ops('CMD')[0]!), ['node', '--max-semi-space-size=64', 'dist/server/main.js']);
    // The image starts the server as `npm start` does, with the same flags and malloc arenas.
    const start = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.start!;
    const [arenas, ...command] = start.split(' ');
    assert.equal(command.join(' '), JSON.parse(ops('CMD')[0]!).join(' '));
    assert.equal(arenas, 'MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX:-2}');
    assert.match(ops('ENV').join(' '), /MALLOC_ARENA_MAX=2/);
    assert.ok(ops('RUN').some((run) => run.includes('npm ci --omit=dev')), 'production dependencies only');
    for (const stage of stages) {
      for (const copy of stage.instructions.filter((i) => i.op === 'COPY' && !i.args.startsWith('--from'))) {
        const sources = copy.args.split(/\s+/).slice(0, -1);
        for (const source of sources) {
          assert.ok(existsSync(join(ROOT, source)), `COPY ${source}: not in the repository`);
          assert.equal(ignoredByDockerignore(source), false, `COPY ${source}: excluded by .dockerignore`);
        }
      }
    }
  });

  it("copies every workspace's manifest before each stage's npm ci, as the lockfile lists them", () => {
    const workspaces = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[] }).workspaces;
    for (const stage of stages) {
      const install = stage.instructions.findIndex((i) => i.op === 'RUN' && i.args.includes('npm ci'));
      assert.ok(install > 0, `stage ${stage.name} runs npm ci`);
      const copied = stage.instructions
        .slice(0, install)
        .filter((i) => i.op === 'COPY')
        .flatMap((i) => i.args.split(/\s+/).slice(0, -1));
      for (const workspace of workspaces) assert.ok(copied.includes(`${workspace}/package.json`), `stage ${stage.name}: COPY ${workspace}/package.json before npm ci`);
    }
  });

  it('runs the runtime stage in a clean directory: ready on /ready, drains on SIGTERM, keeps /data across a restart', async () => {
    const root = await mkdtemp(join(tmpdir(), 'discovery-image-'));
    dirs.push(root);
    const app = join(root, 'app');
    mkdirSync(app);
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: root };
    let command: string[] = [];
    let healthcheck = '';
    const mapPath = (path: string) => (path.startsWith('/') ? join(root, path) : join(app, path));
    for (const { op, args } of runtime.instructions) {
      if (op === 'ENV') {
        for (const [, key, value] of args.matchAll(/(\w+)=(\S+)/g)) env[key!] = value!.startsWith('/') ? join(root, value!) : value!;
      } else if (op === 'COPY') {
        const parts = args.split(/\s+/);
        if (parts[0]!.startsWith('--from=build')) {
          // The build stage's output: the compiled server, and the bundles this checkout built (if any).
          // Built at the same depth as /app/dist/server, so that its paths to the data files are the image's.
          mkdirSync(join(ROOT, 'dist'), { recursive: true });
          const built = await mkdtemp(join(ROOT, 'dist', 'server-replay-'));
          dirs.push(built);
          await buildServer(built);
          cpSync(built, join(app, 'dist', 'server'), { recursive: true });
          if (existsSync(join(ROOT, 'dist', 'sdk'))) cpSync(join(ROOT, 'dist', 'sdk'), join(app, 'dist', 'sdk'), { recursive: true });
          continue;
        }
        const target = mapPath(parts.at(-1)!);
        for (const source of parts.slice(0, -1)) {
          const into = target.endsWith('/') || parts.length > 2 ? join(target, source.split('/').at(-1)!) : target;
          cpSync(join(ROOT, source), into, { recursive: true });
        }
      } else if (op === 'RUN') {
        for (const step of args.split('&&').map((s) => s.trim())) {
          if (step.startsWith('npm ci')) symlinkSync(join(ROOT, 'node_modules'), join(app, 'node_modules'));
          else if (step.startsWith('npm cache clean')) continue;
          else if (step.startsWith('mkdir -p ')) for (const dir of step.slice(9).split(/\s+/)) mkdirSync(mapPath(dir), { recursive: true });
          else if (step.startsWith('chown ')) continue;
          else assert.fail(`RUN ${step}: the replay does not know this step; teach it in container.test.ts`);
        }
      } else if (op === 'CMD') command = JSON.parse(args);
      else if (op === 'HEALTHCHECK') healthcheck = JSON.parse(args.slice(args.indexOf('CMD') + 3).trim())[2];
    }
    // The image's defaults are production mode with a mounted configuration; mount the demo one, on a free port.
    env.CONFIG = join(app, 'apps/companion/config/demo.json');
    env.PORT = '0';
    env.DEMO = 'on';
    env.DEMO_ACTIVITIES = 'off';

    const start = async () => {
      const child = spawn(process.execPath, command.slice(1), { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stdout!.resume();
      const url = await new Promise<string>((resolve, reject) => {
        child.stderr!.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
          const match = /listening on (http:\/\/\S+) /.exec(stderr);
          if (match && /is ready after/.test(stderr)) resolve(match[1]!);
        });
        child.on('exit', (code) => reject(new Error(`exited with ${code}: ${stderr}`)));
      });
      return { child, url };
    };
    const first = await start();
    const port = new URL(first.url).port;
    const probe = spawnSync(process.execPath, ['-e', healthcheck], { env: { ...env, PORT: port }, timeout: 10_000 });
    assert.equal(probe.status, 0, 'the HEALTHCHECK command passes once ready');
    const collected = await fetch(`${first.url}/collect/demo-tracker-key`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'view', target: { product: '84029' }, user: { sessionId: 'container-test' } }),
    });
    assert.equal(collected.status, 200);
    first.child.kill('SIGTERM');
    const [code] = (await once(first.child, 'exit')) as [number | null];
    assert.equal(code, 0);
    assert.ok(existsSync(join(root, 'data', 'activities')), 'the data went to the /data volume');

    const second = await start();
    try {
      const search = await fetch(`${second.url}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"token":"demo-search-token","query":"heart"}' });
      assert.equal(search.status, 200);
      assert.ok((await search.json()).items.length > 0, 'the catalog survived the restart');
    } finally {
      second.child.kill('SIGTERM');
      await once(second.child, 'exit');
    }
  });
});
