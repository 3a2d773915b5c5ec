/** A feed's links go through the catalog's one URL rule (catalog-url.ts): refused naming line and field, or trimmed. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mapRecord } from '../src/feed/feed-mapping.js';

const FORMS = { absolute: 'https://shop.example/p/1', 'protocol-relative': '//cdn.example/p/1', 'site path': '/p/1' };
const INSIDE = { tab: '\t', newline: '\n', 'carriage return': '\r', NUL: '\u0000' };

describe('feed URLs', () => {
  it('refuses a link or image link with a control character inside, in every form, naming the line and field', () => {
    for (const [form, url] of Object.entries(FORMS)) {
      for (const [name, c] of Object.entries(INSIDE)) {
        const bad = `${url[0]}${c}${url.slice(1)}`;
        const { item, issues } = mapRecord({ line: 7, fields: { id: 'p-1', title: 'Lamp', link: bad, image_link: bad } }, { columns: {} });
        assert.equal(item, undefined, `${name} in a ${form} URL`);
        assert.deepEqual(issues.map((i) => [i.line, i.field]), [[7, 'url'], [7, 'photo']], `${name} in a ${form} URL`);
      }
    }
  });

  it('trims whitespace and control characters at the ends of a link, in every form', () => {
    for (const url of Object.values(FORMS)) {
      for (const c of [...Object.values(INSIDE), ' ']) {
        const { item, issues } = mapRecord({ line: 2, fields: { id: 'p-1', link: `${c}${url}${c}`, image_link: `${c}${url}` } }, { columns: {} });
        assert.deepEqual(issues, []);
        assert.deepEqual([item!.attributes.url, item!.attributes.photo], [url, url]);
      }
    }
  });
});
