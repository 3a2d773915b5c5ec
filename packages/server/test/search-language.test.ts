// What search understands of shoppers' words on a small real catalog: other forms of a word (and not
// derivations), words kept apart by configuration, compounds both ways, the query as understood,
// relaxation, highlights, bad input, and an unknown language refused at configuration load.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, validateConfig } from '../src/platform/config/load.js';
import { FIXTURES, startTestServer, testConfig, type TestServer } from './support/test-server.js';

const T = 'tenant-a';
const E = 'prod';

function config(): Record<string, unknown> {
  const base = testConfig() as { tenants: { environments: Record<string, unknown>[] }[] };
  base.tenants[0]!.environments[0]!.searchTokens = [
    {
      token: 'words',
      configurations: [
        { id: 'default', fields: [{ attribute: 'title', weight: 3 }, { attribute: 'brand', weight: 1 }], synonyms: [['mug', 'beaker']] },
        { id: 'optician', fields: [{ attribute: 'title', weight: 3 }], keepApart: ['glasses'] },
      ],
    },
  ];
  return base;
}

const TITLES: Record<string, string> = {
  m1: 'Enamel Mug',
  m2: 'Mugs Set of Four',
  b1: 'Beaker for Kids',
  x1: 'Cardboard Box',
  x2: 'Nesting Boxes Trio',
  c1: 'Candle in Tin',
  c2: 'Dinner Candles',
  h1: 'Handle for Drawer',
  g1: 'Reading Glasses',
  g2: 'Glass Vase',
  o1: 'Organ Pipe Ornament',
  o2: 'Organic Cotton Bag',
  d1: 'Doormat Welcome',
  t1: 'Regency Teacup',
  l1: 'T-Light Holder Zinc',
  n1: 'Note Book Kraft',
  r1: 'Lantern Réglisse',
};

let server: TestServer;

async function search(query: string, options: Record<string, unknown> = {}, configurationId?: string): Promise<Record<string, any>> {
  const res = await fetch(`${server.url}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: 'words', query, options, ...(configurationId ? { configurationId } : {}) }) });
  const body = (await res.json()) as Record<string, any>;
  assert.equal(res.status, 200, JSON.stringify(body));
  return body;
}
const ids = (body: Record<string, any>): string[] => body.items.map((i: { id: string }) => i.id).sort();

before(async () => {
  server = await startTestServer({ config: config() });
  const catalog = server.server.deps.services.catalog;
  const schema = await catalog.schemas.create(T, E, { name: 'product', attributes: [{ name: 'title', type: 'TEXT' }, { name: 'brand', type: 'TEXT' }] });
  const record = await catalog.catalogs.create(T, E, { catalogItemSchemas: [{ name: schema.name, version: schema.version }] });
  await catalog.items.load(T, E, Object.entries(TITLES).map(([id, title]) => ({ id, catalogVersion: record.version, type: 'product', attributes: { title, brand: 'Acme' } })));
  await (await catalog.catalogs.promote(T, E, record.version)).activation;
});

after(async () => server.cleanup());

describe('other forms of a word', () => {
  it('folds plurals both ways: mugs/mug, boxes/box, candles/candle, with synonyms of either form', async () => {
    assert.deepEqual(ids(await search('mugs')), ['b1', 'm1', 'm2'], 'the mug/beaker synonym applies to the plural too');
    assert.deepEqual(ids(await search('mug')), ['b1', 'm1', 'm2']);
    assert.deepEqual(ids(await search('boxes')), ['x1', 'x2']);
    assert.deepEqual(ids(await search('box')), ['x1', 'x2']);
    assert.deepEqual(ids(await search('candles')), ['c1', 'c2'], 'and never "handle" as a typo of a word the catalog has');
  });

  it('does not fold derivations a stemmer would: organic is not organ', async () => {
    assert.deepEqual(ids(await search('organic')), ['o2']);
    assert.deepEqual(ids(await search('organs')), ['o1']);
  });

  it('keeps glasses apart from glass where the configuration says so', async () => {
    assert.deepEqual(ids(await search('glasses')), ['g1', 'g2'], 'by default, glasses are a plural of glass');
    assert.deepEqual(ids(await search('glasses', {}, 'optician')), ['g1']);
    // Still typing "glass", a shopper may want "glasses": the whole word comes first.
    assert.deepEqual((await search('glass', {}, 'optician')).items.map((i: { id: string }) => i.id), ['g2', 'g1']);
  });
});

describe('compounds and corrections', () => {
  it('matches joined and split words both ways, and says what it ran', async () => {
    assert.deepEqual(ids(await search('door mat')), ['d1']);
    assert.deepEqual(ids(await search('tea cup')), ['t1']);
    assert.deepEqual(ids(await search('t light')), ['l1']);
    const joined = await search('tlight');
    assert.deepEqual(ids(joined), ['l1']);
    assert.equal(joined.metadata.correctedQuery, 't light');
    const split = await search('notebook');
    assert.deepEqual(ids(split), ['n1']);
    assert.equal(split.metadata.correctedQuery, 'note book');
  });

  it('reports a corrected typo, and nothing when the query ran as typed', async () => {
    const swapped = await search('cnadles');
    assert.deepEqual(ids(swapped), ['c1', 'c2']);
    assert.equal(swapped.metadata.correctedQuery, 'candles');
    const plain = await search('candles');
    assert.equal('correctedQuery' in plain.metadata, false);
    assert.equal('relaxed' in plain.metadata, false);
  });

  it('runs the words as typed when the shopper turns correction off ("Search instead for …")', async () => {
    const asTyped = { disable: [{ name: 'correction' }] };
    const typo = await search('cnadles dinner', asTyped);
    assert.equal('correctedQuery' in typo.metadata, false);
    // "cnadles" matches nothing as typed: the looser match serves what "dinner" finds, flagged.
    assert.deepEqual(ids(typo), ['c2']);
    assert.equal(typo.metadata.relaxed, true);
    assert.equal((await search('cnadles dinner')).metadata.correctedQuery, 'candles dinner');
    const joined = await search('notebook', asTyped);
    assert.equal('correctedQuery' in joined.metadata, false);
    assert.deepEqual(ids(await search('candles', asTyped)), ['c1', 'c2'], 'a correct word finds the same');
    const bad = await fetch(`${server.url}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: 'words', query: 'x', options: { disable: [{ name: 'spelling' }] } }) });
    assert.equal(bad.status, 400);
    assert.match(JSON.stringify(await bad.json()), /options\.disable\[0\]\.name/);
  });

  it('corrects an inflected typo and a finished word that only begins a catalog word', async () => {
    const plural = await search('baekers');
    assert.deepEqual(ids(plural), ['b1'], 'a swap in a plural of a word the catalog only has in the singular');
    assert.equal(plural.metadata.correctedQuery, 'beaker');
    // "enam" begins "enamel", and is finished (a word follows): "candle" is not near it, but "candel" is near "candle".
    assert.deepEqual(ids(await search('candel dinner')), ['c2']);
  });

  it('serves the longest start of a word the catalog has when nothing else matches, flagged', async () => {
    const body = await search('lanternzzz');
    assert.deepEqual(ids(body), ['r1']);
    assert.equal(body.metadata.relaxed, true);
    assert.deepEqual(ids(await search('qqqqq')), []);
  });

  it('serves a looser match, flagged, when no item has every word', async () => {
    const body = await search('enamel blorft');
    assert.deepEqual(ids(body), ['m1']);
    assert.equal(body.metadata.relaxed, true);
    const two = await search('enamel candle');
    assert.equal(two.metadata.relaxed, true);
    assert.ok(two.items.length > 0);
  });
});

