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

  it('let a widget of higher priority pick first, wherever it is on the page', async () => {
    const later = mount<DiscoveryRecommendations>('<discovery-recommendations widget-id="demo-popular"></discovery-recommendations>');
    const first = mount<DiscoveryRecommendations>('<discovery-recommendations widget-id="demo-trending" priority="1"></discovery-recommendations>');
    await until(() => later.state !== 'loading' && first.state !== 'loading', 'both widgets');
    const firstIds = first.answer!.cards.map((card) => card.productId);
    const laterIds = later.answer!.cards.map((card) => card.productId);
    expect(firstIds.length).to.be.at.least(4);
    expect(laterIds.length).to.be.at.least(4);
    expect(laterIds.filter((id) => firstIds.includes(id))).to.deep.equal([]);
    // It picked first: it shows what it shows alone, and the other one gave way.
    const alone = (await (await fetch(`${server()}/widget/demo-trending/recommendations`)).json()) as { recommendations: Array<{ product: { _id: { original_id: string } } }> };
    expect(firstIds).to.deep.equal(alone.recommendations.map((entry) => entry.product._id.original_id));
  });
});
