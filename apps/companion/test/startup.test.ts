/** Start-up as an operator sees it: the port answers at once, /ready says when warm, the compiled build runs on plain Node, logs suit the reader. */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { ConfigError, createLogger, defaultLogFormat, validateConfig } from '@discovery-kit/server';
import { startCompanion } from '../src/companion.js';
import { DEMO_CONFIG, DEFAULT_SDK_DIR } from '../src/options.js';
import { createProgress } from '../src/progress.js';
import { openStartupGate } from '../src/startup-gate.js';
import { Worker } from 'node:worker_threads';
import { buildServer } from '../../../scripts/build-server.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const dirs: string[] = [];
after(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'discovery-startup-'));
  dirs.push(dir);
  return dir;
}

describe('start-up gate', () => {
  it('answers /health at once, 503 with Retry-After on /ready and the APIs while loading, then serves the app', async () => {
    const gate = await openStartupGate(0, '127.0.0.1');
    let running: Awaited<ReturnType<typeof startCompanion>> | undefined;
    try {
      const health = await fetch(`${gate.url}/health`);
      assert.equal(health.status, 200);
      assert.equal((await health.json()).status, 'starting');
      const notReady = await fetch(`${gate.url}/ready`);
      assert.equal(notReady.status, 503);
      assert.equal(notReady.headers.get('retry-after'), '1');
      assert.equal((await notReady.json()).error.code, 'starting');
      const search = await fetch(`${gate.url}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"token":"demo-search-token","query":"heart"}' });
      assert.equal(search.status, 503);

      const options = { configFile: DEMO_CONFIG, port: 0, host: '127.0.0.1', dataDir: await tempDir(), demo: true, demoActivities: false, logLevel: 'silent', sdkDir: DEFAULT_SDK_DIR };
      running = await startCompanion(options, createLogger('silent'), { gate });
      assert.equal(running.url, gate.url);
      const ready = await fetch(`${gate.url}/ready`);
      assert.equal(ready.status, 200);
      assert.deepEqual(await ready.json(), { status: 'ready' });
      const found = await fetch(`${gate.url}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"token":"demo-search-token","query":"heart"}' });
      assert.equal(found.status, 200);
      assert.ok((await found.json()).items.length > 0);
    } finally {
      if (running !== undefined) await running.close();
      else await gate.close();
    }
  });
});

