/**
 * A real server with a small shop for the published search definition's tests: a configuration that
 * declares context variables (store, segment, visit date, visits, member) and has rules and a
 * redirect conditioned on them, a brand facet, and ten products (one sold in the Paris store only).
 */
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/platform/clock.js';
import { catalogRequests } from './catalog-requests.js';
import { startTestServer, testConfig, type TestServer } from './test-server.js';

export const TOKEN = 'shop-search';
const T = 'tenant-a';
const E = 'prod';

export const CONFIGURATION = {
  id: 'default',
  contextVariables: { store: 'string', segment: 'stringList', visit: 'date', visits: 'long', member: 'bool', basket: 'double' },
  facets: [{ id: 'brand-facet', title: 'Brand', attribute: 'brand' }],
  redirects: [
    { id: 'help', name: 'Delivery', url: 'https://shop.example/delivery', queries: ['delivery'] },
    { id: 'vip-sale', name: 'Members sale', url: 'https://shop.example/members', queries: ['sale'], when: { member: true } },
  ],
  rules: [
    { query: 'lamp', pin: ['p9'] },
    { when: { store: 'paris' }, pin: ['p-paris'] },
    { query: 'shirt', when: { segment: ['vip', 'staff'] }, boost: ['p-silk'] },
    { when: { visit: { from: '2026-12-01', to: '2026-12-24' } }, filter: 'price < 5000' },
    { query: 'lamp', when: { visits: { from: 10 } }, bury: ['p8'] },
    { query: 'towel', when: { basket: { from: 49.5 } }, pin: ['p5'] },
  ],
  defaultSort: [{ attribute: 'popularity', order: 'desc' }],
};

export const PRODUCTS = [
  { id: 'p1', title: 'Red Running Shoes', brand: 'Nike', price: 8000, popularity: 50 },
  { id: 'p2', title: 'Blue Shirt', brand: 'Acme', price: 2500, popularity: 90 },
  { id: 'p3', title: 'Hanging Heart Holder', brand: 'Home', price: 300, popularity: 70 },
  { id: 'p4', title: 'Tea Towel', brand: 'Home', price: 400, popularity: 95 },
  { id: 'p5', title: 'Coffee Cup', brand: 'Acme', price: 600, popularity: 10 },
  { id: 'p7', title: 'Desk Lamp', brand: 'Lumo', price: 3000, popularity: 30 },
  { id: 'p8', title: 'Floor Lamp', brand: 'Lumo', price: 5000, popularity: 40 },
  { id: 'p9', title: 'Lampshade', brand: 'Lumo', price: 1500, popularity: 60 },
  { id: 'p-silk', title: 'Silk Shirt', brand: 'Acme', price: 9000, popularity: 5 },
  { id: 'p-paris', title: 'Paris Store Candle', brand: 'Home', price: 900, popularity: 1 },
];

export interface DefinitionShop {
  server: TestServer;
  clock: ManualClock;
  post(path: string, body: unknown): Promise<{ status: number; body: Record<string, any> }>;
  /** A search that must answer 200. */
  search(body: Record<string, unknown>): Promise<Record<string, any>>;
}

export const ids = (body: Record<string, any>): string[] => body.items.map((i: { id: string }) => i.id);

export async function startDefinitionShop(settings: Record<string, unknown> = {}): Promise<DefinitionShop> {
  const config = testConfig() as { tenants: { environments: Record<string, unknown>[]; serviceAccounts: Record<string, unknown>[] }[] };
  config.tenants[0]!.environments[0]!.searchTokens = [{ token: TOKEN, configurations: [CONFIGURATION] }];
  // client-a reads the admin API (explain).
  config.tenants[0]!.serviceAccounts[0]!.adminRole = 'read';
  const clock = new ManualClock(Date.parse('2026-11-28T10:00:00Z'));
  const server = await startTestServer({ config: { ...config, ...settings }, clock });
  const catalog = server.server.deps.services.catalog;
  const requests = catalogRequests(catalog);
  const schema = await requests.schemas.create(T, E, {
    name: 'product',
    attributes: [
      { name: 'title', type: 'TEXT' },
      { name: 'brand', type: 'TEXT' },
      { name: 'price', type: 'INTEGER' },
      { name: 'popularity', type: 'INTEGER' },
    ],
  });
  const record = await catalog.catalogs.create(T, E, { catalogItemSchemas: [{ name: schema.name, version: schema.version }] });
  await requests.items.load(T, E, PRODUCTS.map(({ id, ...attributes }) => ({ id, catalogVersion: record.version, type: 'product', attributes })));
  await (await catalog.catalogs.promote(T, E, record.version)).activation;
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
  const search = async (body: Record<string, unknown>) => {
    const res = await post('/search', { token: TOKEN, ...body });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };
  return { server, clock, post, search };
}
