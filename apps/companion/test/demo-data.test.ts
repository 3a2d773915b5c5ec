/** The checked-in demo data is well formed, and the generator excludes, groups and repeats itself as documented. */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { writeDemoData } from '../scripts/demo-data/build-demo-data.js';
import { productKind } from '../scripts/demo-data/product-photo.js';
import { splitCsvLine } from '../scripts/demo-data/retail-rows.js';
import { type DemoActivity, type DemoProduct, loadDemoCatalog, readDemoActivities } from '../src/demo-data.js';

async function collect(activities: AsyncIterable<DemoActivity>): Promise<DemoActivity[]> {
  const all: DemoActivity[] = [];
  for await (const activity of activities) all.push(activity);
  return all;
}

describe('checked-in demo data', () => {
  let catalog: DemoProduct[];
  before(async () => {
    catalog = await loadDemoCatalog();
  });

  test('has a few thousand products with unique ids and whole-pence prices', () => {
    assert.ok(catalog.length >= 2000, `only ${catalog.length} products`);
    assert.equal(new Set(catalog.map((p) => p.id)).size, catalog.length);
    for (const product of catalog) {
      assert.ok(Number.isInteger(product.price) && product.price > 0, `${product.id} price ${product.price}`);
      assert.equal(product.currency, 'GBP');
    }
  });

  test('gives every product a title, brand, categories and a safe SVG photo', () => {
    for (const product of catalog) {
      assert.ok(product.title.trim().length > 0, product.id);
      assert.ok(product.description.length > product.title.length, product.id);
      assert.ok(product.brand.length > 0, product.id);
      assert.ok(product.categories.length >= 1 && product.categories.length <= 2, product.id);
      assert.ok(product.photo.startsWith('data:image/svg+xml,'), product.id);
      assert.ok(product.photo.length < 1_000, `${product.id} photo is ${product.photo.length} bytes`);
      assert.doesNotMatch(decodeURIComponent(product.photo), /<script|javascript:/i, product.id);
      assert.ok(product.url.startsWith('/shop/product.html?id='), product.id);
    }
  });

  test('draws each photo as the kind of thing its title names, so a row of products is not a row of tiles', () => {
    assert.equal(productKind('Red Retrospot Mug'), 'mug');
    assert.equal(productKind('White Hanging Heart T-Light Holder'), 'candle', 'the object before its motif');
    assert.equal(productKind('Jumbo Bag Red Retrospot'), 'bag');
    assert.equal(productKind('Hanging Heart Mirror Decoration'), 'frame');
    assert.equal(productKind('Inflatable Political Globe'), 'gift', 'a title naming no known thing');
    const mostPopular = [...catalog].sort((a, b) => b.popularity - a.popularity).slice(0, 24);
    const kinds = new Set(mostPopular.map((p) => productKind(p.title)));
    assert.ok(kinds.size >= 8, `the 24 most popular products show only ${[...kinds].join(', ')}`);
    assert.ok(new Set(mostPopular.map((p) => p.photo)).size === mostPopular.length, 'no two of them share a photo');
    // No text: e-mail rasterising must not depend on fonts, and a letter is not a product.
    for (const product of catalog) assert.doesNotMatch(decodeURIComponent(product.photo), /<text/, product.id);
  });

  test('variants never reuse an id', () => {
    const ids = new Set(catalog.map((p) => p.id));
    const parents = catalog.filter((p) => p.variants);
    assert.ok(parents.length > 0);
    for (const parent of parents) {
      for (const variant of parent.variants ?? []) {
        assert.ok(!ids.has(variant.id), `variant ${variant.id} of ${parent.id} is also a product or another variant`);
        ids.add(variant.id);
        assert.ok(Number.isInteger(variant.price) && variant.price > 0, variant.id);
      }
    }
  });

  test('activities parse and point at catalog products', async () => {
    const products = new Map(catalog.map((p) => [p.id, p]));
    let purchases = 0;
    let views = 0;
    for await (const activity of readDemoActivities()) {
      const product = products.get(activity.target.product);
      assert.ok(product, `unknown product ${activity.target.product}`);
      assert.ok(activity.user.identities['customer-id'], 'customer id');
      assert.ok(!Number.isNaN(Date.parse(activity.timestamp)), activity.timestamp);
      const variant = activity.metadata?.variant;
      if (variant !== undefined) assert.ok(product.variants?.some((v) => v.id === variant), variant);
      if (activity.action === 'purchase') {
        purchases++;
        assert.ok(activity.metadata?.orderId, 'orderId');
        assert.ok(Number.isInteger(activity.metadata.price), 'integer price');
        assert.ok(Number.isInteger(activity.metadata.quantity) && (activity.metadata.quantity ?? 0) > 0, 'quantity');
      } else {
        assert.equal(activity.action, 'view');
        views++;
      }
    }
    assert.ok(purchases > 10_000 && views > 10_000, `${purchases} purchases, ${views} views`);
  });
});

