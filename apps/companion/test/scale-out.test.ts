/**
 * Two companions, one shop: real PostgreSQL and Redis servers (Debian's packages, installed by the
 * harness when root; otherwise this fails naming them), two companion processes on them, and each
 * promise of docs/scale-out.md checked by writing on one process and reading on the other, then by
 * taking processes and engines away. `npm run test:scale-out` runs this file alone.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomInt, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { Redis } from 'ioredis';
import { SignJWT, importPKCS8 } from 'jose';
import { startPostgres, startRedis, type PostgresServer, type RedisServer } from '../../../packages/server/test/support/engines.js';
import { DEMO_CONFIG } from '../src/options.js';
import { startCompanionProcess, type CompanionProcess } from './support/companion-process.js';
import { recentlyViewed as recentlyViewedOf } from './support/demo-widgets.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** What a load balancer would put in front of both: the token endpoint's audience is this, not a process's port. */
const PUBLIC_URL = 'http://shop.scale-out.test';
const TOKEN_PATH = '/auth/realms/demo-shop/protocol/openid-connect/token';

let postgres: PostgresServer;
let redis: RedisServer;
let dir: string;
let configFile: string;
const companions: CompanionProcess[] = [];

/** Starts a companion process on the shared engines; resolves once its /ready answers 200. */
async function startCompanion(demo: boolean, config = configFile): Promise<CompanionProcess> {
  const companion = await startCompanionProcess(['--config', config, '--store', postgres.url, '--redis', redis.url], {
    DEMO: demo ? 'on' : 'off',
    DATA_DIR: join(dir, `unused-${companions.length}`),
  });
  companions.push(companion);
  return companion;
}

async function eventually(check: () => Promise<void>, ms = 2000): Promise<number> {
  const started = Date.now();
  for (;;) {
    try {
      await check();
      return Date.now() - started;
    } catch (error) {
      if (Date.now() - started > ms) throw error;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

async function assertion(): Promise<string> {
  const key = await importPKCS8(await readFile(join(ROOT, 'apps/companion/demo/keys/demo-service-account.private.pem'), 'utf8'), 'RS256');
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'RS256' })
    .setIssuer('demo-backoffice')
    .setSubject('demo-backoffice')
    .setAudience(`${PUBLIC_URL}${TOKEN_PATH}`)
    .setIssuedAt(now)
    .setExpirationTime(now + 60)
    .setJti(randomUUID())
    .sign(key);
}

function tokenRequest(base: string, signed: string): Promise<Response> {
  return fetch(`${base}${TOKEN_PATH}`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: 'demo-backoffice',
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: signed,
    }),
  });
}

