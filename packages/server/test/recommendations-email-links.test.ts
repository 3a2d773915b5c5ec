/** E-mail photo.png and redirect.html over the real server: which photos and URLs are followed, resolved, or replaced. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { PLACEHOLDER_PNG } from '../src/apis/recommendations/email-links.js';
import { validateConfig } from '../src/platform/config/load.js';
import { call, FIXTURES, startTestServer, type TestServer } from './support/test-server.js';
import { loadCatalog, recommendationConfig, TENANT, type Product } from './support/recommendation-fixture.js';

const svgPhoto = (body: string) => `data:image/svg+xml,${encodeURIComponent(`<svg xmlns='http://www.w3.org/2000/svg' width='160' height='160'>${body}</svg>`)}`;
const SVG = svgPhoto("<rect width='160' height='160' fill='#c00'/><text x='80' y='90' font-size='30' text-anchor='middle'>Heart</text>");
/** resvg would read a local file named by an SVG: such a photo gets the placeholder. */
const SVG_FILE = svgPhoto("<image href='/etc/hostname' width='160' height='160'/>");

/** Width and height from a PNG's IHDR chunk. */
function pngSize(png: Buffer): [number, number] {
  assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
  return [png.readUInt32BE(16), png.readUInt32BE(20)];
}

/** In popularity order (views below), so slot n is the n-th product. */
const SHOP: Array<Product & { views: number }> = [
  { id: 'p-abs', categories: 'a', brand: 'b', photo: 'https://img.example/a.png', url: 'https://shop.example/a', views: 6 },
  { id: 'p-rel', categories: 'a', brand: 'b', photo: '/img/b.jpg', url: '/p/b?x=1', views: 5 },
  { id: 'p-js', categories: 'a', brand: 'b', photo: 'javascript:alert(1)', url: 'javascript:alert(1)', views: 4 },
  { id: 'p-svg', categories: 'a', brand: 'b', photo: SVG, url: 'ftp://shop.example/d', views: 3 },
  { id: 'p-slash', categories: 'a', brand: 'b', photo: '/\\evil.example/x.png', url: '/\\evil.example/', views: 2 },
  { id: 'p-file', categories: 'a', brand: 'b', photo: SVG_FILE, url: '/p/f', views: 1 },
];

function config(): Record<string, unknown> {
  const base = recommendationConfig() as { tenants: Array<{ environments: Array<{ widgets: unknown[] }> }> };
  const links = { strategies: ['popular'], minResults: 0, maxResults: 5, fallbackUrl: 'https://shop.example/home' };
  base.tenants[0]!.environments[0]!.widgets.push({ id: 'w-links', title: 'links', shopUrl: 'https://shop.example/fr/', ...links }, { id: 'w-links-origin', title: 'links', ...links });
  return base;
}

describe('e-mail links', () => {
  let server: TestServer;
  const open = (widget: string, index: number, file: 'photo.png' | 'redirect.html') =>
    call(`${server.url}/widget/${widget}/recommendations/crm/c-1/${index}/${file}`, { redirect: 'manual' });

  before(async () => {
    server = await startTestServer({ config: config() });
    await loadCatalog(server.server, SHOP.map(({ views: _views, ...product }) => product));
    const activities = server.server.deps.services.activities;
    const { profile } = await activities.resolveProfile(TENANT, { sessionId: 'viewer' });
    const at = Date.now();
    await activities.recordActivities(
      TENANT,
      SHOP.flatMap((p) => Array.from({ length: p.views }, () => ({ profileId: profile.id, source: 'tracker' as const, verb: 'view', type: 'product', itemId: p.id, timestamp: at }))),
    );
  });
  after(() => server.cleanup());

  it('redirects to an absolute photo, resolves a site-relative one against the shop URL, else the request origin', async () => {
    assert.equal((await open('w-links', 1, 'photo.png')).headers.get('location'), 'https://img.example/a.png');
    const relative = await open('w-links', 2, 'photo.png');
    assert.equal(relative.status, 302);
    assert.equal(relative.headers.get('location'), 'https://shop.example/img/b.jpg');
    // Without a shop URL or a configured public URL, a path on the origin the link was opened on.
    assert.equal((await open('w-links-origin', 2, 'photo.png')).headers.get('location'), '/img/b.jpg');
  });

  it('never lets the Host header choose where a link sends the shopper', async () => {
    for (const file of ['photo.png', 'redirect.html']) {
      const location = await new Promise<string | undefined>((resolve, reject) => {
        const req = httpRequest(`${server.url}/widget/w-links-origin/recommendations/crm/c-1/2/${file}`, { headers: { host: 'evil.example' } }, (res) => {
          res.resume();
          resolve(res.headers.location);
        });
        req.on('error', reject);
        req.end();
      });
      assert.ok(location !== undefined && !location.includes('evil.example'), `${file}: ${location}`);
    }
  });

  it('gives no product URL that a browser would read as another site (/\\host)', async () => {
    const res = await call(`${server.url}/widget/w-links/recommendations?limit=5`);
    assert.equal(res.status, 200);
    const urls = JSON.stringify(res.body);
    assert.ok(urls.includes('p-slash'), 'the product with the slash URL is recommended');
    assert.ok(!urls.includes('evil.example'), urls);
  });

  it('serves inline SVG photos as 300 px PNGs that mail clients show, and the placeholder for unsafe photos and empty slots', async () => {
    const res = await fetch(`${server.url}/widget/w-links/recommendations/crm/c-1/4/photo.png`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/png');
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(res.headers.get('content-security-policy'), "default-src 'none'; style-src 'unsafe-inline'; sandbox");
    const png = Buffer.from(await res.arrayBuffer());
    assert.deepEqual(pngSize(png), [300, 300]);
    assert.ok(png.length > 500, 'a drawn photo, not the 1x1 placeholder');
    const again = await fetch(`${server.url}/widget/w-links/recommendations/crm/c-1/4/photo.png`);
    assert.deepEqual(Buffer.from(await again.arrayBuffer()), png);
    for (const index of [3, 5, 6, 9]) {
      const res = await fetch(`${server.url}/widget/w-links/recommendations/crm/c-1/${index}/photo.png`, { redirect: 'manual' });
      assert.equal(res.status, 200, String(index));
      assert.equal(res.headers.get('content-type'), 'image/png');
      assert.deepEqual(Buffer.from(await res.arrayBuffer()), PLACEHOLDER_PNG);
    }
  });

  it('redirects to absolute or resolved site URLs, and to the fallback for unsafe URLs and empty slots', async () => {
    assert.equal((await open('w-links', 1, 'redirect.html')).headers.get('location'), 'https://shop.example/a');
    assert.equal((await open('w-links', 2, 'redirect.html')).headers.get('location'), 'https://shop.example/p/b?x=1');
    assert.equal((await open('w-links-origin', 2, 'redirect.html')).headers.get('location'), '/p/b?x=1');
    for (const index of [3, 4, 5, 9]) {
      const res = await open('w-links', index, 'redirect.html');
      assert.equal(res.status, 302, String(index));
      assert.equal(res.headers.get('location'), 'https://shop.example/home', String(index));
    }
  });

  it('rejects a shop URL that is not http(s) when the configuration loads', () => {
    const bad = config() as { tenants: Array<{ environments: Array<{ widgets: Array<Record<string, unknown>> }> }> };
    bad.tenants[0]!.environments[0]!.widgets.at(-1)!.shopUrl = 'javascript:alert(1)';
    assert.throws(() => validateConfig(bad, '(test)', FIXTURES), /shopUrl/);
  });
});
