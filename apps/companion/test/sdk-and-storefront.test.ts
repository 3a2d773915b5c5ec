/** The companion's own pages: the browser bundle at /sdk/ and the demo shop at /shop/. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { request } from 'node:http';
import { createLogger } from '@discovery-kit/server';
import { html, escapeHtml, jsonScript } from '@discovery-kit/storefront';
import { startCompanion, type RunningCompanion } from '../src/companion.js';
import { DEMO_CONFIG } from '../src/options.js';

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'discovery-sdk-'));
  dirs.push(dir);
  return dir;
}
after(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

const BUNDLE = `/* test bundle */ window.loaded = true; ${'console.log("padding so the file is worth compressing");'.repeat(40)}`;

/** A raw GET, so that the test sees the bytes on the wire (fetch would decompress them). */
function rawGet(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

async function start(demo: boolean, sdkDir: string): Promise<RunningCompanion> {
  return startCompanion({ configFile: DEMO_CONFIG, port: 0, host: '127.0.0.1', dataDir: await tempDir(), demo, demoActivities: false, logLevel: 'silent', sdkDir }, createLogger('silent'));
}

describe('the browser bundle at /sdk/', () => {
  let companion: RunningCompanion;
  let emptyCompanion: RunningCompanion;
  before(async () => {
    const sdkDir = await tempDir();
    await writeFile(join(sdkDir, 'discovery.js'), BUNDLE);
    await writeFile(join(sdkDir, '.secret.js'), 'hidden');
    companion = await start(false, sdkDir);
    emptyCompanion = await start(false, await tempDir());
  });
  after(async () => {
    await companion.server.close();
    await emptyCompanion.server.close();
  });

  it('serves the script to any origin, as JavaScript, with a validator', async () => {
    const res = await fetch(`${companion.url}/sdk/discovery.js`, { headers: { Origin: 'https://shop.example' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.match(res.headers.get('content-type') ?? '', /^text\/javascript/);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.match(res.headers.get('cache-control') ?? '', /max-age=\d+/);
    assert.equal(await res.text(), BUNDLE);
    const again = await fetch(`${companion.url}/sdk/discovery.js`, { headers: { 'If-None-Match': res.headers.get('etag')! } });
    assert.equal(again.status, 304);
  });

  it('sends it gzipped to clients that accept gzip, and plain to the others', async () => {
    const zipped = await rawGet(`${companion.url}/sdk/discovery.js`, { 'Accept-Encoding': 'gzip, deflate' });
    assert.equal(zipped.headers['content-encoding'], 'gzip');
    assert.ok(zipped.body.length < BUNDLE.length / 4, `gzip answer is ${zipped.body.length} bytes`);
    assert.equal(gunzipSync(zipped.body).toString(), BUNDLE);
    const plain = await rawGet(`${companion.url}/sdk/discovery.js`, { 'Accept-Encoding': 'identity' });
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(plain.body.toString(), BUNDLE);
  });

  it('never serves a file outside the bundle directory, a dot file or an unknown type', async () => {
    for (const path of ['/sdk/..%2Fpackage.json', '/sdk/%2e%2e%2f%2e%2e%2fpackage.json', '/sdk/.secret.js', '/sdk/discovery.exe', '/sdk/..']) {
      const res = await fetch(`${companion.url}${path}`);
      assert.equal(res.status, 404, path);
      const body = (await res.json()) as { error: { code: string } };
      assert.equal(body.error.code, 'not_found', path);
    }
  });

  it('says how to build the bundle when it is missing', async () => {
    const res = await fetch(`${emptyCompanion.url}/sdk/discovery.js`);
    assert.equal(res.status, 404);
    const body = (await res.json()) as { error: { message: string } };
    assert.match(body.error.message, /npm run build/);
  });

  it('has no demo shop in production mode', async () => {
    const res = await fetch(`${companion.url}/shop/`);
    assert.equal(res.status, 404);
  });
});

describe('the demo shop at /shop/', () => {
  let companion: RunningCompanion;
  before(async () => {
    companion = await start(true, await tempDir());
  });
  after(async () => companion.server.close());

  it('renders a product page that the tracker recognises: data attribute, JSON-LD and the one script tag', async () => {
    const res = await fetch(`${companion.url}/shop/product.html?id=84029`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    const page = await res.text();
    assert.match(page, /<script src="\/sdk\/discovery\.js" data-tracker-key="demo-tracker-key" data-search-token="demo-search-token"[^>]* async><\/script>/);
    assert.match(page, /data-discovery-page="product" data-discovery-product-id="84029"/);
    assert.match(page, /data-discovery-add-to-cart="84029"/);
    const ld = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(page);
    assert.ok(ld, 'JSON-LD block');
    const product = JSON.parse(ld[1]!) as { '@type': string; sku: string; offers: { priceCurrency: string } };
    assert.equal(product['@type'], 'Product');
    assert.equal(product.sku, '84029');
    assert.equal(product.offers.priceCurrency, 'GBP');
    assert.match(page, /<discovery-recommendations widget-id="demo-similar" product-id="84029"/);
  });

  it('lists a category a page at a time, and answers 404 or 400 for what does not exist', async () => {
    const first = await (await fetch(`${companion.url}/shop/category.html?c=${encodeURIComponent('Home Décor')}`)).text();
    assert.match(first, /Page 1 of \d+/);
    assert.equal((first.match(/class="card"/g) ?? []).length, 24);
    assert.match(first, /rel="next" href="\/shop\/category\.html\?c=Home%20D%C3%A9cor&amp;page=2"/);
    assert.equal((await fetch(`${companion.url}/shop/category.html?c=Nothing`)).status, 404);
    assert.equal((await fetch(`${companion.url}/shop/product.html?id=no-such-product`)).status, 404);
    const repeated = await fetch(`${companion.url}/shop/product.html?id=1&id=2`);
    assert.equal(repeated.status, 400);
    assert.equal(((await repeated.json()) as { error: { field: string } }).error.field, 'id');
    assert.equal((await fetch(`${companion.url}/shop/category.html?c=Gifts&page=0`)).status, 400);
  });

  it('serves every page of the loop, and the shop script and style', async () => {
    for (const path of ['/shop/', '/shop/search.html?q=heart', '/shop/cart.html', '/shop/checkout.html', '/shop/newsletter.html']) {
      const res = await fetch(`${companion.url}${path}`);
      assert.equal(res.status, 200, path);
      assert.match(await res.text(), /<discovery-search-box action="\/shop\/search\.html"/, path);
    }
    const bare = await fetch(`${companion.url}/shop`, { redirect: 'manual' });
    assert.equal(bare.status, 302);
    assert.equal(bare.headers.get('location'), '/shop/');
    const script = await fetch(`${companion.url}/shop/assets/shop.js`);
    assert.match(script.headers.get('content-type') ?? '', /javascript/);
    assert.match(await script.text(), /discoveryLayer/);
    assert.equal((await fetch(`${companion.url}/shop/assets/..%2Fsrc%2Fstorefront.ts`)).status, 404);
  });
});

describe('storefront markup', () => {
  it('escapes catalog text in elements, attributes and JSON-LD', () => {
    const title = `"><script>alert(1)</script>`;
    assert.equal(html`<p title="${title}">${title}</p>`.text, `<p title="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</p>`);
    assert.equal(escapeHtml(`a&b'c`), 'a&amp;b&#39;c');
    assert.doesNotMatch(jsonScript({ name: '</script><script>alert(1)</script>' }).text, /<\/script>/);
  });
});
