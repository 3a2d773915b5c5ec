/**
 * Shops in several languages: per-language texts (`title@fr` catalog attributes, older-API `l10n`)
 * searched by a configuration serving that language with its stemmer, chosen by the request's
 * `locale` context variable; answers and recommendations in the language, falling back to the
 * item's own texts; an unknown locale never errs.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { localizedValue, localizeView } from '../src/domains/catalog/localized.js';
import { toProductView } from '../src/domains/catalog/product-view.js';
import type { StoredItem } from '../src/domains/catalog/types.js';
import { catalogRequests } from './support/catalog-requests.js';
import { call, startTestServer, testConfig, type TestServer } from './support/test-server.js';

const T = 'tenant-a';
const E = 'prod';
const TOKEN = 'shop-search';

const PRODUCTS = [
  { id: 'p1', title: 'Red Lamp', url: '/en/p1', 'title@fr': 'Lampe rouge', 'url@fr': '/fr/p1', popularity: 3 },
  { id: 'p2', title: 'Blue Chairs', url: '/en/p2', 'title@fr': 'Chaises bleues', 'url@fr': '/fr/p2', popularity: 2 },
  { id: 'p3', title: 'Green Mug', url: '/en/p3', popularity: 1 },
];

let server: TestServer;
const locale = (value: string) => ({ contextVariables: [{ name: 'locale', value: { stringValue: value } }] });
const search = async (body: Record<string, unknown>) => {
  const res = await call(`${server.url}/search`, { json: { token: TOKEN, ...body } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body as { items: Array<{ id: string; product: { title: string; url: string } }>; metadata: { configurationId: string } };
};

before(async () => {
  const config = testConfig() as { tenants: { environments: Record<string, unknown>[] }[] };
  config.tenants[0]!.environments[0]!.searchTokens = [
    {
      token: TOKEN,
      defaultConfigurationId: 'en',
      configurations: [
        { id: 'en', fields: [{ attribute: 'title', weight: 1 }], defaultSort: [{ attribute: 'popularity', order: 'desc' }] },
        { id: 'fr', language: 'french', locales: ['fr'], fields: [{ attribute: 'title@fr', weight: 3 }, { attribute: 'title', weight: 1 }], defaultSort: [{ attribute: 'popularity', order: 'desc' }] },
      ],
    },
  ];
  config.tenants[0]!.environments[0]!.widgets = [{ id: 'w-popular', title: 'Popular', strategies: ['popular'], minResults: 3, maxResults: 3 }];
  server = await startTestServer({ config });
  const catalog = server.server.deps.services.catalog;
  const requests = catalogRequests(catalog);
  const text = ['title', 'url', 'title@fr', 'url@fr'].map((name) => ({ name, type: 'TEXT' }));
  const schema = await requests.schemas.create(T, E, { name: 'product', attributes: [...text, { name: 'popularity', type: 'INTEGER' }] });
  const record = await catalog.catalogs.create(T, E, { catalogItemSchemas: [{ name: schema.name, version: schema.version }] });
  await requests.items.load(T, E, PRODUCTS.map(({ id, ...attributes }) => ({ id, catalogVersion: record.version, type: 'product', attributes })));
  await (await catalog.catalogs.promote(T, E, record.version)).activation;
});
after(() => server.cleanup());

describe('shops in several languages', () => {
  it('a French locale searches the French texts with the French stemmer and answers in French', async () => {
    const found = await search({ query: 'chaise', context: locale('fr-FR') });
    assert.equal(found.metadata.configurationId, 'fr');
    assert.deepEqual(found.items.map((i) => [i.id, i.product.title, i.product.url]), [['p2', 'Chaises bleues', '/fr/p2']]);
    // "lampes" is neither a prefix of "lampe" nor, with corrections off, a typo of it: the French stemmer folds them.
    const plural = await search({ query: 'lampes rouge', context: locale('fr'), itemOptions: { disable: [{ name: 'correction' }] } });
    assert.deepEqual(plural.items.map((i) => i.product.title), ['Lampe rouge']);
    // The English configuration does not read the French texts.
    assert.deepEqual((await search({ query: 'chaise' })).items, []);
  });

  it('falls back to the item’s own texts where it has no translation, and an unknown locale gets the default configuration', async () => {
    const all = await search({ query: '', context: locale('fr') });
    assert.deepEqual(all.items.map((i) => i.product.title), ['Lampe rouge', 'Chaises bleues', 'Green Mug']);
    for (const unknown of ['xx', 'klingon', '']) {
      const answer = await search({ query: 'lamp', context: locale(unknown) });
      assert.equal(answer.metadata.configurationId, 'en');
      assert.deepEqual(answer.items.map((i) => i.product.title), ['Red Lamp'], unknown);
    }
    // A configuration named by the request wins over the locale, and still answers in its language.
    const named = await search({ query: 'lamp', configurationId: 'en', context: locale('fr') });
    assert.deepEqual(named.items.map((i) => i.product.title), ['Lampe rouge']);
  });

  it('recommendations answer in the page’s lang, falling back to the item’s own texts', async () => {
    const titles = async (lang?: string) => {
      const res = await call(`${server.url}/widget/w-popular/recommendations${lang === undefined ? '' : `?lang=${lang}`}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return (res.body.recommendations as Array<{ product: { _id: { original_id: string }; title: string } }>).map((r) => [r.product._id.original_id, r.product.title]).sort();
    };
    assert.deepEqual(await titles('fr'), [['p1', 'Lampe rouge'], ['p2', 'Chaises bleues'], ['p3', 'Green Mug']]);
    assert.deepEqual(await titles('de'), [['p1', 'Red Lamp'], ['p2', 'Blue Chairs'], ['p3', 'Green Mug']]);
    assert.deepEqual(await titles('<script>'), await titles());
  });

  it('reads the older item API’s l10n the same way, keeping unsafe translated links out', () => {
    const item: StoredItem = {
      key: 'default#product#s1', id: 's1', type: 'product', context: 'default', kind: 'product', attributes: { color: 'red' }, title: 'Shoe', url: '/en/shoe',
      l10n: { de: { title: 'Schuh', url: 'javascript:alert(1)', attributes: { color: 'rot' } } }, updated: '2026-11-28T00:00:00Z',
    };
    assert.equal(localizedValue(item, 'title', 'de'), 'Schuh');
    const view = localizeView(toProductView(item, { tenantId: T, version: 0 }), item, 'de');
    assert.deepEqual([view.title, view.url, view.color], ['Schuh', '/en/shoe', 'rot']);
    assert.equal(localizeView(toProductView(item, { tenantId: T, version: 0 }), item, 'fr').title, 'Shoe');
  });
});
