/** <discovery-recommendations> against the demo widgets of a real companion server. */
import { expect } from '@esm-bundle/chai';
import { html, render } from 'lit';
import { clearProfileCookie, writeProfileCookie } from '@discovery-kit/tracker';
import { configureToolkit, defineElements } from '../src/index.js';
import type { DiscoveryRecommendations } from '../src/index.js';
import { fillCardTemplate, renderDefaultCard, toProductCard } from '../src/product-card.js';
import { recommendationsUrl } from '../src/recommendations/recommendations-request.js';
import { UNREACHABLE, mount, recordActivities, recordUnhandledRejections, server, stayOnPage, until } from './helpers.js';

const settled = (element: DiscoveryRecommendations) => until(() => element.state !== 'loading' && element, `${element.widgetId} to settle`);

describe('<discovery-recommendations>', () => {
  before(() => {
    configureToolkit({ apiBase: server(), locale: 'en-GB' });
    defineElements();
    defineElements();
  });
  afterEach(() => {
    document.querySelectorAll('discovery-recommendations').forEach((element) => element.remove());
    clearProfileCookie();
  });

  it('renders the demo widget as product cards with heading, photo, title and price', async () => {
    const element = mount<DiscoveryRecommendations>('<discovery-recommendations widget-id="demo-similar" product-id="84029"></discovery-recommendations>');
    await element.updateComplete; // rendered (styles adopted), the request still on the network
    expect(element.state).to.equal('loading');
    // Loading, it holds the row's height so the page below does not move when the cards arrive.
    const reserved = element.getBoundingClientRect().height;
    expect(reserved).to.be.greaterThan(200);
    await settled(element);
    expect(element.state).to.equal('ready');
    expect(getComputedStyle(element).display).to.equal('block');
    expect(element.getBoundingClientRect().height).to.equal(reserved);
    const root = element.shadowRoot!;
    expect(root.querySelector('[part=heading]')?.textContent).to.equal('Similar items');
    const cards = root.querySelectorAll('a[part=card]');
    expect(cards.length).to.be.within(4, 8);
    const first = cards[0]!;
    expect(first.getAttribute('href')).to.match(/^\/shop\/product\.html\?id=/);
    expect(first.querySelector('[part=title]')?.textContent).to.equal(element.answer!.cards[0]!.title);
    expect(first.querySelector('[part=price]')?.textContent).to.match(/^£\d+\.\d\d$/);
    expect(first.querySelector('img[part=photo]')?.getAttribute('src')).to.match(/^data:image\/svg\+xml/);
  });

  it('renders nothing when fewer than the widget minResults come back', async () => {
    const activities = recordActivities();
    const element = mount<DiscoveryRecommendations>('<discovery-recommendations widget-id="demo-similar" product-id="84029" limit="2"></discovery-recommendations>');
    await settled(element);
    activities.stop();
    expect(element.state).to.equal('empty');
    expect(element.shadowRoot!.querySelector('li')).to.equal(null);
    expect(getComputedStyle(element).display).to.equal('none');
    expect(activities.intents).to.deep.equal([]);
  });

  it('announces one view of the widget and a click with the product and recommendation ids', async () => {
    const activities = recordActivities();
    const allowNavigation = stayOnPage();
    try {
      const element = mount<DiscoveryRecommendations>('<discovery-recommendations widget-id="demo-similar" product-id="84029"></discovery-recommendations>');
      await settled(element);
      const answer = element.answer!;
      await until(() => activities.intents.length === 1, 'the view intent');
      expect(activities.intents[0]).to.deep.equal({ action: 'view', sourceId: answer.id, metadata: { widgetId: 'demo-similar', impression: true } });
      expect(answer.id).to.match(/^r_/);

      element.shadowRoot!.querySelectorAll<HTMLElement>('a[part=card]')[1]!.click();
      expect(activities.intents.length).to.equal(2);
      expect(activities.intents[1]).to.deep.equal({
        action: 'click',
        productId: answer.cards[1]!.productId,
        sourceId: answer.id,
        metadata: { widgetId: 'demo-similar', recommendationId: `${answer.id}-2`, position: 2 },
      });
      element.requestUpdate();
      await element.updateComplete;
      expect(activities.intents.filter((intent) => intent.action === 'view').length).to.equal(1);
    } finally {
      activities.stop();
      allowNavigation();
    }
  });

  it('announces the view only once the widget scrolls into sight', async () => {
    const activities = recordActivities();
    const spacer = document.createElement('div');
    spacer.style.height = '300vh';
    document.body.append(spacer);
    try {
      const element = mount<DiscoveryRecommendations>('<discovery-recommendations widget-id="demo-similar" product-id="84029"></discovery-recommendations>');
      await settled(element);
      await element.updateComplete;
      // Intersection observers report during rendering; two frames later the first report is in.
      for (let frame = 0; frame < 2; frame++) await new Promise((resolve) => requestAnimationFrame(resolve));
      expect(activities.intents).to.deep.equal([]);
      element.scrollIntoView();
      await until(() => activities.intents.length === 1, 'the view intent after scrolling');
      expect(activities.intents[0]!.sourceId).to.equal(element.answer!.id);
    } finally {
      spacer.remove();
      window.scrollTo(0, 0);
      activities.stop();
    }
  });

  it('fetches again when its attributes change', async () => {
    const element = mount<DiscoveryRecommendations>('<discovery-recommendations widget-id="demo-similar" product-id="84029"></discovery-recommendations>');
    await settled(element);
    const first = element.answer!;
    element.setAttribute('product-id', '85123A');
    await until(() => element.answer && element.answer !== first && element.state === 'ready', 'the second answer');
    expect(element.answer!.id).not.to.equal(first.id);
    expect(element.answer!.cards.map((card) => card.productId)).not.to.include('85123A');
  });

  it('asks for the profile in the tracker cookie, and sends product ids and category as variables', async () => {
    writeProfileCookie('p_elements-test');
    const element = mount<DiscoveryRecommendations>('<discovery-recommendations widget-id="demo-same-category" product-id="84029, 85123A" category="Bath &amp; Body"></discovery-recommendations>');
    await settled(element);
    const requested = performance.getEntriesByType('resource').map((entry) => entry.name).find((name) => name.includes('/widget/demo-same-category/'));
    const url = new URL(requested!);
    expect(url.pathname).to.equal('/widget/demo-same-category/recommendations/p_elements-test');
    expect(JSON.parse(url.searchParams.get('variables')!)).to.deep.equal({ $productId: ['84029', '85123A'], $category: 'Bath & Body' });
    expect(element.state).to.equal('ready');
  });

  it('fills a shop template through data-field attributes', async () => {
    const element = mount<DiscoveryRecommendations>(`<discovery-recommendations widget-id="demo-similar" product-id="84029">
      <template><a class="mine" data-field="url"><b data-field="title"></b> by <i data-field="brand"></i> <span data-field="price"></span></a></template>
    </discovery-recommendations>`);
    await settled(element);
    const link = element.shadowRoot!.querySelector('a.mine')!;
    const card = element.answer!.cards[0]!;
    expect(link.getAttribute('href')).to.equal(card.url);
    expect(link.querySelector('b')!.textContent).to.equal(card.title);
    expect(link.querySelector('i')!.textContent).to.equal(card.attributes.brand);
    expect(link.querySelector('span')!.textContent).to.equal(card.price);
    expect(element.shadowRoot!.querySelector('[part=card]')).to.equal(null);
  });

  it('stays hidden, without unhandled rejections, when the server is down or the widget unknown', async () => {
    const rejections = recordUnhandledRejections();
    const down = mount<DiscoveryRecommendations>(`<discovery-recommendations widget-id="demo-similar" api-base="${UNREACHABLE}"></discovery-recommendations>`);
    const unknown = mount<DiscoveryRecommendations>('<discovery-recommendations widget-id="no-such-widget"></discovery-recommendations>');
    await settled(down);
    await settled(unknown);
    rejections.stop();
    for (const element of [down, unknown]) {
      expect(element.state).to.equal('error');
      expect(element.shadowRoot!.childElementCount).to.equal(0);
      expect(getComputedStyle(element).display).to.equal('none');
    }
    expect(rejections.reasons).to.deep.equal([]);
  });
});

