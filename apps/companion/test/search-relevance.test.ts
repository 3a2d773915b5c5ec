// Our relevance sets (bench/relevance): judged shopper queries on the demo catalog, through the
// companion's real server with the demo configuration, and on the generated benchmark catalog at a
// test-friendly size. Each set's mean first-page precision must stay at or above its floor, and no
// query may come back empty. `npm run bench -- search` prints the same figures at 100,000 items.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDiscoveryServer, createLogger, parseItemBatch, parseSchemaRequest, validateConfig, type DiscoveryServer } from '@discovery-kit/server';
import { startCompanion, type RunningCompanion } from '../src/companion.js';
import { DEMO_CONFIG } from '../src/options.js';
import { judgeSet, type SetOutcome } from '../../../bench/relevance/judge.js';
import { DEMO_QUERIES } from '../../../bench/relevance/demo-queries.js';
import { GENERATED_QUERIES } from '../../../bench/relevance/generated-queries.js';
import { GENERATED_SCHEMA, batchOf, generatedSearchConfig } from '../../../bench/relevance/generated-catalog.js';

/** The bar for the first page, held by our own sets too. */
const FLOOR = 0.92;
const GENERATED_ITEMS = 20_000;

const dirs: string[] = [];
after(async () => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

async function titlesOf(url: string, token: string, query: string): Promise<string[]> {
  const res = await fetch(`${url}/search`, { method: 'POST', headers: { 'content-type': 'application/json; charset=UTF-8' }, body: JSON.stringify({ token, query, options: { limit: 10 } }) });
  assert.equal(res.status, 200, query);
  const body = (await res.json()) as { items: { product?: { title?: string } }[] };
  return body.items.map((item) => String(item.product?.title ?? ''));
}

function explain(outcome: SetOutcome): string {
  const weak = outcome.queries.filter((o) => o.precision < 1).map((o) => `${o.query}: ${o.precision.toFixed(2)} (${o.misses.slice(0, 3).join('; ')})`);
  return `mean ${outcome.mean}, by kind ${JSON.stringify(outcome.byKind)}\n${weak.join('\n')}`;
}

describe('relevance on the demo catalog', () => {
  let companion: RunningCompanion;
  before(async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'discovery-relevance-'));
    dirs.push(dataDir);
    companion = await startCompanion({ configFile: DEMO_CONFIG, port: 0, host: '127.0.0.1', dataDir, demo: true, demoActivities: false, logLevel: 'silent', sdkDir: dataDir }, createLogger('silent'));
  });
  after(async () => companion?.server.close());

  it(`answers ${DEMO_QUERIES.length} judged shopper queries at a mean first-page precision of at least ${FLOOR}, none empty`, async () => {
    const outcome = await judgeSet(DEMO_QUERIES, (query) => titlesOf(companion.url, 'demo-search-token', query));
    assert.deepEqual(outcome.empty, [], 'no query comes back empty');
    assert.ok(outcome.mean >= FLOOR, explain(outcome));
  });
});

describe('relevance on the generated benchmark catalog', () => {
  let server: DiscoveryServer;
  let url: string;
  before(async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'discovery-relevance-gen-'));
    dirs.push(dataDir);
    const config = validateConfig(generatedSearchConfig('gen', 'prod', 'gen-search'), '(test)', dataDir);
    server = await createDiscoveryServer({ config, dataDir, logger: createLogger('silent') });
    ({ url } = await server.listen(0, '127.0.0.1'));
    const catalog = server.deps.services.catalog;
    const schema = await catalog.schemas.create('gen', 'prod', parseSchemaRequest(GENERATED_SCHEMA));
    const { version } = await catalog.catalogs.create('gen', 'prod', { catalogItemSchemas: [{ name: schema.name, version: schema.version }] });
    for (let start = 0; start < GENERATED_ITEMS; start += 5_000) await catalog.items.load('gen', 'prod', parseItemBatch(batchOf(start, version, 5_000)));
    await (await catalog.catalogs.promote('gen', 'prod', version)).activation;
  });
  after(async () => server?.close());

  it(`answers ${GENERATED_QUERIES.length} judged queries at a mean first-page precision of at least ${FLOOR}, none empty`, async () => {
    const outcome = await judgeSet(GENERATED_QUERIES, (query) => titlesOf(url, 'gen-search', query));
    assert.deepEqual(outcome.empty, [], 'no query comes back empty');
    assert.ok(outcome.mean >= FLOOR, explain(outcome));
  });
});
