/**
 * A process started with `trains: false` (the companion's --no-training) on a shared PostgreSQL store
 * never trains recommendation models, even with the trainer lease free and a model due; it serves the
 * model the process that does train stores. Two real servers on one real PostgreSQL schema, on real ports.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import pg from 'pg';
import { startPostgres, type PostgresServer } from './support/engines.js';
import type { DiscoveryServer } from '../src/app/server.js';
import { eventually, openOnSharedStore, type SharedStoreServer } from './support/shared-store-servers.js';
import { validateConfig } from '../src/platform/config/load.js';
import { createLogger } from '../src/platform/logger.js';

const TENANT = 'roles';
let postgres: PostgresServer | undefined;
const servers: DiscoveryServer[] = [];
after(async () => {
  for (const server of servers) await server.close();
  postgres?.dispose();
});

async function open(url: string, schema: string, trains: boolean, activityLog?: Record<string, unknown>): Promise<SharedStoreServer & { messages: string[]; reasons: string[] }> {
  const messages: string[] = [];
  /** The reasons of the trainings this server logged. */
  const reasons: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim() === '') continue;
        const entry = JSON.parse(line) as { msg?: unknown; reason?: unknown };
        messages.push(String(entry.msg));
        if (entry.msg === 'recommendation model trained') reasons.push(String(entry.reason));
      }
      done();
    },
  });
  const configFor = (dir: string) => validateConfig({ tenants: [{ id: TENANT, identityRepositories: ['customer-id'], environments: [{ id: 'prod', trackerKeys: ['roles-key'] }] }], publicRateLimits: { enabled: false }, ...(activityLog === undefined ? {} : { activityLog }) }, '(test)', dir);
  const opened = await openOnSharedStore(url, schema, { configFor, logger: createLogger('info', { destination }), trains });
  servers.push(opened.server);
  return { ...opened, messages, reasons };
}

