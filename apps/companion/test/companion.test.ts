/** The runnable server as an operator starts it: options, start-up errors, the data-directory lock and graceful shutdown. */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCompanionOptions, UsageError, DEMO_CONFIG, DEFAULT_SDK_DIR } from '../src/options.js';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const dirs: string[] = [];
after(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'discovery-companion-'));
  dirs.push(dir);
  return dir;
}

interface Started {
  child: ChildProcess;
  url: string;
  output: () => string;
}

/** Starts `npm run dev`'s entry point in a child process and waits until it says it is ready. */
async function startCompanion(args: string[]): Promise<Started> {
  // The full demo history takes seconds to import; these tests only need the server up.
  const env = { ...process.env, DEMO_ACTIVITIES: 'off' };
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, '--port', '0', '--log-level', 'warn', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = /listening on (http:\/\/\S+) /.exec(text);
      if (match && /is ready after/.test(text)) resolve({ child, url: match[1]!, output: () => text });
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code}: ${text}`)));
  });
}

async function runToExit(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, output };
}

describe('companion options', () => {
  it('reads the command line first, then the environment, then defaults', () => {
    const fromEnv = parseCompanionOptions([], { PORT: '9001', DATA_DIR: '/tmp/x' });
    assert.ok(fromEnv !== 'help');
    assert.equal(fromEnv.port, 9001);
    assert.equal(fromEnv.dataDir, '/tmp/x');
    assert.equal(fromEnv.configFile, DEMO_CONFIG);
    assert.equal(fromEnv.demo, true);
    assert.equal(fromEnv.demoActivities, true);
    const quick = parseCompanionOptions([], { DEMO_ACTIVITIES: 'off' });
    assert.ok(quick !== 'help');
    assert.equal(quick.demoActivities, false);
    const fromArgs = parseCompanionOptions(['--port', '9002'], { PORT: '9001' });
    assert.ok(fromArgs !== 'help');
    assert.equal(fromArgs.port, 9002);
    assert.equal(fromArgs.heapGrowthPercent, 30);
    const growth = parseCompanionOptions(['--heap-growth', '0'], { HEAP_GROWTH_PERCENT: '80' });
    assert.ok(growth !== 'help');
    assert.equal(growth.heapGrowthPercent, 0);
    const growthFromEnv = parseCompanionOptions([], { HEAP_GROWTH_PERCENT: '80' });
    assert.ok(growthFromEnv !== 'help');
    assert.equal(growthFromEnv.heapGrowthPercent, 80);
  });

  it('takes --no-training (or TRAINING=off) with a shared store, and refuses it without one', () => {
    const store = ['--store', 'postgres://u@localhost/db'];
    const plain = parseCompanionOptions(store, {});
    assert.ok(plain !== 'help');
    assert.equal(plain.trains, undefined, 'a companion trains unless told not to');
    const flag = parseCompanionOptions([...store, '--no-training'], {});
    assert.ok(flag !== 'help');
    assert.equal(flag.trains, false);
    const fromEnv = parseCompanionOptions(store, { TRAINING: 'off' });
    assert.ok(fromEnv !== 'help');
    assert.equal(fromEnv.trains, false);
    assert.throws(() => parseCompanionOptions(['--no-training'], {}), /--no-training \(TRAINING=off\) needs --store/);
    assert.throws(() => parseCompanionOptions([], { TRAINING: 'off' }), /needs --store/);
  });

  it('takes --ingest-only (or INGEST_ONLY=on) with a shared store and Redis, training nothing, and refuses it without either', () => {
    const shared = ['--store', 'postgres://u@localhost/db', '--redis', 'redis://localhost:6379'];
    const flag = parseCompanionOptions([...shared, '--ingest-only'], {});
    assert.ok(flag !== 'help');
    assert.equal(flag.ingestOnly, true);
    assert.equal(flag.trains, false, 'an ingest-only companion folds nothing to train on');
    const fromEnv = parseCompanionOptions(shared, { INGEST_ONLY: 'on' });
    assert.ok(fromEnv !== 'help');
    assert.equal(fromEnv.ingestOnly, true);
    const plain = parseCompanionOptions(shared, {});
    assert.ok(plain !== 'help');
    assert.equal(plain.ingestOnly, undefined);
    assert.throws(() => parseCompanionOptions(['--ingest-only', '--redis', 'redis://localhost:6379'], {}), /--ingest-only \(INGEST_ONLY=on\) needs --store and --redis/);
    assert.throws(() => parseCompanionOptions(['--ingest-only', '--store', 'postgres://u@localhost/db'], {}), /needs --store and --redis/);
  });

  it('refuses a heap growth that is not a percentage from 0 to 400, naming the option', () => {
    for (const bad of ['-5', '1.5', 'lots', '401']) assert.throws(() => parseCompanionOptions([`--heap-growth=${bad}`], {}), /--heap-growth must be an integer percentage/);
    assert.throws(() => parseCompanionOptions([], { HEAP_GROWTH_PERCENT: 'lots' }), /--heap-growth must be an integer percentage/);
  });

  it('refuses a bad port, an unknown option, and production mode without a configuration', () => {
    assert.throws(() => parseCompanionOptions(['--port', 'eighty'], {}), UsageError);
    assert.throws(() => parseCompanionOptions(['--prot', '1'], {}), UsageError);
    assert.throws(() => parseCompanionOptions(['--no-demo'], {}), /--config/);
    assert.throws(() => parseCompanionOptions([], { DEMO: 'off' }), /--config/);
    const production = parseCompanionOptions(['--no-demo', '--config', 'shop.json'], {});
    assert.ok(production !== 'help');
    assert.equal(production.demo, false);
  });
});

describe('companion process', () => {
  it('serves the demo configuration, refuses a second server on its data directory, and stops cleanly on SIGTERM', async () => {
    const dataDir = await tempDir();
    const first = await startCompanion(['--data-dir', dataDir]);
    const health = await (await fetch(`${first.url}/health`)).json();
    assert.equal(health.status, 'ok');
    assert.ok(existsSync(join(dataDir, 'server.lock')));

    const second = await runToExit(['--data-dir', dataDir]);
    assert.equal(second.code, 2);
    assert.match(second.output, /in use by another Discovery Kit server/);

    first.child.kill('SIGTERM');
    const [code] = (await once(first.child, 'exit')) as [number | null];
    assert.equal(code, 0);
    assert.equal(existsSync(join(dataDir, 'server.lock')), false);
  });

  it('refuses to start on a configuration with a typo, naming the file and the field', async () => {
    const dir = await tempDir();
    const config = JSON.parse(await readFile(DEMO_CONFIG, 'utf8'));
    config.tenants[0].environments[0].widgets[0].minResult = 3;
    const file = join(dir, 'shop.json');
    await writeFile(file, JSON.stringify(config));
    const result = await runToExit(['--config', file, '--data-dir', join(dir, 'data')]);
    assert.equal(result.code, 2);
    assert.match(result.output, new RegExp(`Invalid configuration in ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`));
    assert.match(result.output, /tenants\[0\]\.environments\[0\]\.widgets\[0\].*minResult/);
  });
});

/** GET on the catalog API for the demo shop's production environment, as its back office (the demo service account) calls it. */
async function catalogApi(url: string): Promise<(path: string) => Promise<{ status: number; body: any }>> {
  const { createTokenProvider } = await import('@discovery-kit/client');
  const key = await readFile(fileURLToPath(new URL('../demo/keys/demo-service-account.private.pem', import.meta.url)), 'utf8');
  const tokens = createTokenProvider({ tokenUrl: `${url}/auth/realms/demo-shop/protocol/openid-connect/token`, clientId: 'demo-backoffice', privateKeyPem: key });
  return async (path) => {
    const response = await fetch(`${url}/catalog${path}?tenant=demo-shop&environment=production`, { headers: { authorization: await tokens.authorization() } });
    return { status: response.status, body: await response.json() };
  };
}

describe('demo seeding', () => {
  it('makes the demo catalog the active catalog on a first start, and leaves it alone on the next', async () => {
    const { startCompanion: start } = await import('../src/companion.js');
    const { createLogger } = await import('@discovery-kit/server');
    const dataDir = await tempDir();
    const options = { configFile: DEMO_CONFIG, port: 0, host: '127.0.0.1', dataDir, demo: true, demoActivities: false, logLevel: 'silent', sdkDir: DEFAULT_SDK_DIR };
    const first = await start(options, createLogger('silent'));
    const firstCatalog = await catalogApi(first.url);
    assert.equal((await firstCatalog('/catalogs/active')).body.version, 1);
    assert.equal((await firstCatalog('/items/84029')).body.type, 'product');
    // Every demo product is searchable (the demo search token's empty query counts them).
    const everything = await fetch(`${first.url}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: 'demo-search-token', query: '' }) });
    assert.equal(((await everything.json()) as { metadata: { count: number } }).metadata.count, 2750);
    await first.server.close();

    const second = await start(options, createLogger('silent'));
    assert.deepEqual((await (await catalogApi(second.url))('/catalogs')).body.catalogs.map((c: { version: number }) => c.version), [1]);
    await second.server.close();
  });

  it('imports demo activities through the service, so that demo widgets answer from them', async () => {
    const { startCompanion: start } = await import('../src/companion.js');
    const { seedDemoActivities } = await import('../src/demo-seed.js');
    const { createLogger } = await import('@discovery-kit/server');
    const dataDir = await tempDir();
    const running = await start({ configFile: DEMO_CONFIG, port: 0, host: '127.0.0.1', dataDir, demo: true, demoActivities: false, logLevel: 'silent', sdkDir: DEFAULT_SDK_DIR }, createLogger('silent'));
    try {
      // A subset keeps the suite quick; the whole history is what `npm run dev` imports.
      assert.equal(await seedDemoActivities(running.server, createLogger('silent'), { limit: 20_000 }), 20_000);
      const res = await fetch(`${running.url}/widget/demo-popular/recommendations`);
      const body = (await res.json()) as { recommendations: Array<{ strategy: string }> };
      assert.equal(res.status, 200);
      assert.ok(body.recommendations.length > 0);
      assert.equal(body.recommendations[0]!.strategy, 'popular');
    } finally {
      await running.server.close();
    }
  });

  it('seeds nothing in production mode', async () => {
    const { startCompanion: start } = await import('../src/companion.js');
    const { createLogger } = await import('@discovery-kit/server');
    const dataDir = await tempDir();
    const server = await start({ configFile: DEMO_CONFIG, port: 0, host: '127.0.0.1', dataDir, demo: false, logLevel: 'silent', sdkDir: DEFAULT_SDK_DIR }, createLogger('silent'));
    assert.deepEqual((await (await catalogApi(server.url))('/catalogs')).body, { catalogs: [] });
    await server.server.close();
  });
});

describe('token command', () => {
  it('prints an access token of a demo account that the guarded endpoints accept', async () => {
    const dataDir = await tempDir();
    const companion = await startCompanion(['--data-dir', dataDir]);
    try {
      const cli = fileURLToPath(new URL('../src/token-cli.ts', import.meta.url));
      const child = spawn(process.execPath, ['--import', 'tsx', cli, 'demo-legacy', '--url', companion.url], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let said = '';
      child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stderr!.on('data', (chunk: Buffer) => (said += chunk.toString()));
      const [code] = (await once(child, 'exit')) as [number | null];
      assert.equal(code, 0);
      const token = out.trim();
      assert.match(token, /^[\w-]+\.[\w-]+\.[\w-]+$/);
      // How long it lasts, on stderr, so that $(…) captures the token alone.
      assert.match(said, /^Token for demo-legacy \(realm master\): valid (29\d|300) s, until \d\d:\d\d:\d\d UTC\./);
      const response = await fetch(`${companion.url}/items/contexts/tenant/demo-shop`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(response.status, 200);
    } finally {
      companion.child.kill('SIGTERM');
      await once(companion.child, 'exit');
    }
  });
});
