/** `npm run import`: feeds as shops export them, loaded into a real running server through its catalog API. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger } from '@discovery-kit/server';
import { startCompanion, type RunningCompanion } from '../src/companion.js';
import { DEMO_CONFIG, DEFAULT_SDK_DIR } from '../src/options.js';
import { importFeed } from '../src/feed/feed-import.js';

const CLI = fileURLToPath(new URL('../src/import-cli.ts', import.meta.url));
const UCI = '/work/shared/data/online-retail.csv.gz';
let dir: string;
let running: RunningCompanion;
let token: string;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'discovery-import-'));
  const options = { configFile: DEMO_CONFIG, port: 0, host: '127.0.0.1', dataDir: join(dir, 'data'), demo: true, demoActivities: false, logLevel: 'silent', sdkDir: DEFAULT_SDK_DIR };
  running = await startCompanion(options, createLogger('silent'));
  const { createTokenProvider } = await import('@discovery-kit/client');
  const { readFile } = await import('node:fs/promises');
  const key = await readFile(fileURLToPath(new URL('../demo/keys/demo-service-account.private.pem', import.meta.url)), 'utf8');
  token = await createTokenProvider({ tokenUrl: `${running.url}/auth/realms/demo-shop/protocol/openid-connect/token`, clientId: 'demo-backoffice', privateKeyPem: key }).getToken();
});
after(async () => {
  await running.close();
  await rm(dir, { recursive: true, force: true });
});

async function runImport(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args, '--url', running.url], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout!.resume();
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stderr };
}

async function catalogGet(path: string, environment: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${running.url}/catalog${path}${path.includes('?') ? '&' : '?'}tenant=demo-shop&environment=${environment}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, body: await response.json() };
}

async function search(query: string): Promise<any> {
  const response = await fetch(`${running.url}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: 'demo-search-token', query }) });
  return response.json();
}

const MERCHANT_XML = `<?xml version="1.0" encoding="UTF-8"?>
<rss xmlns:g="http://base.google.com/ns/1.0" version="2.0">
  <channel>
    <title>Trail shop</title>
    <item>
      <g:id>JKT-RED-M</g:id>
      <g:title>Ridgeline rain jacket, red, M</g:title>
      <g:description><![CDATA[Taped seams & <b>pit zips</b>]]></g:description>
      <g:link>https://trail.example/jacket?c=red&amp;s=m</g:link>
      <g:image_link>https://trail.example/jacket-red.jpg</g:image_link>
      <g:availability>in_stock</g:availability>
      <g:price>129.00 EUR</g:price>
      <g:brand>Northcol</g:brand>
      <g:product_type>Outerwear &gt; Jackets</g:product_type>
      <g:item_group_id>JKT</g:item_group_id>
      <g:color>red</g:color>
      <g:size>M</g:size>
      <g:shipping><g:country>DE</g:country><g:price>4.95 EUR</g:price></g:shipping>
    </item>
    <item>
      <g:id>JKT-BLUE-L</g:id>
      <g:title>Ridgeline rain jacket, blue, L</g:title>
      <g:availability>out_of_stock</g:availability>
      <g:price>119.50 EUR</g:price>
      <g:brand>Northcol</g:brand>
      <g:item_group_id>JKT</g:item_group_id>
      <g:color>blue</g:color>
      <g:size>L</g:size>
    </item>
    <item>
      <g:id>STOVE-1</g:id>
      <g:title>Featherlite camping stove</g:title>
      <g:availability>preorder</g:availability>
      <g:price>45.90 EUR</g:price>
      <g:gtin>04012345678901</g:gtin>
    </item>
  </channel>
</rss>
`;

describe('feed import', () => {
  it('imports a Google Merchant XML feed with variants, shows progress and a summary, and the promoted catalog is searchable', async () => {
    const file = join(dir, 'merchant.xml');
    await writeFile(file, MERCHANT_XML);
    const result = await runImport([file, '--tenant', 'demo-shop', '--environment', 'production', '--promote']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /Loading into demo-shop\/production: 100% \(4 of 4\)/);
    assert.match(result.stderr, /records: 3, products: 2, variants: 2/);
    assert.match(result.stderr, /catalog version 2: active/);

    const found = await search('ridgeline jacket');
    assert.deepEqual(found.items.map((item: { id: string }) => item.id), ['JKT']);
    const parent = await catalogGet('/items/JKT', 'production');
    assert.equal(parent.status, 200);
    assert.equal(parent.body.attributes.price, 11950, 'the product shows its lowest variant price, in cents');
    assert.equal(parent.body.attributes.in_stock, 1);
    assert.equal(parent.body.attributes.categories, 'Outerwear > Jackets');
    assert.equal(parent.body.attributes.description, 'Taped seams & <b>pit zips</b>');
    assert.equal(parent.body.attributes.url, 'https://trail.example/jacket?c=red&s=m');
    const variant = await catalogGet('/items/JKT-BLUE-L', 'production');
    assert.equal(variant.body.parentId, 'JKT');
    assert.equal(variant.body.attributes.in_stock, 0);
    const stove = await catalogGet('/items/STOVE-1', 'production');
    assert.equal(stove.body.attributes.gtin, '04012345678901', 'a code with a leading zero stays text');
    assert.equal(stove.body.attributes.currency, 'EUR');
  });

  it('refuses a Merchant TSV feed with a bad line, naming the line and field, and stores nothing', async () => {
    const file = join(dir, 'merchant.tsv');
    const rows = ['id\ttitle\tprice\tavailability', 'A1\tWool socks\t9.00 GBP\tin stock', 'A2\tWool hat\tten pounds\tin stock', 'A3\tScarf\t19.00 GBP\tsold out'];
    await writeFile(file, `${rows.join('\n')}\n`);
    const before = (await catalogGet('/catalogs', 'staging')).body.catalogs.length;
    const result = await runImport([file, '--tenant', 'demo-shop', '--environment', 'staging']);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /line 3: price: "ten pounds" is not a price/);
    assert.match(result.stderr, /line 4: in_stock: "sold out" is not an availability/);
    assert.match(result.stderr, /2 of 3 records are invalid; nothing was imported/);
    assert.equal((await catalogGet('/catalogs', 'staging')).body.catalogs.length, before);

    const dry = await runImport([file, '--tenant', 'demo-shop', '--environment', 'staging', '--dry-run', '--skip-invalid']);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stderr, /records: 3, products: 1, variants: 0, invalid records skipped: 2/);
    assert.match(dry.stderr, /dry run: nothing was sent/);
    assert.equal((await catalogGet('/catalogs', 'staging')).body.catalogs.length, before);
  });

  it('maps CSV columns (quoted fields, line breaks inside quotes) and reads JSON Lines, through the same catalog API', async () => {
    const { CatalogClient } = await import('../src/feed/catalog-client.js');
    const client = new CatalogClient({ baseUrl: running.url, tenant: 'demo-shop', environment: 'staging', getToken: async () => token });
    const csv = join(dir, 'export.csv');
    await writeFile(csv, 'Code,Name,Cost,Stock\r\nC-1,"Lamp, ""brass""",12.5,4\r\nC-2,"Two-line\ndescription",3,0\r\n');
    const fromCsv = await importFeed({ file: csv, format: 'csv', mapping: { columns: { id: 'Code', title: 'Name', price: 'Cost', stock: 'Stock' }, currency: 'GBP' }, duplicates: 'error', skipInvalid: false, dryRun: false, promote: false, client });
    assert.equal(fromCsv.products, 2);
    assert.deepEqual(fromCsv.attributes, { currency: 'TEXT', price: 'INTEGER', stock: 'INTEGER', title: 'TEXT' });
    const lamp = await catalogGet(`/items/C-1?catalogVersion=${fromCsv.catalogVersion}`, 'staging');
    assert.deepEqual(lamp.body.attributes, { title: 'Lamp, "brass"', price: 1250, currency: 'GBP', stock: 4 });
    const twoLine = await catalogGet(`/items/C-2?catalogVersion=${fromCsv.catalogVersion}`, 'staging');
    assert.equal(twoLine.body.attributes.title, 'Two-line\ndescription');

    const jsonl = join(dir, 'items.jsonl');
    await writeFile(jsonl, '{"id":"J-1","title":"Kettle","price":"24.99 GBP","watts":2200}\n\n{"id":"J-1","title":"Kettle again"}\n');
    await assert.rejects(
      importFeed({ file: jsonl, format: 'jsonl', mapping: { columns: {} }, duplicates: 'error', skipInvalid: false, dryRun: false, promote: true, client }),
      (error: Error & { summary?: { issues: Array<{ line: number; field: string; message: string }> } }) => {
        assert.deepEqual(error.summary?.issues, [{ line: 3, field: 'id', message: '"J-1" repeats the id of line 1 (--duplicates first|last keeps one)' }]);
        return true;
      },
    );
    const kept = await importFeed({ file: jsonl, format: 'jsonl', mapping: { columns: {} }, duplicates: 'first', skipInvalid: false, dryRun: false, promote: true, client });
    assert.equal(kept.state, 'active');
    const kettle = await catalogGet('/items/J-1', 'staging');
    assert.deepEqual(kettle.body.attributes, { title: 'Kettle', price: 2499, currency: 'GBP', watts: 2200 });
    // Two catalogs are held: the next import makes room by deleting the inactive one, and says so.
    const again = await importFeed({ file: csv, format: 'csv', mapping: { columns: { id: 'Code', title: 'Name', price: 'Cost' } }, duplicates: 'error', skipInvalid: false, dryRun: false, promote: false, client });
    assert.equal(again.deletedVersion, fromCsv.catalogVersion);
    assert.equal((await catalogGet('/catalogs/active', 'staging')).body.version, kept.catalogVersion);
  });

  it('reads the UCI Online Retail export: one product per StockCode', async (t) => {
    if (!existsSync(UCI)) {
      t.skip(`${UCI} is absent (the shared data set is not on this machine)`);
      return;
    }
    const summary = await importFeed({
      file: UCI,
      format: 'csv',
      mapping: { columns: { id: 'StockCode', title: 'Description', price: 'UnitPrice' }, onlyMapped: true, currency: 'GBP' },
      duplicates: 'first',
      skipInvalid: true,
      dryRun: true,
      promote: false,
    });
    assert.equal(summary.records, 541_909);
    assert.equal(summary.products, 4_070);
    assert.ok(summary.issues.every((issue) => issue.field === 'price'), 'only negative prices (bad debt adjustments) are refused');
    assert.deepEqual(summary.attributes, { currency: 'TEXT', price: 'INTEGER', title: 'TEXT' });
  });
});