async function metric(base: string, name: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  return Number(new RegExp(`^${name} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
}

/** Twelve sessions of three views through `base` (enough for a first model), then waits until it loaded the model a training process stored; resolves with the sessions. */
async function untilAModelIsStored(base: string): Promise<string[]> {
  const sessions = Array.from({ length: 12 }, () => randomUUID());
  for (const sessionid of sessions) {
    const views = ['p-1', 'p-2', 'p-3'].map((product) => ({ action: 'view', target: { product }, user: { identities: { sessionid } } }));
    const sent = await fetch(`${base}/collect/roles-key`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(views) });
    assert.equal(sent.status, 200, await sent.text());
  }
  await eventually(async () => assert.equal(await metric(base, 'discovery_recommendation_models_loaded_total'), 1, 'no model was stored'), 30_000);
  return sessions;
}

describe('a process that never trains (--no-training) on a shared store', () => {
  it('trains nothing with the lease free and a model due, then serves the model a training process stores', async () => {
    postgres = await startPostgres();
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const follower = await open(postgres.url, schema, false);
    // Enough views for a first model (20 touches), then quiet: a process that trains would train within about 2.5 s.
    for (let shopper = 0; shopper < 12; shopper++) {
      const sessionid = randomUUID();
      const views = ['p-1', 'p-2', 'p-3'].map((product) => ({ action: 'view', target: { product }, user: { identities: { sessionid } } }));
      const sent = await fetch(`${follower.base}/collect/roles-key`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(views) });
      assert.equal(sent.status, 200, await sent.text());
    }
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    assert.equal(await metric(follower.base, 'discovery_recommendation_model_training_seconds_count'), 0, 'the process that never trains trained');
    assert.equal(follower.server.deps.services.recommendations.models.model(TENANT), undefined);
    assert.equal(await metric(follower.base, 'discovery_recommendation_trainer_tenants'), 0, 'it reports training a tenant');
    assert.ok(follower.messages.some((m) => /trains no recommendation model \(--no-training\)/.test(m)), 'it says at start that it trains nothing');
    assert.equal(follower.messages.filter((m) => /no process trains it/.test(m)).length, 1, 'it warns once that nobody trains the model due');
    const client = new pg.Client(postgres.url);
    await client.connect();
    try {
      const { rows } = await client.query(`SELECT count(*)::int AS n FROM ${schema}.documents WHERE name LIKE '%model-trainer' AND data->>'owner' <> ''`);
      assert.equal(rows[0].n, 0, 'it took the trainer lease');
    } finally {
      await client.end();
    }

    // A process that trains joins: it takes the free lease, trains on the shared log, and the first one loads its model.
    const trainer = await open(postgres.url, schema, true);
    await eventually(async () => assert.equal(await metric(follower.base, 'discovery_recommendation_models_loaded_total'), 1, 'the model was not loaded'), 30_000);
    assert.equal(await metric(trainer.base, 'discovery_recommendation_model_training_seconds_count'), 1);
    // Which process trains, as an operator's dashboard shows it.
    assert.equal(await metric(trainer.base, 'discovery_recommendation_trainer_tenants'), 1);
    assert.equal(await metric(follower.base, 'discovery_recommendation_trainer_tenants'), 0);
    assert.equal(await metric(follower.base, 'discovery_recommendation_model_training_seconds_count'), 0);
    assert.ok(follower.server.deps.services.recommendations.models.model(TENANT) !== undefined, 'the loaded model serves');
  });
});

describe('an erasure while the training process is down', () => {
  it('is retrained without the person by the training process that starts again within the notice', async () => {
    postgres ??= await startPostgres();
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const serving = await open(postgres.url, schema, false);
    const first = await open(postgres.url, schema, true);
    const sessions = await untilAModelIsStored(serving.base);
    // The training process stops; a person is erased through the serving one meanwhile.
    await first.server.close();
    servers.splice(servers.indexOf(first.server), 1);
    const activities = serving.server.deps.services.activities;
    const erased = await activities.erasePerson(TENANT, activities.findProfile(TENANT, { sessionId: sessions[0]! })!.id);
    assert.equal(erased?.activities, 3);
    // Nothing new was collected, so only the erasure makes the model due: the new process replays the notice and retrains.
    const second = await open(postgres.url, schema, true);
    await eventually(() => assert.deepEqual(second.reasons, ['profile erased by another process']), 30_000);
  });
});

describe('an erasure whose notice left the log before the training process started again', () => {
  it('is retrained without the person: the stored model was taken before the erasure', async () => {
    postgres ??= await startPostgres();
    const schema = `t_${randomBytes(6).toString('hex')}`;
    // Notices stay a second (the fold lag allowed must not be longer).
    const activityLog = { erasureNoticeSeconds: 1, foldLag: { records: 100_000, seconds: 1 } };
    const serving = await open(postgres.url, schema, false, activityLog);
    const first = await open(postgres.url, schema, true, activityLog);
    const sessions = await untilAModelIsStored(serving.base);
    await first.server.close();
    servers.splice(servers.indexOf(first.server), 1);
    // Erased through the serving process, as the admin API does it (the person, then the model's retraining).
    const { activities, recommendations } = serving.server.deps.services;
    const erased = await activities.erasePerson(TENANT, activities.findProfile(TENANT, { sessionId: sessions[0]! })!.id);
    assert.equal(erased?.activities, 3);
    await recommendations.models.personErased(TENANT);
    // The notice is gone from the shared log before any trainer runs again.
    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    try {
      await eventually(async () => {
        const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${schema}.events WHERE record->>'kind' = 'erasure'`);
        assert.equal(Number(rows[0]!.n), 0, 'the erasure notice is still in the log');
      }, 15_000);
    } finally {
      await client.end();
    }
    const second = await open(postgres.url, schema, true, activityLog);
    await eventually(() => assert.deepEqual(second.reasons, ['a person was erased after it was trained']), 30_000);
    assert.ok(second.messages.includes('recommendation model will be trained again'));
    // Once retrained, the next start loads that model: trained after the erasure, it is not trained again.
    await second.server.close();
    servers.splice(servers.indexOf(second.server), 1);
    const third = await open(postgres.url, schema, true, activityLog);
    await eventually(() => assert.ok(third.messages.includes('recommendation model loaded')), 15_000);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.deepEqual(third.reasons, []);
  });
});

