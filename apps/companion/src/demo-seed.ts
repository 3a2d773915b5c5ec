/**
 * Seeds the demo tenant on a first start in demo mode: the demo catalog becomes the active catalog
 * of demo-shop/production, through the same request parsers and catalog service the API uses. A data
 * directory that already has a catalog for that environment is left alone.
 */
import { newActivity, parseItemBatch, parseSchemaRequest, type DiscoveryServer, type Logger, type NewActivity } from '@discovery-kit/server';
import { loadDemoCatalog, loadDemoTranslations, readDemoActivities, type DemoProduct, type DemoTranslations } from './demo-data.js';

export const DEMO_TENANT = 'demo-shop';
export const DEMO_ENVIRONMENT = 'production';
const BATCH = 1000;

/** TEXT and INTEGER are the attribute types the interface gives, so lists are comma-joined and flags are 0/1. */
const PRODUCT_SCHEMA = {
  name: 'product',
  attributes: [
    ...['title', 'description', 'brand', 'categories', 'color', 'currency', 'url', 'photo'].map((name) => ({ name, type: 'TEXT' })),
    // A handful of products in French too (demo/data/translations.json): per-language attributes (docs/catalog.md).
    ...['title@fr', 'description@fr'].map((name) => ({ name, type: 'TEXT' })),
    ...['price', 'popularity', 'in_stock', 'booster'].map((name) => ({ name, type: 'INTEGER' })),
  ],
  nestedItemSchemas: [
    {
      name: 'variant',
      attributes: [
        { name: 'title', type: 'TEXT' },
        { name: 'color', type: 'TEXT' },
        { name: 'price', type: 'INTEGER' },
      ],
    },
  ],
};

function toCatalogItems(product: DemoProduct, catalogVersion: number, translations: DemoTranslations): unknown[] {
  const attributes: Record<string, string | number> = {
    title: product.title,
    description: product.description,
    brand: product.brand,
    categories: product.categories.join(', '),
    currency: product.currency,
    url: product.url,
    photo: product.photo,
    price: product.price,
    popularity: product.popularity,
    in_stock: product.inStock ? 1 : 0,
    booster: product.booster,
  };
  if (product.color !== undefined) attributes.color = product.color;
  for (const [language, texts] of Object.entries(translations)) {
    const own = texts[product.id];
    if (own?.title !== undefined) attributes[`title@${language}`] = own.title;
    if (own?.description !== undefined) attributes[`description@${language}`] = own.description;
  }
  const parent = { id: product.id, catalogVersion, type: 'product', attributes };
  const variants = (product.variants ?? []).map((variant) => ({
    id: variant.id,
    catalogVersion,
    type: 'variant',
    parentId: product.id,
    attributes: { title: variant.title, price: variant.price, ...(variant.color !== undefined ? { color: variant.color } : {}) },
  }));
  return [parent, ...variants];
}

/** Returns true when it seeded, false when the environment already had catalogs. */
export async function seedDemoCatalog(server: DiscoveryServer, logger: Logger): Promise<boolean> {
  const catalog = server.deps.services.catalog;
  if ((await catalog.catalogs.list(DEMO_TENANT, DEMO_ENVIRONMENT)).length > 0) return false;
  const started = performance.now();
  const schema = await catalog.schemas.create(DEMO_TENANT, DEMO_ENVIRONMENT, parseSchemaRequest(PRODUCT_SCHEMA));
  const record = await catalog.catalogs.create(DEMO_TENANT, DEMO_ENVIRONMENT, {
    catalogItemSchemas: [{ name: schema.name, version: schema.version }],
  });
  const products = await loadDemoCatalog();
  const translations = await loadDemoTranslations();
  for (let i = 0; i < products.length; i += BATCH) {
    const items = products.slice(i, i + BATCH).flatMap((product) => toCatalogItems(product, record.version, translations));
    await catalog.items.load(DEMO_TENANT, DEMO_ENVIRONMENT, parseItemBatch(items));
  }
  const { activation } = await catalog.catalogs.promote(DEMO_TENANT, DEMO_ENVIRONMENT, record.version);
  const active = await activation;
  logger.info(
    { tenant: DEMO_TENANT, environment: DEMO_ENVIRONMENT, catalogVersion: active.version, state: active.state, products: products.length, ms: Math.round(performance.now() - started) },
    'seeded the demo catalog',
  );
  return true;
}

/** Activities per durable group: large enough that the log's fsyncs do not dominate, small enough to bound memory. */
const ACTIVITY_BATCH = 10_000;

export interface SeedActivitiesOptions {
  limit?: number;
  /** Stops between two durable groups (a shutdown during the import). */
  signal?: AbortSignal;
  /** Called after each durable group with the activities imported so far and the total. */
  onProgress?: (done: number, total: number) => void;
}

/**
 * Imports the demo shoppers' history through the activity service, as the collection API would have
 * recorded it, so that every demo widget answers from real co-views and co-purchases on a first start.
 * The history is from 2010–2011: it is shifted so that its last activity is now, otherwise
 * "popular" and "trending" (windows of days before now) would see nothing.
 */
export async function seedDemoActivities(server: DiscoveryServer, logger: Logger, options: SeedActivitiesOptions = {}): Promise<number> {
  const activities = server.deps.services.activities;
  const started = performance.now();
  let last = 0;
  let total = 0;
  const customers = new Set<string>();
  for await (const activity of readDemoActivities()) {
    if (options.limit !== undefined && total >= options.limit) break;
    last = Math.max(last, Date.parse(activity.timestamp));
    customers.add(activity.user.identities['customer-id']);
    total++;
  }
  const shift = server.deps.clock.now() - last;
  // Resolved together, so that the profile store writes them in a few grouped writes instead of one each.
  const profiles = new Map<string, string>();
  await Promise.all(
    [...customers].map(async (customer) => {
      const { profile } = await activities.resolveProfile(DEMO_TENANT, { identities: { 'customer-id': customer } });
      profiles.set(customer, profile.id);
    }),
  );
  let batch: NewActivity[] = [];
  let count = 0;
  for await (const activity of readDemoActivities()) {
    if (count >= total || options.signal?.aborted === true) break;
    const profileId = profiles.get(activity.user.identities['customer-id'])!;
    const { orderId, quantity, price, currency } = activity.metadata ?? {};
    batch.push(
      newActivity({
        profileId,
        source: 'collect',
        verb: activity.action,
        type: 'product',
        itemId: activity.target.product,
        timestamp: Date.parse(activity.timestamp) + shift,
        sourceId: activity.sourceId,
        orderId,
        quantity,
        price,
        currency,
      }),
    );
    count++;
    if (batch.length >= ACTIVITY_BATCH) {
      await activities.recordActivities(DEMO_TENANT, batch);
      batch = [];
      options.onProgress?.(count, total);
    }
  }
  if (batch.length > 0) await activities.recordActivities(DEMO_TENANT, batch);
  options.onProgress?.(count, total);
  logger.info({ tenant: DEMO_TENANT, activities: count, profiles: profiles.size, ms: Math.round(performance.now() - started) }, 'seeded the demo activities');
  return count;
}
