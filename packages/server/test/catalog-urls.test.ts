/**
 * One rule for catalog URLs (domains/catalog/catalog-url.ts): control characters and whitespace that a
 * browser would drop inside a URL, turning `/\t/evil.invalid` into `//evil.invalid`, are refused; at the
 * ends they are trimmed. Checked in each URL form, and through each way an item arrives: the catalog API
 * (what search answers show) and the older item API (refused with 400 naming the field, or stored cleaned).
 * The feed import applies the same function (apps/companion/test/feed-import.test.ts).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { catalogUrl } from '../src/domains/catalog/catalog-url.js';
import { ManualClock } from '../src/platform/clock.js';
import { bearer, bearerTokens } from './support/bearer-tokens.js';
import { loadCatalog, PRODUCTS, recommendationConfig } from './support/recommendation-fixture.js';
import { call, startTestServer, type TestServer } from './support/test-server.js';

const FORMS = { absolute: 'https://shop.example/p/1', 'protocol-relative': '//cdn.example/p/1', 'site path': '/p/1' };
const INSIDE = { tab: '\t', newline: '\n', 'carriage return': '\r', NUL: '\u0000' };

describe('catalog URLs', () => {
  it('refuses a control character inside a URL, in every form, and trims whitespace and controls at its ends', () => {
    for (const [form, url] of Object.entries(FORMS)) {
      for (const [name, c] of Object.entries(INSIDE)) {
        // Right after the first character (where `/\t/host` becomes `//host`) and further in.
        assert.equal(catalogUrl(`${url[0]}${c}${url.slice(1)}`), '', `${name} after the first character of a ${form} URL`);
        assert.equal(catalogUrl(`${url.slice(0, -2)}${c}${url.slice(-2)}`), '', `${name} inside a ${form} URL`);
        assert.equal(catalogUrl(`${c}${url}${c}`), url, `${name} at both ends of a ${form} URL`);
      }
      assert.equal(catalogUrl(`  ${url} \t\r\n`), url, `spaces at the ends of a ${form} URL`);
      assert.equal(catalogUrl(`${url}/a b`), `${url}/a%20b`, `a space inside a ${form} URL is sent encoded`);
      assert.equal(catalogUrl(`${url}/a\u00a0b`), '', `a no-break space inside a ${form} URL`);
    }
    assert.equal(catalogUrl('/\t/evil.invalid'), '');
    assert.equal(catalogUrl('/\n/evil.invalid/u'), '');
    assert.equal(catalogUrl(' \t//evil.invalid'), '//evil.invalid', 'trimmed, a protocol-relative URL is what it says it is');
    for (const refused of ['javascript:alert(1)', '/\\evil.invalid', '///evil.invalid', '// evil.invalid', 'p/1', '']) assert.equal(catalogUrl(refused), '', refused);
  });

  describe('through the APIs', () => {
    const clock = new ManualClock();
    let server: TestServer;
    const tokenFor = bearerTokens(() => server, clock);

    before(async () => {
      server = await startTestServer({ config: recommendationConfig(), clock });
      await loadCatalog(server.server, [
        ...PRODUCTS,
        { id: 'u-tab', title: 'Tabbed lantern', url: '/\t/evil.invalid', photo: '/\n/evil.invalid/u', categories: 'x', brand: 'b' },
        { id: 'u-nul', title: 'Nulled lantern', url: 'https://shop.example/\u0000x', photo: '//cdn.example/\r/p.png', categories: 'x', brand: 'b' },
        { id: 'u-ends', title: 'Spaced lantern', url: ' \t/lanterns/3\n', photo: '\u0000//cdn.example/3.png ', categories: 'x', brand: 'b' },
      ]);
    });
    after(() => server.cleanup());

    it('catalog API items: search answers carry no URL with a control character inside, and trimmed ones', async () => {
      const res = await call(`${server.url}/search`, { json: { token: 'tenant-a-search', query: 'lantern' } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const shown = new Map((res.body.items as Array<{ id: string; product: { url: string; photo: string } }>).map((i) => [i.id, [i.product.url, i.product.photo]]));
      assert.deepEqual(shown.get('u-tab'), ['', '']);
      assert.deepEqual(shown.get('u-nul'), ['', '']);
      assert.deepEqual(shown.get('u-ends'), ['/lanterns/3', '//cdn.example/3.png']);
    });

    it('older item API: refuses a control character inside url or image naming the field, stores trimmed ones', async () => {
      const token = await tokenFor('client-a-legacy');
      const actions = (json: unknown) => call(`${server.url}/items`, { method: 'POST', json, ...bearer(token) });
      for (const [form, url] of Object.entries(FORMS)) {
        for (const [name, c] of Object.entries(INSIDE)) {
          const bad = `${url[0]}${c}${url.slice(1)}`;
          const res = await actions([{ action: 'create', id: 'lg-bad', data: { title: 'Bad', url: bad, image: bad } }]);
          assert.equal(res.status, 400, `${name} in a ${form} URL`);
          assert.deepEqual(res.body.error.issues.map((i: { path: string }) => i.path), ['[0].data.image', '[0].data.url']);
        }
      }
      const created = await actions([{ action: 'create', id: 'lg-ends', data: { title: 'Ends', url: '\t/lanterns/9 \n', image: ' //cdn.example/9.png\r' } }]);
      assert.equal(created.status, 200, JSON.stringify(created.body));
      assert.equal((await call(`${server.url}/collect/tenant-a-tracker`, { json: { action: 'view', target: { product: 'lg-ends' }, user: { sessionId: 'url-shopper' } } })).status, 200);
      const recent = await call(`${server.url}/widget/w-recent/recommendations/sessionid/url-shopper/`);
      const product = (recent.body.recommendations as Array<{ product: { _id: { original_id: string }; url: string; photo: string } }>)[0]!.product;
      assert.deepEqual([product._id.original_id, product.url, product.photo], ['lg-ends', '/lanterns/9', '//cdn.example/9.png']);
    });
  });
});
