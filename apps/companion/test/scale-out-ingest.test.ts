/**
 * An ingest tier (docs/scale-out.md, "An ingest tier"): a companion started with --ingest-only takes
 * activities and folds none; a serving companion folds them from the shared log and answers everything
 * else. Real PostgreSQL and Redis, two companion processes on real ports.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomInt, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import pg from 'pg';
import { Redis } from 'ioredis';
import { startPostgres, startRedis, type PostgresServer, type RedisServer } from '../../../packages/server/test/support/engines.js';
import { DEMO_CONFIG } from '../src/options.js';
import { startCompanionProcess, type CompanionProcess } from './support/companion-process.js';
import { recentlyViewed } from './support/demo-widgets.js';
import { eventually } from '../../../packages/server/test/support/shared-store-servers.js';

let postgres: PostgresServer;
let redis: RedisServer;
let dir: string;
let serving: CompanionProcess;
let ingest: CompanionProcess;

const headers = () => ({ 'content-type': 'application/json', 'x-forwarded-for': `10.${randomInt(256)}.${randomInt(256)}.${randomInt(256)}` });
const collect = (base: string, body: unknown, extra: Record<string, string> = {}) => fetch(`${base}/collect/demo-tracker-key`, { method: 'POST', headers: { ...headers(), ...extra }, body: JSON.stringify(body) });

before(async () => {
  postgres = await startPostgres();
  redis = await startRedis();
  dir = await mkdtemp(join(tmpdir(), 'discovery-ingest-'));
  const demo = JSON.parse(await readFile(DEMO_CONFIG, 'utf8')) as { tenants: Array<{ serviceAccounts: Array<{ publicKeyFile?: string }> }> };
  Object.assign(demo, { trustedProxies: 1, publicRateLimits: { enabled: false }, activityLog: { foldLag: { records: 100_000, seconds: 2 }, erasureNoticeSeconds: 600 } });
  for (const tenant of demo.tenants) for (const account of tenant.serviceAccounts) if (account.publicKeyFile !== undefined) account.publicKeyFile = resolve(dirname(DEMO_CONFIG), account.publicKeyFile);
  const config = join(dir, 'shop.json');
  await writeFile(config, JSON.stringify(demo));
  const args = ['--config', config, '--store', postgres.url, '--redis', redis.url];
  serving = await startCompanionProcess(args, { DEMO: 'on', DATA_DIR: join(dir, 'serving') });
  ingest = await startCompanionProcess([...args, '--ingest-only'], { DEMO: 'on', DATA_DIR: join(dir, 'ingest') });
});

after(async () => {
  await ingest?.kill();
  await serving?.kill();
  await redis?.dispose();
  postgres?.dispose();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe('an ingest-only companion beside a serving one', () => {
  it('takes activities that the serving companion shows within seconds', async () => {
    const session = randomUUID();
    const taken = await collect(ingest.url, [
      { action: 'view', target: { product: '10002' }, user: { identities: { sessionid: session } } },
      { action: 'view', target: { product: '10080' }, user: { identities: { sessionid: session } } },
    ]);
    assert.equal(taken.status, 200, await taken.clone().text());
    await eventually(async () => assert.deepEqual(await recentlyViewed(serving.url, session, headers()), ['10080', '10002']), 3000);
    // The older tracker's writes are taken too.
    const identified = await fetch(`${ingest.url}/tracker/demo-tracker-key/identify`, { method: 'POST', headers: headers(), body: JSON.stringify({ profile: {} }) });
    assert.equal(identified.status, 200, await identified.clone().text());
  });

  it('answers everything else 421 ingest_only, naming where to send it, and its probes 200', async () => {
    const reads = [
      fetch(`${ingest.url}/widget/demo-recently-viewed/recommendations/sessionid/${randomUUID()}/`, { headers: headers() }),
      fetch(`${ingest.url}/search`, { method: 'POST', headers: headers(), body: JSON.stringify({ token: 'demo-search-token', query: 'bag' }) }),
      fetch(`${ingest.url}/tracker/demo-tracker-key/profiles/p_x/activities`, { headers: headers() }),
      fetch(`${ingest.url}/admin/widgets`, { headers: headers() }),
      fetch(`${ingest.url}/shop/`, { headers: headers() }),
    ];
    for (const response of await Promise.all(reads)) {
      assert.equal(response.status, 421, response.url);
      const body = (await response.json()) as { error: { code: string; message: string } };
      assert.equal(body.error.code, 'ingest_only');
      assert.match(body.error.message, /--ingest-only.*serving companion/);
    }
    for (const probe of ['/health', '/ready', '/metrics']) assert.equal((await fetch(`${ingest.url}${probe}`)).status, 200, probe);
    // It keeps no search index (the serving companion holds the demo catalog's), so its memory is the log's and the profiles'.
    const documents = async (base: string) => Number(/^discovery_search_index_documents (\d+)$/m.exec(await (await fetch(`${base}/metrics`)).text())?.[1]);
    assert.equal(await documents(ingest.url), 0);
    assert.ok((await documents(serving.url)) > 100);
    // The serving companion answers the same read.
    assert.equal((await fetch(`${serving.url}/widget/demo-recently-viewed/recommendations/sessionid/${randomUUID()}/`, { headers: headers() })).status, 200);
  });

  it('logs an activity once when its send reaches the ingest companion and its retry the serving one', async () => {
    const ids = Array.from({ length: 5 }, () => `ingest-twice-${randomUUID()}`);
    for (const id of ids) {
      const body = [{ id, action: 'view', target: { product: '10002' }, user: { identities: { sessionid: id } } }];
      assert.equal((await collect(ingest.url, body)).status, 200);
      assert.equal((await collect(serving.url, body)).status, 200);
      // And the other way round, with an Idempotency-Key.
      const key = `k-${id}`;
      assert.equal((await collect(serving.url, [{ action: 'view', target: { product: '10080' }, user: { identities: { sessionid: id } } }], { 'idempotency-key': key })).status, 200);
      assert.equal((await collect(ingest.url, [{ action: 'view', target: { product: '10080' }, user: { identities: { sessionid: id } } }], { 'idempotency-key': key })).status, 200);
    }
    const client = new pg.Client(postgres.url);
    await client.connect();
    try {
      const { rows } = await client.query<{ profile: string; n: string }>("SELECT record->>'sessionId' AS profile, count(*) AS n FROM events WHERE record->>'sessionId' LIKE 'ingest-twice-%' GROUP BY 1");
      assert.equal(rows.length, ids.length);
      assert.deepEqual(new Set(rows.map((row) => row.n)), new Set(['2']), 'each session has its two views once');
    } finally {
      await client.end();
    }
  });

  it('answers 429 with Retry-After while a serving companion is behind, and takes activities again once it caught up', async () => {
    const board = new Redis(redis.url);
    try {
      // What a serving companion 40 s behind the log would publish (it publishes every half second; this one is fresh).
      const behind = setInterval(() => void board.hset('dk:fold-lag:demo-shop', 'a-stuck-process', `40000:${Date.now()}`), 200);
      try {
        await eventually(async () => {
          const refused = await collect(ingest.url, [{ action: 'view', target: { product: '10002' }, user: { identities: { sessionid: randomUUID() } } }]);
          assert.equal(refused.status, 429);
          assert.ok(Number(refused.headers.get('retry-after')) >= 1);
          assert.match(((await refused.json()) as { error: { message: string } }).error.message, /serving this shop are 40 s behind/);
        }, 3000);
      } finally {
        clearInterval(behind);
      }
      await board.hdel('dk:fold-lag:demo-shop', 'a-stuck-process');
      await eventually(async () => assert.equal((await collect(ingest.url, [{ action: 'view', target: { product: '10002' }, user: { identities: { sessionid: randomUUID() } } }])).status, 200), 3000);
      // A process that stopped publishing (stopped, crashed) holds nobody back once its last word is 5 s old.
      await board.hset('dk:fold-lag:demo-shop', 'a-stopped-process', `40000:${Date.now() - 6000}`);
      await new Promise((r) => setTimeout(r, 1200));
      assert.equal((await collect(ingest.url, [{ action: 'view', target: { product: '10002' }, user: { identities: { sessionid: randomUUID() } } }])).status, 200);
    } finally {
      board.disconnect();
    }
  });
});