describe('highlights', () => {
  it('marks matched words of the title as UTF-16 ranges, the typed part of a completion, only when asked', async () => {
    const body = await search('mugs enam', { highlight: true });
    const m1 = body.items.find((i: { id: string }) => i.id === 'm1');
    assert.deepEqual(m1.highlights, { title: [[0, 4], [7, 10]] }, '"Enam" of Enamel, "Mug" whole');
    const plain = await search('mugs enam');
    assert.ok(plain.items.every((i: Record<string, unknown>) => !('highlights' in i)));
    const accented = await search('reglisse', { highlight: ['title', 'brand'] });
    assert.deepEqual(accented.items[0].highlights, { title: [[8, 16]] });
    const masked = await search('box', { highlight: true, customResponseMask: 'id,highlights' });
    assert.deepEqual(Object.keys(masked.items[0]).sort(), ['highlights', 'id']);
  });

  it('refuses a highlight option that is neither true nor a list of field names, naming it', async () => {
    const res = await fetch(`${server.url}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: 'words', query: 'box', options: { highlight: 'title' } }) });
    assert.equal(res.status, 400);
    assert.match(await res.text(), /options\.highlight/);
  });
});

describe('bad input', () => {
  // How fast is the benchmark's business (`npm run bench -- search` prints each of these): here, a normal answer.
  it('answers long, stop-word, emoji, mixed-script and one-letter-word queries normally', async () => {
    const queries = ['lantern '.repeat(125).slice(0, 1_000), 'the of and with', '🎄🎁❤️', 'лампа 灯笼 lantern ランタン', Array.from({ length: 200 }, (_, i) => String.fromCharCode(97 + (i % 26))).join(' ')];
    for (const query of queries) {
      const body = await search(query);
      assert.ok(Array.isArray(body.items), query);
      assert.equal(typeof body.metadata.count, 'number');
    }
    assert.deepEqual(ids(await search('лампа 灯笼 lantern ランタン')), ['r1']);
  });
});

describe('configuration', () => {
  it('refuses an unknown language at load, naming the field', () => {
    const raw = config() as { tenants: { environments: { searchTokens: { configurations: Record<string, unknown>[] }[] }[] }[] };
    raw.tenants[0]!.environments[0]!.searchTokens[0]!.configurations[0]!.language = 'klingon';
    assert.throws(
      () => validateConfig(raw, '(test)', FIXTURES),
      (error: unknown) => error instanceof ConfigError && error.problems.some((p) => p.includes('searchTokens[0].configurations[0].language')),
    );
  });
});
