/**
 * The learned ranking stage of `personalized`, through a real server: it trains from shoppers' earlier
 * and latest visits, the admin preview explains what it placed (features and contributions that add up
 * to its score), a ranker file of another tenant or a damaged one is retrained with one log line while
 * requests keep answering, and the switch turns it off.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { adminConfig, adminToken } from './support/admin-fixture.js';
import { call, makeDataDir, startTestServer, type TestServer } from './support/test-server.js';
import { loadCatalog, TENANT, type Product } from './support/recommendation-fixture.js';
import { createLogger } from '../src/platform/logger.js';
import { newActivity } from '../src/domains/tracking/new-activity.js';
import type { NewActivity } from '../src/domains/tracking/activity-service.js';
import { FileBlobStore } from '../src/platform/blob-store/file-blob-store.js';
import { readModelFiles } from '../src/domains/recommendations/model-files.js';
import { encodeModel } from '../src/domains/recommendations/item-model.js';
import { encodeRanker, rankerOfModel } from '../src/domains/recommendations/learned-ranker.js';

const DAY = 86_400_000;
const GARDEN = ['g1', 'g2', 'g3', 'g4', 'g5', 'g6', 'g7', 'g8'];
const KITCHEN = ['k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7', 'k8'];
const PRODUCTS: Product[] = [...GARDEN, ...KITCHEN].map((id) => ({ id, title: `${id[0] === 'g' ? 'Garden' : 'Kitchen'} thing ${id}`, categories: id[0] === 'g' ? 'garden' : 'kitchen', brand: 'B', price: 10 }));

async function config(model: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const base = (await adminConfig()) as { tenants: Array<{ environments: Array<{ widgets?: unknown[] }> }> };
  base.tenants[0]!.environments[0]!.widgets = [{ id: 'picked', strategies: ['personalized'], minResults: 0, maxResults: 6 }];
  return { ...base, recommendationModel: model };
}

/** 60 shoppers with two orders 20 days apart, within one department: the second holds items the first did not. */
async function sendHistories(server: TestServer): Promise<string> {
  const activities = server.server.deps.services.activities;
  const batch: NewActivity[] = [];
  const start = Date.now() - 60 * DAY;
  let mine = '';
  for (let s = 0; s < 60; s++) {
    const profileId = (await activities.resolveProfile(TENANT, { identities: { 'customer-id': `c${s}` } })).profile.id;
    if (s === 0) mine = profileId;
    const department = s % 2 === 0 ? GARDEN : KITCHEN;
    const visits = [[0, 1, 2], [3, 4]].map((picks) => picks.map((k) => department[(s + k) % department.length]!));
    visits.forEach((items, v) => {
      const at = start + s * 1000 + v * 20 * DAY;
      for (const itemId of items) batch.push(newActivity({ profileId, source: 'collect', verb: 'purchase', type: 'product', itemId, timestamp: at, orderId: `o${s}-${v}` }));
    });
  }
  await activities.recordActivities(TENANT, batch);
  return mine;
}

function logCapture(): { lines: Array<Record<string, unknown>>; logger: ReturnType<typeof createLogger> } {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createLogger('info', { destination }) };
}

