/** A small shop for the recommendation tests: a config with one widget per strategy and a catalog loaded through the catalog service. */
import type { DiscoveryServer } from '../../src/app/server.js';
import { testConfig } from './test-server.js';
import { catalogRequests } from './catalog-requests.js';

export const TENANT = 'tenant-a';
export const ENV = 'prod';

const widget = (id: string, strategies: string[], extra: Record<string, unknown> = {}) => ({ id, title: id, strategies, minResults: 1, maxResults: 10, ...extra });

export const WIDGETS = [
  widget('w-popular', ['popular'], { attributes: { layout: 'carousel', columns: 4 } }),
  widget('w-top-sellers', ['top-sellers']),
  widget('w-trending', ['trending']),
  widget('w-also-viewed', ['also-viewed']),
  widget('w-bought-together', ['bought-together']),
  widget('w-personalized', ['personalized']),
  widget('w-recent', ['recently-viewed']),
  widget('w-similar', ['similar']),
  widget('w-same-category', ['popular'], { filters: [{ sameAs: 'categories' }], minResults: 2 }),
  widget('w-in-stock', ['popular'], { filters: [{ where: 'in_stock = 1 AND price <= $maxPrice' }] }),
  widget('w-fill', ['bought-together'], { minResults: 4, maxResults: 6 }),
  widget('w-mail', ['popular'], { maxResults: 3, emailCacheMinutes: 60, fallbackUrl: 'https://shop.example/' }),
];

export function recommendationConfig(): Record<string, unknown> {
  const config = testConfig() as { tenants: Array<{ environments: Array<{ widgets?: unknown[] }> }> };
  config.tenants[0]!.environments[0]!.widgets = WIDGETS;
  return config;
}

export interface Product {
  id: string;
  title?: string;
  url?: string;
  photo?: string;
  categories: string;
  brand: string;
  color?: string;
  booster?: number;
  recommended?: number;
  in_stock?: number;
  price?: number;
}

export const PRODUCTS: Product[] = [
  { id: 'shoe-1', categories: 'shoes, running', brand: 'Acme', color: 'red', price: 90 },
  { id: 'shoe-2', categories: 'shoes, running', brand: 'Acme', color: 'blue', price: 80 },
  { id: 'shoe-3', categories: 'shoes', brand: 'Zed', color: 'red', price: 70 },
  { id: 'sock-1', categories: 'socks', brand: 'Acme', price: 10 },
  { id: 'sock-2', categories: 'socks', brand: 'Zed', price: 12 },
  { id: 'hat-1', categories: 'hats', brand: 'Zed', recommended: 0, price: 20 },
  { id: 'bag-1', categories: 'bags', brand: 'Other', booster: 5, price: 50 },
  { id: 'bag-2', categories: 'bags', brand: 'Other', in_stock: 0, price: 55 },
];

/** Loads and promotes `products` (the shared shop by default) as tenant-a's active catalog; search indexes it on promotion. */
export async function loadCatalog(server: DiscoveryServer, products: readonly Product[] = PRODUCTS): Promise<void> {
  const catalog = server.deps.services.catalog;
  const text = ['title', 'categories', 'brand', 'color', 'url', 'photo'].map((name) => ({ name, type: 'TEXT' }));
  const ints = ['price', 'booster', 'recommended', 'in_stock'].map((name) => ({ name, type: 'INTEGER' }));
  const schema = await catalogRequests(catalog).schemas.create(TENANT, ENV, { name: 'product', attributes: [...text, ...ints], nestedItemSchemas: [] });
  const record = await catalog.catalogs.create(TENANT, ENV, { catalogItemSchemas: [{ name: schema.name, version: schema.version }] });
  await catalogRequests(catalog).items.load(
    TENANT,
    ENV,
    products.map(({ id, ...attributes }) => ({
      id,
      catalogVersion: record.version,
      type: 'product',
      attributes: { title: `Title ${id}`, url: `https://shop.example/${id}`, photo: `https://img.example/${id}.png`, in_stock: 1, booster: 0, ...attributes },
    })),
  );
  const { activation } = await catalog.catalogs.promote(TENANT, ENV, record.version);
  const active = await activation;
  if (active.state !== 'active') throw new Error(`catalog not active: ${JSON.stringify(active)}`);
}
