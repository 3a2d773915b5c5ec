/** Several <discovery-recommendations> on one page, against the real companion: no product twice, not the page's own product. */
import { expect } from '@esm-bundle/chai';
import { clearProfileCookie } from '@discovery-kit/tracker';
import { configureToolkit, defineElements } from '../src/index.js';
import type { DiscoveryRecommendations } from '../src/index.js';
import { mount, server, until } from './helpers.js';

describe('recommendation widgets on one page', () => {
  before(() => {
    configureToolkit({ apiBase: server(), locale: 'en-GB' });
    defineElements();
  });
  afterEach(() => {
    document.querySelectorAll('discovery-recommendations').forEach((element) => element.remove());
    clearProfileCookie();
  });

  it('leave out what the widgets before them show (idsToBan), and the product of the page', async () => {
    const urls: string[] = [];
    const realFetch = window.fetch;
    window.fetch = (input, init) => {
      urls.push(String(input));
      return realFetch.call(window, input, init);
    };
    try {
      // Three widgets that would all answer with the most popular products.
      const widgets = ['demo-popular', 'demo-trending', 'demo-personalized'].map((id) =>
        mount<DiscoveryRecommendations>(`<discovery-recommendations widget-id="${id}" product-id="85123A"></discovery-recommendations>`),
      );
      await until(() => widgets.every((widget) => widget.state !== 'loading'), 'the three widgets');
      const shown = widgets.map((widget) => widget.answer?.cards.map((card) => card.productId) ?? []);
      expect(shown.every((ids) => ids.length >= 4)).to.equal(true);
      const all = shown.flat();
      expect(new Set(all).size).to.equal(all.length);
      expect(all).not.to.include('85123A');
      // The server was asked to leave them out: the last widget's request names the first two widgets' products.
      const last = new URL(urls.find((url) => url.includes('/demo-personalized/'))!);
      const banned = JSON.parse(last.searchParams.get('idsToBan')!) as string[];
      expect(banned).to.include('85123A');
      for (const id of [...shown[0]!, ...shown[1]!]) expect(banned).to.include(id);
    } finally {
      window.fetch = realFetch;
    }
  });
});