describe('the learned ranking stage of personalized', () => {
  let dataDir: string;
  let server: TestServer;
  let profileId: string;
  let headers: Record<string, string>;
  const models = () => server.server.deps.services.recommendations.models;
  const preview = (query: string) => call(`${server.url}/admin/widgets/picked/preview?tenant=${TENANT}&environment=prod&profileId=${profileId}${query}`, { headers });
  const ids = (body: { recommendations: Array<{ product: { _id: { original_id: string } } }> }) => body.recommendations.map((r) => r.product._id.original_id);

  before(async () => {
    dataDir = await makeDataDir();
    server = await startTestServer({ config: await config(), dataDir });
    await loadCatalog(server.server, PRODUCTS);
    profileId = await sendHistories(server);
    await models().trainNow(TENANT);
    headers = { authorization: `Bearer ${await adminToken(server, Date.now(), 'client-a')}` };
  });
  after(() => server.cleanup());

  it('trains from the shoppers latest visits and explains each item it placed', async () => {
    const ranker = models().ranker(TENANT);
    assert.ok(ranker !== undefined, 'a ranker was trained');
    assert.ok(ranker.weights.examples > 0 && ranker.weights.positives > 0);
    const res = await preview('&explain=true');
    assert.equal(res.status, 200);
    const items = res.body.recommendations as Array<{ product: { _id: { original_id: string } }; explanation?: { score: number; features: Array<{ name: string; value: number; contribution: number }> } }>;
    assert.ok(items.length > 0);
    // The shopper bought garden items: the ranked list stays in their department, and every item says why.
    assert.ok(items.slice(0, 3).every((i) => i.product._id.original_id.startsWith('g')), JSON.stringify(ids(res.body)));
    for (const item of items) {
      assert.ok(item.explanation !== undefined);
      const names = item.explanation.features.map((f) => f.name);
      assert.ok(names.includes('model score') && names.includes('recent popularity') && names.includes('family touches') && names.includes('popularity × absence') && names.includes('new since last visit'));
      const sum = ranker.weights.bias + item.explanation.features.reduce((total, f) => total + f.contribution, 0);
      assert.ok(Math.abs(sum - item.explanation.score) < 0.01, `contributions add up to the score (${sum} against ${item.explanation.score})`);
    }
    const plain = await preview('');
    assert.ok((plain.body.recommendations as Array<Record<string, unknown>>).every((r) => !('explanation' in r)), 'no explanation unless asked');
    assert.equal((await preview('&explain=maybe')).body.error.field, 'query.explain');
  });

  it('retrains a ranker or item-model file of another tenant or a damaged one, with one log line, answering meanwhile', async () => {
    const file = join(dataDir, 'models', `${TENANT}.ranker`);
    assert.ok((await stat(file)).size > 0);
    const before = ids((await preview('')).body);
    await server.close();
    const bytes = await readFile(file);
    const headerEnd = bytes.indexOf(10);
    const header = JSON.parse(bytes.subarray(0, headerEnd).toString('utf8')) as Record<string, unknown>;
    const variants = [
      { problem: 'ranker file of another tenant', bytes: Buffer.concat([Buffer.from(JSON.stringify({ ...header, tenant: 'tenant-b' })), bytes.subarray(headerEnd)]) },
      { problem: 'truncated ranker file', bytes: bytes.subarray(0, bytes.length - 7) },
      // A ranker of the previous version weighed 16 features; this one reads more.
      { problem: 'ranker file of version 1', bytes: Buffer.concat([Buffer.from(JSON.stringify({ ...header, version: 1 })), bytes.subarray(headerEnd)]) },
      // Left from an earlier training (the item model beside it is newer): not paired with the model.
      { problem: 'the ranker file is of another training', bytes: Buffer.concat([Buffer.from(JSON.stringify({ ...header, trainedAt: Number(header.trainedAt) - 1 })), bytes.subarray(headerEnd)]) },
    ];
    for (const variant of variants) {
      await writeFile(file, variant.bytes);
      const { lines, logger } = logCapture();
      server = await startTestServer({ config: await config(), dataDir, logger });
      assert.equal(models().ranker(TENANT), undefined, 'the file is not used');
      const retrained = lines.filter((l) => l.msg === 'recommendation model will be trained again');
      assert.equal(retrained.length, 1);
      assert.match(String(retrained[0]!.reason), new RegExp(variant.problem));
      const meanwhile = await preview('');
      assert.equal(meanwhile.status, 200);
      assert.ok(ids(meanwhile.body).length > 0);
      await models().settled();
      assert.ok(models().ranker(TENANT) !== undefined, 'trained again');
      assert.deepEqual(ids((await preview('')).body), before);
      await server.close();
    }
    server = await startTestServer({ config: await config(), dataDir });
  });

  it('starts without training again when the training of its model had too few examples for a ranker', async () => {
    const dir = await makeDataDir();
    let single = await startTestServer({ config: await config(), dataDir: dir });
    try {
      await loadCatalog(single.server, PRODUCTS);
      // 30 shoppers with one order each: enough for an item model, no earlier visit to learn a ranking from.
      const activities = single.server.deps.services.activities;
      const batch: NewActivity[] = [];
      for (let s = 0; s < 30; s++) {
        const profileId = (await activities.resolveProfile(TENANT, { identities: { 'customer-id': `one-${s}` } })).profile.id;
        for (let k = 0; k < 3; k++) batch.push(newActivity({ profileId, source: 'collect', verb: 'purchase', type: 'product', itemId: GARDEN[(s + k) % GARDEN.length]!, timestamp: Date.now() - DAY, orderId: `one-${s}` }));
      }
      await activities.recordActivities(TENANT, batch);
      await single.server.deps.services.recommendations.models.trainNow(TENANT);
      assert.ok(single.server.deps.services.recommendations.models.model(TENANT) !== undefined);
      assert.equal(single.server.deps.services.recommendations.models.ranker(TENANT), undefined);
      await single.server.close();
      const { lines, logger } = logCapture();
      single = await startTestServer({ config: await config(), dataDir: dir, logger });
      assert.ok(single.server.deps.services.recommendations.models.model(TENANT) !== undefined, 'the stored model is loaded');
      assert.deepEqual(lines.filter((l) => l.msg === 'recommendation model will be trained again').map((l) => l.reason), []);
    } finally {
      await single.cleanup();
    }
  });

  it('reads the item model and ranker of one training when another process stores them between its two reads', async () => {
    const blobs = new FileBlobStore({ directory: dataDir });
    const stored = await readModelFiles(blobs, TENANT, true);
    const [ownModel, ownRanker] = [stored.model, stored.ranker];
    assert.ok(!('problem' in ownModel) && ownRanker !== undefined && !('problem' in ownRanker));
    const trainedAt = ownModel.info.trainedAt + 60_000;
    // Another process's store under way: its ranker is written (it goes first), its item model not yet.
    await blobs.put(`models/${TENANT}.ranker`, encodeRanker({ ...ownRanker, trainedAt }));
    const reading = readModelFiles(blobs, TENANT, true);
    setTimeout(() => void blobs.put(`models/${TENANT}.item-model`, encodeModel({ ...ownModel, info: { ...ownModel.info, trainedAt } }, TENANT)), 100);
    const { model, ranker } = await reading;
    assert.ok(!('problem' in model));
    assert.equal(model.info.trainedAt, trainedAt, 'the item model is read again once the store is done');
    const paired = rankerOfModel(model, ranker);
    assert.equal(paired.problem, undefined);
    assert.equal(paired.ranker?.trainedAt, trainedAt);
  });

  it('is not trained, stored or used when switched off', async () => {
    const offDir = await makeDataDir();
    const off = await startTestServer({ config: await config({ learnedRanking: false }), dataDir: offDir });
    try {
      await loadCatalog(off.server, PRODUCTS);
      await sendHistories(off);
      await off.server.deps.services.recommendations.models.trainNow(TENANT);
      assert.ok(off.server.deps.services.recommendations.models.model(TENANT) !== undefined);
      assert.equal(off.server.deps.services.recommendations.models.ranker(TENANT), undefined);
      await assert.rejects(stat(join(offDir, 'models', `${TENANT}.ranker`)));
    } finally {
      await off.cleanup();
    }
  });
});
