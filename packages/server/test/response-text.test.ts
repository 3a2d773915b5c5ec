/**
 * The search API writes its answers as text (domains/search/response/response-text.ts), reusing the texts of a
 * cached answer's facets and of product views under a response mask: every text must be exactly what
 * `JSON.stringify` gives for the same object, and the masked texts kept must stay within their budget.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { SearchFacet, SearchItem, SearchResponse } from '@discovery-kit/protocol';
import { facetsJson, MaskedTexts, maskedHitJson, metadataParts } from '../src/domains/search/response/response-text.js';
import { applyMask, parseMask } from '../src/platform/response-mask.js';
import { toProductView } from '../src/domains/catalog/product-view.js';
import type { StoredItem } from '../src/domains/catalog/types.js';

function item(n: number): StoredItem {
  return {
    key: `p${n}`,
    id: `p${n}`,
    type: 'product',
    context: 'default',
    kind: 'product',
    updated: '2026-11-27T00:00:00.000Z',
    attributes: { title: `Lamp "${n}" é`, price: 100 + n, brand: n % 2 === 0 ? 'Acme' : 'Nord', categories: 'Home, Light', in_stock: 1, sizes: ['S', 'M'] },
  };
}

const hits: SearchItem[] = [0, 1, 2].map((n) => ({ id: `p${n}`, score: 1.25 - n / 10, kind: 'product', context: 'default', product: toProductView(item(n), { tenantId: 'shop', version: 3 }) }));
hits.push({ ...hits[0]!, highlights: { title: [[0, 4]] } } as SearchItem);
hits.push({ id: 'r1', score: 1, kind: 'redirect', context: '', redirect: { id: 'r1', name: 'Sale', url: 'https://example.com/sale' } } as SearchItem);

const MASKS = ['id', 'id,score', 'product(title,price)', 'id,product(*)', '*', 'product', 'product(title),highlights', 'nothing,product(missing)', 'redirect(url),id', '*(title)'];

describe('search answers as text', () => {
  it('write masked hits exactly as JSON.stringify of the masked object, at the first use of a mask and after', () => {
    const memo = new MaskedTexts();
    for (const text of MASKS) {
      const mask = parseMask(text)!;
      for (let round = 0; round < 2; round++) {
        for (const hit of hits) assert.equal(maskedHitJson(hit, mask, text, memo), JSON.stringify(applyMask(hit, mask)), `${text}, round ${round + 1}, ${hit.id}`);
      }
    }
  });

  it('write metadata exactly as JSON.stringify, with and without the optional fields, the facets as text or as UTF-8', () => {
    const facets = [{ id: 'brand', title: 'Brand "B"', attribute: 'brand', count: 3, values: [{ value: 'Acme', count: 2, selected: true }] }];
    const base: SearchResponse['metadata'] = { count: 3, exactCount: true, time: 0.25, token: 'tok', url: 'http://x/search/tok?encoded=%7B%7D', offset: 0, limit: 10, facets, id: 'id-1', configurationId: 'default', defaultConfigurationId: 'default' };
    for (const metadata of [base, { ...base, correctedQuery: 'lamp "x"' }, { ...base, relaxed: true as const }, { ...base, correctedQuery: 'a', relaxed: true as const, facets: [] }]) {
      const { facets: listed, ...rest } = metadata;
      assert.equal(metadataParts(rest, facetsJson(listed)).join(''), JSON.stringify(metadata));
      assert.equal(metadataParts({ ...rest, time: 9 }, facetsJson(listed)).join(''), JSON.stringify({ ...metadata, time: 9 }));
      const [head, bytes, tail] = metadataParts(rest, new TextEncoder().encode(facetsJson(listed)));
      assert.equal(head + new TextDecoder().decode(bytes) + tail, JSON.stringify(metadata));
    }
  });

  it('keep masked texts within their budget, the oldest views going first', () => {
    const memo = new MaskedTexts(4_000);
    const mask = parseMask('product(title,brand)')!;
    const views = Array.from({ length: 200 }, (_, n) => toProductView(item(n), { tenantId: 'shop', version: 3 }));
    for (const view of views) maskedHitJson({ id: 'x', score: 1, kind: 'product', context: 'default', product: view }, mask, 'product(title,brand)', memo);
    assert.ok(memo.size <= 4_000, String(memo.size));
    assert.ok(memo.size > 0);
    // Still right after eviction: an evicted view's text is made again.
    const first: SearchItem = { id: 'p0', score: 1, kind: 'product', context: 'default', product: views[0]! };
    assert.equal(maskedHitJson(first, mask, 'product(title,brand)', memo), JSON.stringify(applyMask(first, mask)));
  });
});

describe('search answers as bytes (a search thread\'s)', () => {
  const facets = [{ id: 'brand', title: 'Marque « B »', attribute: 'brand', count: 3, values: [{ value: 'Acmé', count: 2, selected: true }] }];
  const metadata: Omit<SearchResponse['metadata'], 'facets'> = { count: 3, exactCount: true, time: 0.25, token: 'tok', url: 'http://x/search/tok?encoded=%7B%7D', offset: 0, limit: 10, id: 'id-1', configurationId: 'default', defaultConfigurationId: 'default', correctedQuery: 'lampé' };

  it('are the UTF-8 of the text answers, with and without masks and highlights, pooled or not, buffer growth included', async () => {
    const { AnswerBuffers, JsonBytes, POOLED_BYTES, answerBody } = await import('../src/domains/search/response/json-bytes.js');
    const { answerParts, itemsJson } = await import('../src/domains/search/response/response-text.js');
    const terms = { terms: ['lamp'], typing: undefined };
    // A small start forces the buffer to grow mid-answer.
    const out = new JsonBytes(64);
    const pool = new AnswerBuffers();
    const memo = new MaskedTexts();
    const many = Array.from({ length: 400 }, (_, n) => hits[n % 3]!);
    let outsized = 0;
    for (const maskText of ['', ...MASKS]) {
      const mask = parseMask(maskText);
      for (const fields of [[], ['title']]) {
        for (const list of [hits, [], many]) {
          for (const from of [pool, undefined]) {
            const { body, length, pooled } = answerBody(out, from, { items: list, fields, terms, mask, maskText, memo }, metadata, facets);
            const text = answerParts(itemsJson(list, fields, terms, mask, maskText, memo), metadata, facetsJson(facets)).join('');
            assert.equal(new TextDecoder().decode(new Uint8Array(body, 0, length)), text, `${maskText} ${fields.join()} ${list.length}`);
            // Pooled exactly when it fits a pooled buffer; otherwise a buffer of the answer's own size.
            assert.equal(pooled, from !== undefined && length <= POOLED_BYTES);
            assert.equal(body.byteLength, pooled ? POOLED_BYTES : length);
            if (length > POOLED_BYTES) outsized++;
          }
        }
      }
    }
    assert.ok(outsized > 0, 'some answers were larger than a pooled buffer');
  });

  it('write facets exactly as JSON.stringify: escapes, non-Latin text, counts of every size, selections, lists of none', async () => {
    const { JsonBytes } = await import('../src/domains/search/response/json-bytes.js');
    // A small start forces the buffer to grow mid-list.
    const out = new JsonBytes(16);
    const labels = ['red', 'Ölfarbe', 'say "hi"', 'back\\slash', 'tab\there', 'line\nbreak', '日本', '🙂 smile', '', '\u2028', 'x'.repeat(300)];
    const counts = [0, 1, 9, 10, 99, 100, 999, 1000, 99_999, 100_000, 2_147_483_647, 2_147_483_648, 1.5];
    const lists: SearchFacet[][] = [[], [{ id: 'empty', title: 'Nothing', attribute: 'none', count: 0, values: [] }]];
    for (let n = 0; n < 40; n++) {
      lists.push(
        Array.from({ length: 1 + (n % 4) }, (_, f) => ({
          id: labels[(n + f) % labels.length]!,
          title: labels[(n + 2 * f + 1) % labels.length]!,
          attribute: `attr_${f}`,
          count: counts[(n + f) % counts.length]!,
          values: Array.from({ length: (n * 7 + f) % 12 }, (_, v) => ({ value: labels[(n + v) % labels.length]!, count: counts[(n * 3 + v) % counts.length]!, selected: (n + v) % 3 === 0 })),
        })),
      );
    }
    for (const list of lists) {
      out.facets(list);
      const { body, length } = out.take();
      assert.equal(new TextDecoder().decode(new Uint8Array(body, 0, length)), JSON.stringify(list));
    }
  });

  it('keep no long string a request sent (a selected value is listed back), and still write it right', async () => {
    const { JsonBytes, ENCODED_LONGEST, encodedStrings } = await import('../src/domains/search/response/json-bytes.js');
    const out = new JsonBytes();
    const kept = encodedStrings();
    for (let n = 0; n < 50; n++) {
      const value = `${n} ${'é"'.repeat(ENCODED_LONGEST)}`;
      const list: SearchFacet[] = [{ id: 'brand', title: 'Brand', attribute: 'brand', count: 0, values: [{ value, count: 0, selected: true }] }];
      out.facets(list);
      const { body, length } = out.take();
      assert.equal(new TextDecoder().decode(new Uint8Array(body, 0, length)), JSON.stringify(list));
    }
    // The short strings ('brand', 'Brand') may join the kept ones; none of the fifty long values did.
    assert.ok(encodedStrings() <= kept + 2, `${encodedStrings() - kept} strings kept`);
  });

  it('reuse the buffers handed back, and keep no buffer of another size', async () => {
    const { AnswerBuffers, JsonBytes, answerBody } = await import('../src/domains/search/response/json-bytes.js');
    const pool = new AnswerBuffers();
    const out = new JsonBytes();
    const page = { items: hits, fields: [], terms: { terms: [], typing: undefined }, mask: undefined, maskText: '', memo: new MaskedTexts() };
    const first = answerBody(out, pool, page, metadata, []);
    pool.give([first.body, new ArrayBuffer(100)]);
    assert.equal(pool.size, 1);
    const second = answerBody(out, pool, page, metadata, []);
    assert.equal(second.body, first.body, 'the buffer handed back answers again');
    assert.equal(pool.size, 0);
    assert.notEqual(answerBody(out, pool, page, metadata, []).body, first.body, 'an empty pool makes a new buffer');
  });
});
