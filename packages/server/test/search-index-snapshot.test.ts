/**
 * A restart restores each active catalog's search index from the snapshot written after its build,
 * and answers exactly as the built index did; a snapshot that is damaged, or that items written after
 * it no longer match, is refused with a warning and the index is built again. A real server on a real
 * data directory, restarted on it, requests over HTTP.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, rm, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createDiscoveryServer, type DiscoveryServer } from '../src/app/server.js';
import { validateConfig } from '../src/platform/config/load.js';
import { createLogger } from '../src/platform/logger.js';
import { FIXTURES, makeDataDir, testConfigWithSearch } from './support/test-server.js';
import { catalogRequests } from './support/catalog-requests.js';

const TOKEN = 'shop-search';
const T = 'tenant-a';
const E = 'prod';
const SNAPSHOT = join('search-indexes', T, `${E}.index`);

const CONFIGURATION = {
  id: 'default',
  fields: ['title', 'brand', 'description'].map((attribute, i) => ({ attribute, weight: 3 - i })),
  facets: [{ id: 'brand', title: 'Brand', attribute: 'brand' }],
  defaultSort: [{ attribute: 'popularity', order: 'desc' }],
};

const BRANDS = ['Nike', 'Acme', 'Lumo', 'Home'];
const NOUNS = ['lantern', 'shirt', 'holder', 'towel', 'cup', 'table', 'lamp', 'blanket'];
const COLOURS = ['red', 'blue', 'white', 'green', 'black'];
const PRODUCTS = Array.from({ length: 400 }, (_, n) => ({
  id: `p${n}`,
  title: `${COLOURS[n % 5]} ${NOUNS[n % 8]} ${n % 7 === 0 ? 'deluxe' : 'classic'}`,
  brand: BRANDS[n % 4],
  description: `A ${NOUNS[(n + 3) % 8]} friendly piece, number ${n}`,
  popularity: (n * 37) % 101,
}));
/** Queries over prefixes, whole words, typos, fields, variants, facets and an empty query. */
const QUERIES: [string, Record<string, unknown>][] = [
  ['red lantern', {}],
  ['lant', {}],
  ['blankt', {}],
  ['nike cup', {}],
  ['deluxe', { limit: 50 }],
  ['friendly towel', { limit: 50 }],
  ['tunic', {}],
  ['', { limit: 20 }],
  ['lamp', { facets: [{ id: 'brand', values: ['Lumo'] }] }],
  ['', { limit: 20, filter: "brand = 'Acme'" }],
];

interface Running {
  server: DiscoveryServer;
  url: string;
  /** Log lines of this run, parsed. */
  log: { msg?: string; restored?: boolean; reason?: string; level?: number }[];
}

let dataDir: string;
let running: Running;

async function start(): Promise<Running> {
  const log: Running['log'] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line !== '') log.push(JSON.parse(line) as Running['log'][number]);
      done();
    },
  });
  const server = await createDiscoveryServer({ config: validateConfig(testConfigWithSearch(TOKEN, CONFIGURATION), '(test)', FIXTURES), dataDir, logger: createLogger('info', { destination }) });
  const { url } = await server.listen(0);
  return { server, url, log };
}

async function restart(): Promise<void> {
  await running.server.close();
  running = await start();
}

async function answers(): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const [query, options] of QUERIES) {
    const res = await fetch(`${running.url}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: TOKEN, query, options }) });
    const body = (await res.json()) as { items: { id: string }[]; metadata: { count: number; facets: unknown } };
    assert.equal(res.status, 200, JSON.stringify(body));
    out.push({ query, ids: body.items.map((item) => item.id), count: body.metadata.count, facets: body.metadata.facets });
  }
  return out;
}

const built = (run: Running) => run.log.filter((line) => line.msg === 'search index built');
const refused = (run: Running) => run.log.filter((line) => line.msg === 'search index snapshot not used: building the index');

let version: number;

before(async () => {
  dataDir = await makeDataDir();
  running = await start();
  const catalog = catalogRequests(running.server.deps.services.catalog);
  const schema = await catalog.schemas.create(T, E, {
    name: 'product',
    attributes: [...['title', 'brand', 'description'].map((name) => ({ name, type: 'TEXT' })), { name: 'popularity', type: 'INTEGER' }],
    nestedItemSchemas: [{ name: 'variant', attributes: [{ name: 'title', type: 'TEXT' }] }],
  });
  ({ version } = await catalog.catalogs.create(T, E, { catalogItemSchemas: [{ name: schema.name, version: schema.version }] }));
  const items: unknown[] = PRODUCTS.map(({ id, ...attributes }) => ({ id, catalogVersion: version, type: 'product', attributes }));
  items.push({ id: 'p1-xl', catalogVersion: version, type: 'variant', parentId: 'p1', attributes: { title: 'Oversized Tunic' } });
  await catalog.items.load(T, E, items);
  await (await running.server.deps.services.catalog.catalogs.promote(T, E, version)).activation;
  await running.server.deps.services.search.snapshotsWritten();
});

after(async () => {
  await running.server.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('search index snapshots', () => {
  it('a restart restores the index, which answers exactly as the built one, and takes writes after', async () => {
    const before = await answers();
    assert.ok((await readFile(join(dataDir, SNAPSHOT))).length > 0, 'the snapshot is written after the build');
    await restart();
    assert.deepEqual(built(running).map((line) => line.restored), [true]);
    assert.deepEqual(refused(running), []);
    assert.deepEqual(await answers(), before);

    const catalog = catalogRequests(running.server.deps.services.catalog);
    await catalog.items.patch(T, E, [{ id: 'p3', catalogVersion: version, type: 'product', attributes: { title: 'Walnut Sideboard' } }]);
    await running.server.deps.services.search.settled();
    const res = await fetch(`${running.url}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: TOKEN, query: 'walnut sideb' }) });
    assert.deepEqual(((await res.json()) as { items: { id: string }[] }).items.map((item) => item.id), ['p3']);
  });

  it('a snapshot the items no longer match (a write after it) is refused and the index built from the items', async () => {
    // The write of the test before is newer than the snapshot (written again only after a quiet time).
    await restart();
    assert.equal(refused(running).length, 1);
    assert.match(refused(running)[0]!.reason ?? '', /changed after the snapshot/);
    assert.deepEqual(built(running).map((line) => line.restored), [undefined]);
    const res = await fetch(`${running.url}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: TOKEN, query: 'walnut' }) });
    assert.deepEqual(((await res.json()) as { items: { id: string }[] }).items.map((item) => item.id), ['p3']);
  });

  it('a torn snapshot file is refused with one warning and the index built, answering as before', async () => {
    // The rebuild of the test before wrote a fresh snapshot; the next start restores it.
    await running.server.deps.services.search.snapshotsWritten();
    const before = await answers();
    await running.server.close();
    const file = join(dataDir, SNAPSHOT);
    await truncate(file, Math.floor((await readFile(file)).length / 2));
    running = await start();
    assert.equal(refused(running).length, 1);
    assert.match(refused(running)[0]!.reason ?? '', /damaged or incomplete|ends inside/);
    assert.deepEqual(built(running).map((line) => line.restored), [undefined]);
    assert.deepEqual(await answers(), before);
  });
});
