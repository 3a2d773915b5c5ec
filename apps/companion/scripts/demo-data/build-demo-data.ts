/** The generator's core: source rows in, the three checked-in files out, byte for byte the same on every run. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { DemoActivity, DemoProduct } from '../../src/demo-data.js';
import { buildActivities } from './build-activities.js';
import { buildCatalog } from './build-catalog.js';
import { HOUSE_BRANDS } from './product-text.js';
import { type RetailRow, readRetailRows } from './retail-rows.js';

export interface DemoDataOptions {
  maxStockCodes?: number;
  maxCustomers?: number;
}

export interface DemoDataFiles {
  catalogJson: string;
  activitiesGz: Buffer;
  attribution: string;
  products: DemoProduct[];
  activities: DemoActivity[];
}

/** One product per line: readable diffs when the generator changes, without pretty-printing every field. */
function catalogToJson(products: DemoProduct[]): string {
  return `[\n${products.map((p) => JSON.stringify(p)).join(',\n')}\n]\n`;
}

function attributionText(products: DemoProduct[], activities: DemoActivity[]): string {
  return `# Demo data: attribution and provenance

The demo catalog and shopper history in this directory are derived from the **"Online Retail"**
data set of the UCI Machine Learning Repository (id 352; Chen, Sain and Guo, 2012;
https://archive.ics.uci.edu/dataset/352/online+retail), licensed under the
[Creative Commons Attribution 4.0 International](https://creativecommons.org/licenses/by/4.0/) licence
(CC BY 4.0). This attribution must go with every copy or subset of these files.

The source lists real transactions of a UK online gift shop between 2010-12-01 and 2011-12-09.

## Taken from the source (selected and reformatted)

- Product ids (StockCode), titles (Description, re-cased), prices (the most frequent unit price, in pence).
- Popularity: the number of distinct orders that bought each product.
- Purchases: one \`purchase\` activity per order line of the most active customers, with the real
  invoice number, quantity, unit price and time. Customer ids are the source's anonymous numbers.

## Invented by the generator (not in the source)

- Brands: ${HOUSE_BRANDS.length} house brands (${HOUSE_BRANDS.join(', ')}) assigned from title keywords or a hash.
- Categories and colours, read from keywords in the titles.
- Descriptions: generated sentences built from the title, brand, category and colours.
- Photos: generated SVG tiles; no product images come from the source.
- Stock: about 3% of products are marked out of stock by a hash of their id.
- Product families: StockCodes sharing a numeric stem (84029E, 84029G) are grouped under one parent.
- Views: a \`view\` activity for each product of an order, timed shortly before the order.

## Figures

- ${products.length} products, ${products.filter((p) => p.variants).length} of them families with variants.
- ${activities.length} activities (${activities.filter((a) => a.action === 'purchase').length} purchases).

Regenerate with \`npm run demo:data\`; see docs/demo-data.md.
`;
}

export function buildDemoFiles(rows: RetailRow[], options: DemoDataOptions = {}): DemoDataFiles {
  const { products, entries } = buildCatalog(rows, { maxStockCodes: options.maxStockCodes });
  const activities = buildActivities(rows, entries, { maxCustomers: options.maxCustomers });
  const jsonl = activities.map((a) => `${JSON.stringify(a)}\n`).join('');
  return {
    catalogJson: catalogToJson(products),
    // gzip's header would carry a time; zlib leaves it zero, so equal input gives equal bytes.
    activitiesGz: gzipSync(jsonl, { level: 9 }),
    attribution: attributionText(products, activities),
    products,
    activities,
  };
}

export async function writeDemoData(source: string, out: string, options: DemoDataOptions = {}): Promise<DemoDataFiles> {
  const files = buildDemoFiles(await readRetailRows(source), options);
  await mkdir(out, { recursive: true });
  await writeFile(join(out, 'catalog.json'), files.catalogJson);
  await writeFile(join(out, 'activities.jsonl.gz'), files.activitiesGz);
  await writeFile(join(out, 'ATTRIBUTION.md'), files.attribution);
  return files;
}