/** A shopper's address as the load balancer forwards it: a new one each time unless given. */
function forwardedFor(address = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(256)}`): Record<string, string> {
  return { 'x-forwarded-for': address };
}

function post(url: string, body: unknown, token?: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...forwardedFor(), ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
    body: JSON.stringify(body),
  });
}

async function search(base: string, query: string): Promise<string[]> {
  const response = await post(`${base}/search`, { token: 'demo-search-token', query, options: { limit: 5, customResponseMask: 'id' } });
  assert.equal(response.status, 200);
  return ((await response.json()) as { items: Array<{ id: string }> }).items.map((item) => item.id);
}

const recentlyViewed = (base: string, session: string) => recentlyViewedOf(base, session, forwardedFor());

before(async () => {
  // Fails (never skips) when the engines cannot be installed: the message names the packages.
  postgres = await startPostgres();
  redis = await startRedis();
  dir = await mkdtemp(join(tmpdir(), 'discovery-scale-out-'));
  const demo = JSON.parse(await readFile(DEMO_CONFIG, 'utf8')) as { publicUrl?: string; tenants: Array<{ serviceAccounts: Array<{ publicKeyFile?: string }> }> };
  demo.publicUrl = PUBLIC_URL;
  // Low enough for the test to pass it from two processes together, not from either alone.
  // Behind a load balancer: the client address is the last X-Forwarded-For entry. The tests' own
  // requests each come from an address of their own, so only the rate-limit test meets the limit.
  Object.assign(demo, { trustedProxies: 1, publicRateLimits: { perAddress: { perSecond: 10, burst: 100 } } });
  for (const tenant of demo.tenants) {
    for (const account of tenant.serviceAccounts) if (account.publicKeyFile !== undefined) account.publicKeyFile = resolve(dirname(DEMO_CONFIG), account.publicKeyFile);
  }
  configFile = join(dir, 'shop.json');
  await writeFile(configFile, JSON.stringify(demo));
  // B answers searches on a search thread too: what A writes must reach B's thread, or B's main thread answer.
  const threadedConfig = join(dir, 'shop-threads.json');
  await writeFile(threadedConfig, JSON.stringify({ ...demo, searchThreads: 1 }));
  // The first seeds the demo catalog; the second starts on what the first stored.
  await startCompanion(true);
  await startCompanion(false, threadedConfig);
});

after(async () => {
  for (const companion of companions) await companion.kill();
  await redis?.dispose();
  postgres?.dispose();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe('two companions on one PostgreSQL and one Redis', () => {
  it('refuses on B an assertion jti already used on A', async () => {
    const [a, b] = companions;
    const signed = await assertion();
    const first = await tokenRequest(a!.url, signed);
    assert.equal(first.status, 200, await first.clone().text());
    const again = await tokenRequest(b!.url, signed);
    assert.equal(again.status, 400);
    assert.match(((await again.json()) as { error_description: string }).error_description, /jti .* was already used/);
  });

  // On the demo catalog: the next test promotes a catalog of three items.
  it('serves on B the order learned from clicks collected on A, within seconds', async () => {
    const [a, b] = companions;
    const response = await post(`${a!.url}/search`, { token: 'demo-search-token', query: 'candle', options: { limit: 5, customResponseMask: 'id' } });
    const answer = (await response.json()) as { items: Array<{ id: string }>; metadata: { id: string } };
    const fourth = answer.items[3]!.id;
    for (const shopper of ['l1', 'l2', 'l3']) {
      const click = { action: 'click', target: { product: fourth }, user: { identities: { sessionid: `learning-${shopper}` } }, sourceId: answer.metadata.id, metadata: { query: 'candle', position: 4 } };
      const sent = await post(`${a!.url}/collect/demo-tracker-key`, [click]);
      assert.equal(sent.status, 200, await sent.clone().text());
    }
    // B folds the same shared log: its answers (a search thread's too) follow once its answer cache renews (5 s).
    await eventually(async () => assert.equal((await search(b!.url, 'candle'))[0], fourth), 10_000);
    assert.equal((await search(a!.url, 'candle'))[0], fourth);
  });

  it('serves on B, within 2 s, a catalog promoted through A', async () => {
    const [a, b] = companions;
    const token = ((await (await tokenRequest(a!.url, await assertion())).json()) as { access_token: string }).access_token;
    const q = 'tenant=demo-shop&environment=production';
    const schema = await post(`${a!.url}/catalog/item-schemas?${q}`, { name: 'scaleout', attributes: [{ name: 'title', type: 'TEXT' }] }, token);
    assert.equal(schema.status, 201, await schema.clone().text());
    const created = await post(`${a!.url}/catalog/catalogs?${q}`, { catalogItemSchemas: [{ name: 'scaleout', version: 1 }] }, token);
    assert.equal(created.status, 201, await created.clone().text());
    const { version } = (await created.json()) as { version: number };
    const items = await post(
      `${a!.url}/catalog/items?${q}`,
      [
        { id: 'zx-1', catalogVersion: version, type: 'scaleout', attributes: { title: 'Quokka lantern' } },
        { id: 'zx-2', catalogVersion: version, type: 'scaleout', attributes: { title: 'Wombat teapot' } },
      ],
      token,
    );
    assert.ok(items.ok, await items.clone().text());
    assert.deepEqual(await search(b!.url, 'quokka'), []);
    const promoted = await fetch(`${a!.url}/catalog/catalogs/promote/${version}?${q}`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    assert.equal(promoted.status, 202);
    await eventually(async () => assert.deepEqual(await search(a!.url, 'quokka'), ['zx-1']), 30_000);
    const lag = await eventually(async () => assert.deepEqual(await search(b!.url, 'quokka'), ['zx-1']));
    assert.ok(lag <= 2000);

    // A write to the active catalog through A, then searched on B.
    const patched = await post(`${a!.url}/catalog/items?${q}`, [{ id: 'zx-3', catalogVersion: version, type: 'scaleout', attributes: { title: 'Platypus kettle' } }], token);
    assert.ok(patched.ok, await patched.clone().text());
    await eventually(async () => assert.deepEqual(await search(b!.url, 'platypus'), ['zx-3']));
    // B's search thread follows A's writes too: once it has read the catalog again it answers, and the same.
    await eventually(async () => {
      assert.deepEqual(await search(b!.url, 'platypus'), ['zx-3']);
      const metrics = await (await fetch(`${b!.url}/metrics`)).text();
      const before = Number(/discovery_search_thread_answers_total\{answered_by="thread"\} (\d+)/.exec(metrics)?.[1] ?? 0);
      assert.deepEqual(await search(b!.url, 'platypus'), ['zx-3']);
      const after = Number(/discovery_search_thread_answers_total\{answered_by="thread"\} (\d+)/.exec(await (await fetch(`${b!.url}/metrics`)).text())?.[1] ?? 0);
      assert.equal(after, before + 1, 'B\'s search thread answered');
    }, 10_000);
  });

  it('trains the recommendation model once for both: the lease holder trains, the other loads what it stored', async () => {
    const [a, b] = companions;
    const figure = async (url: string, name: string) => Number(new RegExp(`^${name} (\\d+)`, 'm').exec(await (await fetch(`${url}/metrics`)).text())?.[1] ?? 0);
    const trained = async (url: string) => figure(url, 'discovery_recommendation_model_training_seconds_count');
    const loaded = async (url: string) => figure(url, 'discovery_recommendation_models_loaded_total');
    assert.deepEqual([await trained(a!.url), await trained(b!.url)], [0, 0], 'too little activity for a model yet');
    // Enough views for a first model, through both processes: each folds them all, and each finds a model due.
    for (let shopper = 0; shopper < 12; shopper++) {
      const sessionid = randomUUID();
      const views = ['zx-1', 'zx-2', 'zx-3'].map((product) => ({ action: 'view', target: { product }, user: { identities: { sessionid } } }));
      const sent = await post(`${companions[shopper % 2]!.url}/collect/demo-tracker-key`, views);
      assert.equal(sent.status, 200, await sent.clone().text());
    }
    await eventually(async () => assert.equal((await loaded(a!.url)) + (await loaded(b!.url)), 1, 'one process loaded the model the other trained'), 30_000);
    assert.deepEqual([await trained(a!.url), await trained(b!.url)].sort(), [0, 1], 'exactly one of them trained');
  });

  it("shows on B, within 2 s, a shopper's activity collected on A, and the profile A identified", async () => {
    const [a, b] = companions;
    const session = randomUUID();
    const collected = await post(`${a!.url}/collect/demo-tracker-key`, [{ action: 'view', target: { product: 'zx-2' }, user: { identities: { sessionid: session } } }]);
    assert.equal(collected.status, 200, await collected.clone().text());
    await eventually(async () => assert.deepEqual(await recentlyViewed(b!.url, session), ['zx-2']));

    const identified = await post(`${a!.url}/tracker/demo-tracker-key/identify`, { profile: {} });
    const { id } = ((await identified.json()) as { profile: { id: string } }).profile;
    const logged = await post(`${a!.url}/tracker/demo-tracker-key/activity`, { activity: [{ profile: id, verb: 'view', type: 'product', original_id: 'zx-1' }] });
    assert.ok(logged.ok, await logged.clone().text());
    await eventually(async () => {
      const history = await fetch(`${b!.url}/tracker/demo-tracker-key/profiles/${id}/activities?page%5Bsize%5D=10`, { headers: forwardedFor() });
      assert.equal(history.status, 200);
      assert.match(await history.text(), /zx-1/);
    });

    // A merges the anonymous session into the customer it logs in as; B moves what it kept under the
    // session to the customer as well, so the customer's widgets on B show the views of both.
    const merged = await post(`${a!.url}/collect/demo-tracker-key`, [{ action: 'view', target: { product: 'zx-3' }, user: { identities: { sessionid: session, 'customer-id': 'c-scale-1' } } }]);
    assert.equal(merged.status, 200, await merged.clone().text());
    await eventually(async () => {
      const response = await fetch(`${b!.url}/widget/demo-recently-viewed/recommendations/customer-id/c-scale-1/`, { headers: forwardedFor() });
      assert.equal(response.status, 200);
      const body = (await response.json()) as { recommendations: Array<{ product: { _id: { original_id: string } } }> };
      assert.deepEqual(body.recommendations.map((r) => r.product._id.original_id), ['zx-3', 'zx-2']);
    });
    // B adopted the anonymous profile from the log (anonymous profiles are never in the shards); once A's
    // merge reaches it, the session leads B to the customer too, and what B records under it is the customer's.
    await eventually(async () => assert.deepEqual(await recentlyViewed(b!.url, session), ['zx-3', 'zx-2']));
    const later = await post(`${b!.url}/collect/demo-tracker-key`, [{ action: 'view', target: { product: 'zx-1' }, user: { identities: { sessionid: session } } }]);
    assert.equal(later.status, 200, await later.clone().text());
    await eventually(async () => {
      const response = await fetch(`${a!.url}/widget/demo-recently-viewed/recommendations/customer-id/c-scale-1/`, { headers: forwardedFor() });
      const body = (await response.json()) as { recommendations: Array<{ product: { _id: { original_id: string } } }> };
      assert.deepEqual(body.recommendations.map((r) => r.product._id.original_id), ['zx-1', 'zx-3', 'zx-2']);
    });
    // Each process folded the other's records up to the head of the log: no lag, however old the newest record.
    await new Promise((r) => setTimeout(r, 1100));
    for (const companion of [a!, b!]) assert.match(await (await fetch(`${companion.url}/metrics`)).text(), /^discovery_activity_fold_lag_seconds 0$/m);
  });

  it('forgets on B, within 2 s, a person erased through A: their history and their profile, a session\'s views too', async () => {
    const [a, b] = companions;
    const person = async () => ((await (await post(`${a!.url}/tracker/demo-tracker-key/identify`, { profile: {} })).json()) as { profile: { id: string } }).profile.id;
    const [erased, kept] = [await person(), await person()];
    for (const [profile, product] of [[erased, 'zx-1'], [erased, 'zx-2'], [kept, 'zx-3']] as const) {
      const logged = await post(`${a!.url}/tracker/demo-tracker-key/activity`, { activity: [{ profile, verb: 'view', type: 'product', original_id: product }] });
      assert.ok(logged.ok, await logged.clone().text());
    }
    const history = async (base: string, profile: string) => {
      const response = await fetch(`${base}/tracker/demo-tracker-key/profiles/${profile}/activities?page%5Bsize%5D=10`, { headers: forwardedFor() });
      return { status: response.status, text: await response.text() };
    };
    await eventually(async () => assert.match((await history(b!.url, erased)).text, /zx-2/));
    await eventually(async () => assert.match((await history(b!.url, kept)).text, /zx-3/));
    const token = ((await (await tokenRequest(a!.url, await assertion())).json()) as { access_token: string }).access_token;
    const erasure = await fetch(`${a!.url}/admin/profiles?profileId=${erased}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}`, ...forwardedFor() } });
    assert.equal(erasure.status, 200, await erasure.clone().text());
    await eventually(async () => {
      const onB = await history(b!.url, erased);
      assert.doesNotMatch(onB.text, /zx-[12]/, 'B still lists what the erased person viewed');
      assert.equal(onB.status, 404, 'B still knows the erased profile');
    });
    assert.match((await history(b!.url, kept)).text, /zx-3/, 'another person is untouched');

    // A visitor known only by a session: B took their profile from the log, and only A's notice makes B forget it.
    const session = randomUUID();
    for (const product of ['zx-1', 'zx-2']) {
      const sent = await post(`${a!.url}/collect/demo-tracker-key`, [{ action: 'view', target: { product }, user: { identities: { sessionid: session } } }]);
      assert.equal(sent.status, 200, await sent.clone().text());
    }
    await eventually(async () => assert.deepEqual(await recentlyViewed(b!.url, session), ['zx-2', 'zx-1']));
    const bySession = await fetch(`${a!.url}/admin/profiles?sessionId=${session}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}`, ...forwardedFor() } });
    assert.equal(bySession.status, 200, await bySession.clone().text());
    await eventually(async () => assert.deepEqual(await recentlyViewed(b!.url, session), [], 'B still shows what the erased visitor viewed'));
    assert.match((await history(b!.url, kept)).text, /zx-3/, 'another person is untouched');
  });

  it('runs one experiment on both processes: started through A, drawn alike on B, the same results read on each', async () => {
    const [a, b] = companions;
    const token = ((await (await tokenRequest(a!.url, await assertion())).json()) as { access_token: string }).access_token;
    const admin = (base: string, path: string, method = 'GET', body?: unknown) =>
      fetch(`${base}/admin/experiments${path}?environment=production`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...forwardedFor() }, body: body === undefined ? undefined : JSON.stringify(body) });
    const definition = { name: 'Scale-out test', widget: 'demo-popular', variants: [{ id: 'control', weight: 50 }, { id: 'b', weight: 50, widget: { strategies: ['trending'] } }] };
    assert.equal((await admin(a!.url, '/scale-out', 'PUT', definition)).status, 200);
    assert.equal((await admin(a!.url, '/scale-out/start', 'POST', {})).status, 200);
    const served = async (base: string, shopper: string) => (await (await fetch(`${base}/widget/demo-popular/recommendations/${shopper}`, { headers: forwardedFor() })).json()) as { id: string; experiment?: { variant: string } };
    await eventually(async () => assert.ok((await served(b!.url, 'x-probe')).experiment !== undefined, 'B serves the experiment A started'));
    for (let i = 0; i < 8; i++) {
      const [serving, collecting] = i % 2 === 0 ? [a!, b!] : [b!, a!];
      const shopper = `x-shopper-${i}`;
      const response = await served(serving.url, shopper);
      assert.equal(response.experiment?.variant, (await served(collecting.url, shopper)).experiment?.variant, 'both processes draw the shopper alike');
      const clicked = await post(`${collecting.url}/collect/demo-tracker-key`, { action: 'click', target: { product: '84029' }, sourceId: response.id, user: { sessionId: shopper } });
      assert.equal(clicked.status, 200, await clicked.clone().text());
    }
    const results = async (base: string) => (await (await admin(base, '/scale-out/results')).json()) as { variants: Array<{ users: number; exposures: number; clicks: number }> };
    await eventually(async () => {
      const [onA, onB] = [await results(a!.url), await results(b!.url)];
      assert.deepEqual(onA.variants, onB.variants);
      // The probe plus eight shoppers served twice each; one click per shopper on the response it named.
      assert.deepEqual([onA.variants.reduce((n, v) => n + v.users, 0), onA.variants.reduce((n, v) => n + v.exposures, 0), onA.variants.reduce((n, v) => n + v.clicks, 0)], [9, 17, 8]);
    }, 5_000);
    assert.equal((await admin(b!.url, '/scale-out/stop', 'POST', {})).status, 200);
    await eventually(async () => assert.equal((await served(a!.url, 'x-probe')).experiment, undefined, 'A stops serving the experiment B stopped'));
  });

  it("gives a new session one profile when its first activities reach both processes at the same moment, and each shows the other's view", async () => {
    const [a, b] = companions;
    const sessions = Array.from({ length: 8 }, () => randomUUID());
    const answers = await Promise.all(
      sessions.flatMap((session) => [
        post(`${a!.url}/collect/demo-tracker-key`, [{ action: 'view', target: { product: 'zx-1' }, user: { identities: { sessionid: session } } }]),
        post(`${b!.url}/collect/demo-tracker-key`, [{ action: 'view', target: { product: 'zx-2' }, user: { identities: { sessionid: session } } }]),
      ]),
    );
    assert.deepEqual(new Set(answers.map((answer) => answer.status)), new Set([200]));
    const client = new pg.Client(postgres.url);
    await client.connect();
    try {
      const { rows } = await client.query<{ session: string; profiles: string }>(
        "SELECT record->>'sessionId' AS session, count(DISTINCT record->>'profileId') AS profiles FROM events WHERE record->>'sessionId' = ANY($1) GROUP BY 1",
        [sessions],
      );
      assert.deepEqual(rows.map((row) => row.session).sort(), [...sessions].sort());
      assert.deepEqual(new Set(rows.map((row) => row.profiles)), new Set(['1']), 'each session was logged under one profile id by both processes');
    } finally {
      await client.end();
    }
    // Each process folds the other's view into the same profile: the session's widget shows both views on either.
    for (const session of sessions) {
      for (const companion of [a!, b!]) await eventually(async () => assert.deepEqual((await recentlyViewed(companion.url, session)).sort(), ['zx-1', 'zx-2']));
    }
  });

  it('logs an activity once when its send and its retry reach both processes at the same moment', async () => {
    const [a, b] = companions;
    const ids = Array.from({ length: 10 }, () => `twice-${randomUUID()}`);
    const answers = await Promise.all(
      ids.flatMap((id) => [a, b].map((companion) => post(`${companion!.url}/collect/demo-tracker-key`, [{ id, action: 'view', target: { product: 'zx-1' }, user: { identities: { sessionid: id } } }]))),
    );
    assert.deepEqual(
      answers.map((answer) => answer.status),
      ids.flatMap(() => [200, 200]),
    );
    const client = new pg.Client(postgres.url);
    await client.connect();
    try {
      const { rows } = await client.query<{ key: string; n: string }>("SELECT record->>'clientKey' AS key, count(*) AS n FROM events WHERE record->>'clientKey' LIKE 'id:twice-%' GROUP BY 1");
      assert.deepEqual(rows.map((row) => row.key).sort(), ids.map((id) => `id:${id}`).sort());
      assert.deepEqual(new Set(rows.map((row) => row.n)), new Set(['1']));
    } finally {
      await client.end();
    }
  });

  it('holds a public rate limit for the shop as a whole: two processes share the count in Redis', async () => {
    const [a, b] = companions;
    // 200 requests from one address, half to each process, well within one 10 s window of 100: either
    // process counting alone would let about 100 through itself.
    const statuses = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        fetch(`${(i % 2 === 0 ? a : b)!.url}/search`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...forwardedFor('203.0.113.9') },
          body: '{"token":"demo-search-token","query":"x"}',
        }).then(async (r) => {
        await r.arrayBuffer();
          return { status: r.status, retryAfter: Number(r.headers.get('retry-after')) };
        }),
      ),
    );
    assert.equal(statuses.filter((s) => s.status === 200).length, 100);
    const refused = statuses.filter((s) => s.status === 429);
    assert.equal(refused.length, 100);
    assert.ok(refused.every((s) => s.retryAfter >= 1 && s.retryAfter <= 10));
  });

  it('keeps serving while Redis is away, and shares counts again once it is back', async () => {
    const [a, b] = companions;
    const client = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => 200 });
    client.on('error', () => undefined);
    try {
      await redis.stop();
      for (const companion of [a, b]) assert.deepEqual(await search(companion!.url, 'wombat'), ['zx-2']);
      await redis.start();
      await client.connect();
      assert.deepEqual(await client.keys('dk:rate:*'), []);
      // Each process reconnects by itself: its next requests are counted in the new Redis.
      await eventually(async () => {
        for (const [index, companion] of [a, b].entries()) {
          const response = await fetch(`${companion!.url}/search`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...forwardedFor(`198.51.100.${index}`) },
            body: '{"token":"demo-search-token","query":"wombat"}',
          });
          assert.equal(response.status, 200);
        }
        assert.deepEqual((await client.keys('dk:rate:*:addr:198.51.100.*')).sort(), ['dk:rate:10000:addr:198.51.100.0', 'dk:rate:10000:addr:198.51.100.1']);
      }, 10_000);
    } finally {
      client.disconnect();
    }
  });

  it('loses no acknowledged activity when one process is killed -9 mid-flow, and the other keeps serving', async () => {
    const [a, b] = companions;
    const acknowledged: string[] = [];
    let stop = false;
    const send = async (base: string) => {
      while (!stop) {
        const id = `kill-${randomUUID()}`;
        try {
          const response = await post(`${base}/collect/demo-tracker-key`, [{ id, action: 'view', target: { product: 'zx-1' }, user: { identities: { sessionid: 'killed' } } }]);
          if (response.status === 200) acknowledged.push(id);
          else await response.arrayBuffer();
        } catch {
          // The killed process drops its connections: those sends were never acknowledged.
        }
      }
    };
    const senders = [send(a!.url), send(a!.url), send(b!.url), send(b!.url)];
    await new Promise((r) => setTimeout(r, 800));
    await b!.kill();
    await new Promise((r) => setTimeout(r, 500));
    stop = true;
    await Promise.all(senders);
    assert.ok(acknowledged.length > 10, `only ${acknowledged.length} activities were acknowledged`);
    const client = new pg.Client(postgres.url);
    await client.connect();
    try {
      const { rows } = await client.query<{ key: string }>("SELECT record->>'clientKey' AS key FROM events WHERE record->>'clientKey' LIKE 'id:kill-%'");
      // The client's activity id is stored as its idempotency key, `id:<id>`.
      const stored = new Set(rows.map((row) => row.key.slice('id:'.length)));
      assert.deepEqual(
        acknowledged.filter((id) => !stored.has(id)),
        [],
      );
    } finally {
      await client.end();
    }
    assert.deepEqual(await search(a!.url, 'wombat'), ['zx-2']);
    companions.splice(1, 1, await startCompanion(false));
  });

  it('answers writes 503 with Retry-After while PostgreSQL is away, keeps serving reads, and recovers by itself', async () => {
    const [a] = companions;
    postgres.stop();
    try {
      const refused = await post(`${a!.url}/collect/demo-tracker-key`, [{ action: 'view', target: { product: 'zx-1' } }]);
      assert.equal(refused.status, 503, await refused.clone().text());
      assert.ok(Number(refused.headers.get('retry-after')) > 0);
      assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'storage_unavailable');
      assert.deepEqual(await search(a!.url, 'wombat'), ['zx-2']);
    } finally {
      postgres.start();
    }
    await eventually(async () => {
      const accepted = await post(`${a!.url}/collect/demo-tracker-key`, [{ action: 'view', target: { product: 'zx-1' } }]);
      assert.equal(accepted.status, 200);
    }, 15_000);
  });
});