describe('product cards from untrusted catalog data', () => {
  const hostile = toProductCard({ _id: { original_id: 'x1' }, title: '<img src=x onerror=alert(1)>', url: 'javascript:alert(1)', photo: 'javascript:alert(2)', price: 100 })!;

  it('never link or show a javascript: URL, and keep markup in titles as text', () => {
    const holder = document.createElement('div');
    render(html`${renderDefaultCard(hostile)}`, holder);
    expect(holder.querySelector('a')).to.equal(null);
    expect(holder.querySelector('img')).to.equal(null);
    expect(holder.querySelector('[part=title]')!.textContent).to.equal('<img src=x onerror=alert(1)>');
    expect(holder.innerHTML).not.to.contain('javascript:');
  });

  it('leave a shop template link without href and drop its photo', () => {
    const template = document.createElement('template');
    template.innerHTML = '<a data-field="url" href="#placeholder"><img data-field="photo"><span data-field="title"></span></a>';
    const fragment = fillCardTemplate(template, hostile);
    expect(fragment.querySelector('a')!.hasAttribute('href')).to.equal(false);
    expect(fragment.querySelector('img')).to.equal(null);
    expect(fragment.querySelector('span')!.textContent).to.equal(hostile.title);
  });

  it('build widget URLs with encoded path segments', () => {
    const url = recommendationsUrl({ apiBase: 'https://api.example/base/', widgetId: 'a/b', profileId: 'p 1', limit: 3 });
    expect(url).to.equal('https://api.example/base/widget/a%2Fb/recommendations/p%201?limit=3');
    expect(recommendationsUrl({ widgetId: 'w', lang: 'fr-FR', apiBase: 'https://api.example/' })).to.equal('https://api.example/widget/w/recommendations?lang=fr-FR');
  });
});
