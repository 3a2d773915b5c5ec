/** What elements put in the page from catalog data: only safe URLs, prices in the shopper's format. */
import { expect } from '@esm-bundle/chai';
import { formatPrice, safeImageUrl, safeLinkUrl } from '../src/index.js';

describe('safe URLs', () => {
  it('keeps http(s) and relative links', () => {
    expect(safeLinkUrl('https://shop.example/p/1')).to.equal('https://shop.example/p/1');
    expect(safeLinkUrl('/shop/product.html?id=1')).to.equal('/shop/product.html?id=1');
  });

  it('drops script and other schemes, however they are disguised', () => {
    for (const url of ['javascript:alert(1)', ' JavaScript:alert(1)', 'java\tscript:alert(1)', 'vbscript:x', 'data:text/html,<script>1</script>', '', 42, null]) {
      expect(safeLinkUrl(url), String(url)).to.equal(undefined);
    }
  });

  it('accepts inline images only as images', () => {
    expect(safeImageUrl('data:image/svg+xml,%3Csvg%3E')).to.equal('data:image/svg+xml,%3Csvg%3E');
    expect(safeLinkUrl('data:image/svg+xml,%3Csvg%3E')).to.equal(undefined);
    expect(safeImageUrl('javascript:alert(1)')).to.equal(undefined);
  });

  it('really keeps a dropped URL out of the page', () => {
    const anchor = document.createElement('a');
    const href = safeLinkUrl('javascript:document.title="pwned"');
    if (href !== undefined) anchor.href = href;
    document.body.append(anchor);
    anchor.click();
    expect(document.title).not.to.equal('pwned');
    anchor.remove();
  });
});

describe('formatPrice', () => {
  it('formats integer cents in the locale and currency', () => {
    expect(formatPrice(1999, 'GBP', 'en-GB')).to.equal('£19.99');
    expect(formatPrice(1999, 'EUR', 'fr-FR').replace(/\s/g, ' ')).to.equal('19,99 €');
  });

  it('renders nothing for a missing price and survives a bad currency code', () => {
    expect(formatPrice(undefined)).to.equal('');
    expect(formatPrice(250, 'NOT-A-CODE', 'en-GB')).to.equal('2.50');
  });
});