const SYNTHETIC_CSV = [
  'InvoiceNo,StockCode,Description,Quantity,InvoiceDate,UnitPrice,CustomerID,Country',
  '"1001","11111","RED RETROSPOT MUG",2,"2011-01-01 10:00:00",1.25,12345,"United Kingdom"',
  '"1001","22222A","PINK PAPER PARASOL",1,"2011-01-01 10:00:00",2.95,12345,"United Kingdom"',
  '"1001","POST","POSTAGE",1,"2011-01-01 10:00:00",18,12345,"United Kingdom"',
  '"1002","22222B","BLUE PAPER PARASOL",3,"2011-01-02 09:30:00",2.95,23456.0,"France"',
  '"1002","11111","RED RETROSPOT MUG",1,"2011-01-02 09:30:00",1.25,23456.0,"France"',
  '"1002","33333","",1,"2011-01-02 09:30:00",0.85,23456.0,"France"',
  '"1002","55555","CHRISTMAS TREE DECORATION, ""STAR""",4,"2011-01-02 09:30:00",0.42,23456.0,"France"',
  '"C1003","11111","RED RETROSPOT MUG",-2,"2011-01-03 11:00:00",1.25,12345,"United Kingdom"',
  '"C1003","66666","CANCELLED ONLY CLOCK",-1,"2011-01-03 11:00:00",4.95,12345,"United Kingdom"',
  '"1004","44444","WHITE METAL LANTERN",1,"2011-01-04 12:00:00",3.39,,"United Kingdom"',
  '"1005","11111","damaged",1,"2011-01-05 12:00:00",1.5,12345,"United Kingdom"',
  '',
].join('\n');

describe('the generator on a synthetic source', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'demo-data-'));
    await writeFile(join(dir, 'source.csv.gz'), gzipSync(SYNTHETIC_CSV));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('splits quoted CSV fields with commas and doubled quotes', () => {
    assert.deepEqual(splitCsvLine('"1","2","A, ""B""",3'), ['1', '2', 'A, "B"', '3']);
  });

  test('keeps real sold products, groups lettered codes and drops the rest', async () => {
    const { products } = await writeDemoData(join(dir, 'source.csv.gz'), join(dir, 'out'));
    assert.deepEqual(
      products.map((p) => p.id),
      ['11111', '22222', '44444', '55555'],
    );
    const mug = products.find((p) => p.id === '11111');
    assert.equal(mug?.title, 'Red Retrospot Mug');
    assert.equal(mug?.color, 'Red');
    assert.equal(mug?.popularity, 3, 'the cancellation does not count as an order');
    assert.equal(mug?.price, 125, 'the most frequent unit price, in pence');
    const parasol = products.find((p) => p.id === '22222');
    assert.equal(parasol?.title, 'Paper Parasol');
    assert.deepEqual(parasol?.variants, [
      { id: '22222A', title: 'Pink Paper Parasol', color: 'Pink', price: 295 },
      { id: '22222B', title: 'Blue Paper Parasol', color: 'Blue', price: 295 },
    ]);
    assert.equal(products.find((p) => p.id === '55555')?.title, 'Christmas Tree Decoration, "Star"');
    assert.deepEqual(products.find((p) => p.id === '55555')?.categories, ['Christmas', 'Home Décor']);
  });

  test('writes purchases for known customers only, each after views of its products', async () => {
    const activities = await collect(readDemoActivities({ dir: join(dir, 'out') }));
    const purchases = activities.filter((a) => a.action === 'purchase');
    assert.deepEqual(
      purchases.map((a) => [a.metadata?.orderId, a.target.product, a.metadata?.variant, a.user.identities['customer-id']]),
      [
        ['1001', '11111', undefined, '12345'],
        ['1001', '22222', '22222A', '12345'],
        ['1002', '22222', '22222B', '23456'],
        ['1002', '11111', undefined, '23456'],
        ['1002', '55555', undefined, '23456'],
        ['1005', '11111', undefined, '12345'],
      ],
    );
    assert.deepEqual(purchases[0].metadata, { orderId: '1001', quantity: 2, price: 125, currency: 'GBP' });
    assert.equal(purchases[0].timestamp, '2011-01-01T10:00:00Z');
    const views = activities.filter((a) => a.action === 'view' && a.user.identities['customer-id'] === '23456');
    assert.deepEqual(views.map((a) => a.target.product).sort(), ['11111', '22222', '55555']);
    for (const view of views) assert.ok(view.timestamp < '2011-01-02T09:30:00Z', view.timestamp);
    const attribution = await readFile(join(dir, 'out', 'ATTRIBUTION.md'), 'utf8');
    assert.match(attribution, /CC BY 4\.0/);
    assert.match(attribution, /Chen, Sain and Guo, 2012/);
  });

  test('rejects, rather than hangs, when the history file is missing', async () => {
    await assert.rejects(collect(readDemoActivities({ dir: join(dir, 'nowhere') })), { code: 'ENOENT' });
  });

  test('gives identical bytes on a second run', async () => {
    await writeDemoData(join(dir, 'source.csv.gz'), join(dir, 'again'));
    for (const name of ['catalog.json', 'activities.jsonl.gz', 'ATTRIBUTION.md']) {
      assert.deepEqual(await readFile(join(dir, 'again', name)), await readFile(join(dir, 'out', name)), name);
    }
  });
});
