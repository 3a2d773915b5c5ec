/** The e-mail photo's answers for each kind of product photo, without a server. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Context } from 'koa';
import { PLACEHOLDER_PNG, sendPhoto } from '../src/apis/recommendations/email-links.js';

function fakeContext() {
  const headers: Record<string, string> = {};
  const ctx = { status: 404, type: '', body: undefined as unknown, redirected: undefined as string | undefined, set: (k: string, v: string) => (headers[k] = v), redirect: (url: string) => ((ctx.redirected = url), (ctx.status = 302)) };
  return ctx;
}

describe('e-mail photo', () => {
  it('redirects to http(s) photos, serves inline images, and a placeholder otherwise', () => {
    const remote = fakeContext();
    sendPhoto(remote as unknown as Context, 'https://img.example/a.png');
    assert.equal(remote.redirected, 'https://img.example/a.png');

    const svg = fakeContext();
    sendPhoto(svg as unknown as Context, "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'%3E%3C/svg%3E");
    assert.equal(svg.type, 'image/svg+xml');
    assert.equal(String(svg.body), "<svg xmlns='http://www.w3.org/2000/svg'></svg>");

    const png = fakeContext();
    sendPhoto(png as unknown as Context, `data:image/png;base64,${PLACEHOLDER_PNG.toString('base64')}`);
    assert.deepEqual(png.body, PLACEHOLDER_PNG);

    for (const photo of [undefined, '', 'data:image/svg+xml,%E0%A4%A', '/relative.png']) {
      const ctx = fakeContext();
      sendPhoto(ctx as unknown as Context, photo === '' ? undefined : photo);
      assert.equal(ctx.status, 200, String(photo));
      assert.equal(ctx.type, 'image/png');
      assert.deepEqual(ctx.body, PLACEHOLDER_PNG);
    }
  });
});
