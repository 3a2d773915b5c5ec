/** Reads the checked-in demo catalog and shopper history that seed the demo tenant (see docs/demo-data.md). */
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { StorefrontProduct, StorefrontVariant } from '@discovery-kit/storefront';

export type DemoVariant = StorefrontVariant;

/** The demo catalog's product: what the demo shop shows, plus the fields only the catalog import reads. */
export interface DemoProduct extends StorefrontProduct {
  currency: 'GBP';
  url: string;
  recommended: boolean;
  booster: number;
}

/** An activity in the collection API's shape (spec: "Activity (collection API)"). */
export interface DemoActivity {
  action: 'purchase' | 'view';
  target: { product: string };
  sourceId: string;
  user: { identities: { 'customer-id': string } };
  metadata?: { orderId?: string; quantity?: number; price?: number; currency?: string; variant?: string };
  timestamp: string;
}

export interface DemoDataOptions {
  /** Directory holding catalog.json and activities.jsonl.gz; defaults to the checked-in apps/companion/demo/data. */
  dir?: string | URL;
}

// Resolved from this module rather than the cwd, so the server finds the data wherever it is started.
const DEFAULT_DIR = new URL('../demo/data/', import.meta.url);

function fileIn(dir: string | URL | undefined, name: string): URL | string {
  if (dir === undefined) return new URL(name, DEFAULT_DIR);
  if (dir instanceof URL) return new URL(name, dir.href.endsWith('/') ? dir : new URL(`${dir.href}/`));
  return `${dir.replace(/\/+$/, '')}/${name}`;
}

/** Language (ISO 639-1) → product id → its texts in that language: a handful of demo products in French. */
export type DemoTranslations = Record<string, Record<string, { title?: string; description?: string }>>;

export async function loadDemoTranslations(options: DemoDataOptions = {}): Promise<DemoTranslations> {
  const parsed: unknown = JSON.parse(await readFile(demoDataFile('translations.json', options), 'utf8'));
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('demo translations.json must hold {language: {productId: {title, description}}}');
  return parsed as DemoTranslations;
}

export function demoDataFile(name: 'catalog.json' | 'activities.jsonl.gz' | 'translations.json', options: DemoDataOptions = {}): URL | string {
  return fileIn(options.dir, name);
}

export async function loadDemoCatalog(options: DemoDataOptions = {}): Promise<DemoProduct[]> {
  const parsed: unknown = JSON.parse(await readFile(demoDataFile('catalog.json', options), 'utf8'));
  if (!Array.isArray(parsed)) throw new Error('demo catalog.json must hold an array of products');
  return parsed as DemoProduct[];
}

/** Streams the history line by line: it holds a few hundred thousand activities, too many to parse at once. */
export async function* readDemoActivities(options: DemoDataOptions = {}): AsyncGenerator<DemoActivity> {
  const gunzip = createGunzip();
  // pipeline() forwards a read error (a missing file) to gunzip, so the loop below rejects instead of hanging.
  pipeline(createReadStream(demoDataFile('activities.jsonl.gz', options)), gunzip, () => {});
  const lines = createInterface({ input: gunzip, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.length === 0) continue;
    yield JSON.parse(line) as DemoActivity;
  }
}