describe('compiled build', () => {
  it('runs on plain Node without tsx, logs JSON lines when not on a terminal, and stops cleanly on SIGTERM', async () => {
    // Inside the checkout, as a real build is, so that npm packages resolve from its node_modules.
    await mkdir(join(ROOT, 'dist'), { recursive: true });
    const out = await mkdtemp(join(ROOT, 'dist', 'server-test-'));
    dirs.push(out);
    await buildServer(out);
    const child = spawn(process.execPath, [join(out, 'main.js'), '--port', '0', '--data-dir', join(await tempDir(), 'data')], {
      stdio: ['ignore', 'pipe', 'pipe'],
      // No --import tsx: a TypeScript file reached at run time would fail to load.
      env: { ...process.env, DEMO_ACTIVITIES: 'off', NODE_OPTIONS: '' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const match = /listening on (http:\/\/\S+) /.exec(stderr);
        if (match && /is ready after/.test(stderr)) resolve(match[1]!);
      });
      child.on('exit', (code) => reject(new Error(`exited with ${code}: ${stderr}`)));
    });
    try {
      const health = await fetch(`${url}/health`);
      assert.equal(health.status, 200);
      assert.equal((await health.json()).status, 'ok');
      assert.equal((await fetch(`${url}/ready`)).status, 200);
      assert.equal((await fetch(`${url}/shop/`)).status, 200);
    } finally {
      child.kill('SIGTERM');
    }
    const [code] = (await once(child, 'exit')) as [number | null];
    assert.equal(code, 0);
    // `npm ci --omit=dev` installs only the workspaces' dependencies: the compiled code may import nothing else.
    const production = new Set<string>();
    for (const workspace of ['packages/protocol', 'packages/server', 'packages/client', 'packages/tracker', 'packages/elements', 'apps/companion', 'apps/storefront']) {
      const manifest = JSON.parse(readFileSync(join(ROOT, workspace, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
      for (const name of Object.keys(manifest.dependencies ?? {})) production.add(name);
    }
    for (const file of readdirSync(out).filter((name) => name.endsWith('.js'))) {
      const code = readFileSync(join(out, file), 'utf8');
      for (const [, specifier] of code.matchAll(/^import\b[^;]*?\bfrom\s*"([^"]+)";$/gm)) {
        if (specifier!.startsWith('node:') || specifier!.startsWith('.')) continue;
        const name = specifier!.split('/').slice(0, specifier!.startsWith('@') ? 2 : 1).join('/');
        assert.ok(production.has(name), `${file} imports ${name}, which is not a production dependency of any workspace`);
      }
    }
    // Worker threads run compiled entries of their own on plain Node (no tsx in production): the
    // training thread, given three shoppers' baskets, answers weights.
    const trainer = new Worker(join(out, 'model-worker.js'), { env: { ...process.env, NODE_OPTIONS: '' } });
    try {
      // Shoppers 0-2 touched items {0, 1}, {0, 1}, {1, 2}.
      const rows = { offsets: Int32Array.of(0, 2, 4, 6), items: Int32Array.of(0, 1, 0, 1, 1, 2), weights: Float32Array.of(1, 1, 1, 1, 1, 1), itemCount: 3 };
      trainer.postMessage({ rows, options: { lambda: 1, maxItems: 10, neighbours: 5, minShoppers: 1 } });
      const [answer] = (await once(trainer, 'message')) as [{ weights?: { values: Float32Array }; error?: string }];
      assert.equal(answer.error, undefined);
      assert.ok(answer.weights!.values.length > 0, 'the compiled training thread answered no weights');
    } finally {
      await trainer.terminate();
    }
    // The compiled search thread: given a configuration and a catalog, it answers a search.
    const searcher = new Worker(join(out, 'search-thread.js'), { env: { ...process.env, NODE_OPTIONS: '' }, workerData: { logLevel: 'silent' } });
    try {
      const config = validateConfig({ tenants: [{ id: 't', environments: [{ id: 'prod', searchTokens: [{ token: 'tok', configurations: [{ id: 'default' }] }] }] }] });
      const messages: { type: string; answer?: { body: ArrayBuffer; length: number } }[] = [];
      searcher.on('message', (message) => messages.push(message));
      const key = 't\u0000prod';
      const items = ['red lamp', 'blue bowl'].map((title, n) => ({ id: `p${n}`, type: 'product', catalogVersion: 1, attributes: { title } }));
      searcher.postMessage({ type: 'config', seq: 1, config });
      searcher.postMessage({ type: 'items', key, items });
      searcher.postMessage({ type: 'activate', key, seq: 1, tenantId: 't', environmentId: 'prod', version: 1 });
      // The thread builds its index in slices after `activate`: on a loaded machine a first search may find
      // it still empty. Asked again until it answers with the item (the server routes a search to a thread
      // only once that thread reports the version active).
      const ask = (id: number) => searcher.postMessage({ type: 'search', id, request: { tenantId: 't', environmentId: 'prod', token: 'tok', configurationId: 'default', query: 'lamp', offset: 0, limit: 10, sortBy: [], facets: [], filter: undefined, disabled: [], highlight: [], maskText: '', head: { id: 'search-1', url: 'http://x/search/tok', defaultConfigurationId: 'default', startedAt: performance.timeOrigin + performance.now() } } });
      type Body = { items: { id: string }[]; metadata: { count: number; id: string } };
      const decode = (m: (typeof messages)[number]): Body => JSON.parse(new TextDecoder().decode(new Uint8Array(m.answer!.body, 0, m.answer!.length))) as Body;
      const deadline = Date.now() + 10_000;
      let body: Body | undefined;
      for (let id = 1; body === undefined && Date.now() < deadline; id++) {
        const seen = messages.length;
        ask(id);
        while (messages.length === seen && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        const reply = messages.slice(seen).find((m) => m.type === 'answer');
        if (reply !== undefined && decode(reply).items.length > 0) body = decode(reply);
        else await new Promise((r) => setTimeout(r, 50));
      }
      assert.ok(body !== undefined, `the compiled search thread did not answer with the item: ${JSON.stringify(messages.slice(-3))}`);
      assert.deepEqual(body.items.map((item) => item.id), ['p0']);
      assert.equal(body.metadata.count, 1);
      assert.equal(body.metadata.id, 'search-1');
    } finally {
      await searcher.terminate();
    }
    const lines = stdout.trim().split('\n');
    assert.ok(lines.length > 2);
    for (const line of lines) assert.equal(typeof JSON.parse(line).msg, 'string', line);
    assert.ok(lines.some((line) => JSON.parse(line).msg === 'Discovery Kit is ready'));
  });
});

describe('logs and progress', () => {
  it('picks JSON lines for pipes and production, pretty lines for a terminal, and LOG_FORMAT over both', () => {
    assert.equal(defaultLogFormat({}, true), 'pretty');
    assert.equal(defaultLogFormat({}, false), 'json');
    assert.equal(defaultLogFormat({ NODE_ENV: 'production' }, true), 'json');
    assert.equal(defaultLogFormat({ LOG_FORMAT: 'pretty', NODE_ENV: 'production' }, false), 'pretty');
  });

  it('writes one readable line per entry in pretty mode, secrets still redacted', () => {
    const sink = new PassThrough();
    let text = '';
    sink.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const logger = createLogger('info', { format: 'pretty', destination: sink });
    logger.info({ tenant: 'demo-shop', authorization: 'Bearer secret-value', ms: 12 }, 'catalog promoted');
    logger.debug('hidden below the level');
    assert.match(text, /^\d\d:\d\d:\d\d\.\d{3} INFO +catalog promoted {2}tenant=demo-shop authorization=\[redacted\] ms=12\n$/);
    assert.doesNotMatch(text, /secret-value/);
  });

  it('refuses to start on a widget filter that does not parse, naming the file and the field, before touching the data directory', async () => {
    const dir = await tempDir();
    const config = JSON.parse(readFileSync(DEMO_CONFIG, 'utf8')) as { tenants: Array<{ serviceAccounts: Array<{ publicKeyFile?: string }>; environments: Array<{ widgets: Array<{ id: string; filters?: unknown[] }> }> }> };
    for (const tenant of config.tenants) {
      for (const account of tenant.serviceAccounts) if (account.publicKeyFile !== undefined) account.publicKeyFile = resolve(dirname(DEMO_CONFIG), account.publicKeyFile);
    }
    const widget = config.tenants[0]!.environments[0]!.widgets.findIndex((w) => w.filters !== undefined);
    config.tenants[0]!.environments[0]!.widgets[widget]!.filters = [{ where: 'categories = $category OR' }];
    const configFile = join(dir, 'shop.json');
    await writeFile(configFile, JSON.stringify(config));
    const dataDir = join(dir, 'data');
    await assert.rejects(
      startCompanion({ configFile, dataDir, port: 0, host: '127.0.0.1', demo: false, logLevel: 'silent', sdkDir: DEFAULT_SDK_DIR }, createLogger('silent')),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.ok(error.message.includes(configFile));
        assert.deepEqual(error.problems, [`tenants[0].environments[0].widgets[${widget}].filters[0].where: Filter syntax error at position 25: expected an attribute name, NOT or '(', found the end of the filter.`]);
        return true;
      },
    );
    assert.equal(existsSync(dataDir), false);
  });

  it('prints a progress line every 10 % when not on a terminal, and a summary', () => {
    const sink = new PassThrough();
    let text = '';
    sink.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const progress = createProgress({ label: 'Importing', total: 1000, out: sink });
    for (let done = 0; done <= 1000; done += 50) progress.update(done);
    progress.finish('1,000 items');
    const lines = text.trim().split('\n');
    assert.deepEqual(lines.slice(0, 10), [10, 20, 30, 40, 50, 60, 70, 80, 90, 100].map((p) => `Importing: ${p}% (${(p * 10).toLocaleString('en-GB')} of 1,000)`));
    assert.match(lines[10]!, /^Importing: done in \d+\.\d s — 1,000 items$/);
  });
});

