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
import { decodeSnapshot, encodeSnapshot, SNAPSHOT_FORMAT, type SnapshotHeader } from '../src/domains/search/index/index-snapshot.js';

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

describe('a snapshot written in bounded steps', () => {
  // Written while the server serves, so each step of the generator must be short: the header's arrays
  // and the terms a few thousand values at a time, bytes a quarter megabyte at a time. The pieces must
  // still make exactly the layout a restart decodes.
  const ids = Array.from({ length: 60_000 }, (_, i) => (i % 97 === 0 ? null : `item-${i}-"quoted"\\back\u00e9\u2028`));
  const header: SnapshotHeader = {
    format: SNAPSHOT_FORMAT,
    catalogVersion: 7,
    fields: ['title', 'brand'],
    ids,
    prints: ids.map((_, i) => (i * 2_654_435_761) | 0),
    words: Array.from({ length: 40_000 }, (_, i) => `w${i}\u00f8`),
    counts: Array.from({ length: 40_000 }, (_, i) => i % 13),
  };
  const terms = Array.from({ length: 40_000 }, (_, i) => `t${i}\u4e2d`);
  const postings = Uint32Array.from({ length: 600_000 }, (_, i) => i * 7);
  const maps = [{ terms, postings }, { terms: [], postings: new Uint32Array(0) }, { terms: ['only'], postings: Uint32Array.of(1, 1, 0) }];

  it('decodes to the header and term maps it was given, its header the text JSON.stringify writes', () => {
    const work = encodeSnapshot(header, maps);
    let steps = 0;
    let step = work.next();
    while (step.done !== true) {
      steps++;
      step = work.next();
    }
    const bytes = step.value;
    const decoded = decodeSnapshot(bytes);
    assert.notEqual(typeof decoded, 'string', String(decoded));
    const { header: read, maps: readMaps } = decoded as Exclude<typeof decoded, string>;
    assert.deepEqual(read, header);
    assert.deepEqual(readMaps.map((m) => m.terms), maps.map((m) => m.terms));
    assert.deepEqual(readMaps.map((m) => [...m.postings]), maps.map((m) => [...m.postings]));
    // The header chunk is byte for byte what one JSON.stringify gave before it was written in pieces.
    const length = new DataView(bytes.buffer, bytes.byteOffset).getUint32(12, true);
    assert.equal(new TextDecoder().decode(bytes.subarray(16, 16 + length)), JSON.stringify(header));
    // At least a step per 4,096 header values or terms and per quarter megabyte copied or checksummed:
    // one JSON.stringify, one copy or one checksum of the whole was a single step of 12-22 ms at 100,000 items.
    const values = ids.length + header.prints.length + header.words.length + header.counts.length + terms.length;
    assert.ok(steps >= Math.floor(values / 4_096) + 2 * Math.floor(bytes.length / (1 << 18)), `${steps} steps for ${values} values and ${bytes.length} bytes`);
  });
});
