/**
 * Automatic tags in a real page: product and search-page views, clicks in (shadow DOM) widgets,
 * cart buttons and the data layer's purchase, each checked as queued and as the server stored it.
 */
import { expect } from '@esm-bundle/chai';
import { ACTIVITY_EVENT, type ActivityIntent } from '@discovery-kit/protocol';
import type { TrackedActivity } from '../src/activity.js';
import type { Tracker } from '../src/tracker.js';
import { eventually, fixture, historyOf, queued, resetTracking, startTestTracker, UNREACHABLE, TEST_TIMEOUT_MS } from './tracker-helpers.js';

/** Starts an offline tracker with tags on, so the test can read what was queued before a second tracker delivers it. */
async function offlineTagger(): Promise<{ profileId: string; tracker: Tracker; stop: () => void }> {
  const tracker = startTestTracker({ collectUrl: UNREACHABLE, autoTags: true, batchDelay: 60_000 });
  return { profileId: (await tracker.ready())!, tracker, stop: () => tracker.stop() };
}

/** What the queue holds, without the parts that change every run. */
const queuedShapes = async () =>
  (await queued()).map(({ action, target, sourceId, metadata }: TrackedActivity) => ({ action, target, sourceId, metadata }));

/** A stand-in for a widget element: product cards inside a shadow root. */
function shadowWidget(html: string): ShadowRoot {
  const host = fixture('<section class="widget-host"></section>').querySelector('section')!;
  const root = host.attachShadow({ mode: 'open' });
  root.innerHTML = html;
  return root;
}

describe('tracker automatic tags', function () {
  this.timeout(TEST_TIMEOUT_MS);
  beforeEach(resetTracking);
  afterEach(resetTracking);

  it('views a product page marked with data attributes, and does not count clicks inside it as product clicks', async () => {
    fixture('<main data-discovery-page="product" data-discovery-product-id="84029"><button id="zoom">Zoom</button></main>');
    const tracker = startTestTracker({ autoTags: true });
    const profileId = (await tracker.ready())!;
    document.getElementById('zoom')!.click();
    await tracker.flush();
    const history = await eventually(() => historyOf(profileId), (h) => h.length > 0);
    expect(history.map((a) => [a.verb, a.type, a.originalId])).to.deep.equal([['view', 'product', '84029']]);
  });

  it("views the product named by the page's schema.org JSON-LD", async () => {
    fixture(`<script type="application/ld+json">${JSON.stringify({
      '@context': 'https://schema.org',
      '@graph': [{ '@type': 'BreadcrumbList' }, { '@type': 'Product', name: 'White hanging heart', sku: '85123A' }],
    })}</script>`);
    const tracker = startTestTracker({ autoTags: true });
    const profileId = (await tracker.ready())!;
    const history = await eventually(() => historyOf(profileId), (h) => h.length > 0);
    expect(history.map((a) => [a.verb, a.originalId])).to.deep.equal([['view', '85123A']]);
  });

  it('views a search-results page with its query and search id', async () => {
    fixture('<section data-discovery-search-query="heart" data-discovery-source-id="search-7"></section>');
    const { profileId, stop } = await offlineTagger();
    const page = location.pathname + location.search;
    expect(await queuedShapes()).to.deep.equal([{ action: 'view', target: { page }, sourceId: 'search-7', metadata: { query: 'heart' } }]);
    stop();
    startTestTracker();
    const history = await eventually(() => historyOf(profileId), (h) => h.length > 0);
    expect(history.map((a) => [a.verb, a.type, a.originalId])).to.deep.equal([['view', 'page', page]]);
  });

  it('counts a click on a product card inside a widget shadow root, with the widget id and recommendation id', async () => {
    const root = shadowWidget(`
      <div data-discovery-widget-id="home-picks" data-discovery-source-id="reco-42">
        <div class="card" data-discovery-product-id="84029"><img alt=""><span class="title">Heart</span></div>
      </div>`);
    const { profileId, tracker, stop } = await offlineTagger();
    (root.querySelector('.title') as HTMLElement).click();
    await tracker.flush();
    expect(await queuedShapes()).to.deep.equal([
      { action: 'click', target: { product: '84029' }, sourceId: 'reco-42', metadata: { widgetId: 'home-picks' } },
    ]);
    stop();
    startTestTracker();
    const history = await eventually(() => historyOf(profileId), (h) => h.length > 0);
    expect(history.map((a) => [a.verb, a.originalId])).to.deep.equal([['click', '84029']]);
  });

  it("takes an element's discovery-activity event as it is, and does not count the same click twice from the card's attributes", async () => {
    const root = shadowWidget('<a class="card" data-discovery-product-id="85123A" data-discovery-widget-id="w">Heart</a>');
    const card = root.querySelector('.card') as HTMLElement;
    card.addEventListener('click', (event) => {
      event.preventDefault();
      const detail: ActivityIntent = { action: 'click', productId: '85123A', sourceId: 'reco-9', metadata: { widgetId: 'w', position: 3 } };
      card.dispatchEvent(new CustomEvent(ACTIVITY_EVENT, { detail, bubbles: true, composed: true }));
    });
    const { tracker } = await offlineTagger();
    card.click();
    await tracker.flush();
    expect(await queuedShapes()).to.deep.equal([
      { action: 'click', target: { product: '85123A' }, sourceId: 'reco-9', metadata: { widgetId: 'w', position: 3 } },
    ]);
  });

  it('records add-to-cart and remove-from-cart buttons with quantity, price in cents and currency', async () => {
    fixture(`
      <div data-discovery-product-id="84029">
        <button id="add" data-discovery-add-to-cart data-discovery-quantity="2" data-discovery-price="2.55" data-discovery-currency="EUR">Add</button>
      </div>
      <button id="remove" data-discovery-remove-from-cart="85123A">Remove</button>`);
    const { profileId, tracker, stop } = await offlineTagger();
    document.getElementById('add')!.click();
    document.getElementById('remove')!.click();
    await tracker.flush();
    expect(await queuedShapes()).to.deep.equal([
      { action: 'add-to-cart', target: { product: '84029' }, sourceId: undefined, metadata: { quantity: 2, price: 255, currency: 'EUR' } },
      { action: 'remove-from-cart', target: { product: '85123A' }, sourceId: undefined, metadata: undefined },
    ]);
    stop();
    startTestTracker();
    const history = await eventually(() => historyOf(profileId), (h) => h.length >= 2);
    expect(history.map((a) => [a.verb, a.originalId, a.price, a.quantity]).sort()).to.deep.equal([
      ['add-to-cart', '84029', 255, 2],
      ['remove-from-cart', '85123A', null, null],
    ]);
  });

  it('turns a data-layer purchase, pushed before and after the script started, into one activity per product', async () => {
    window.discoveryLayer = [
      ['purchase', { orderId: 'o-1001', currency: 'EUR', items: [{ productId: '84029', price: 2.55, quantity: 2 }, { productId: '85123A', price: 2.95 }] }],
    ];
    const { profileId, tracker, stop } = await offlineTagger();
    expect(window.discoveryLayer).to.deep.equal([]);
    await tracker.flush();
    expect(await queuedShapes()).to.deep.equal([
      { action: 'purchase', target: { product: '84029' }, sourceId: undefined, metadata: { orderId: 'o-1001', price: 255, quantity: 2, currency: 'EUR' } },
      { action: 'purchase', target: { product: '85123A' }, sourceId: undefined, metadata: { orderId: 'o-1001', price: 295, currency: 'EUR' } },
    ]);
    stop();

    startTestTracker();
    window.discoveryLayer!.push(['purchase', { orderId: 'o-1002', items: [{ productId: '22423', price: 12.75, quantity: 1 }] }]);
    const history = await eventually(() => historyOf(profileId), (h) => h.length >= 3);
    expect(history.map((a) => [a.verb, a.originalId, a.price, a.quantity]).sort()).to.deep.equal([
      ['purchase', '22423', 1275, 1],
      ['purchase', '84029', 255, 2],
      ['purchase', '85123A', 295, null],
    ]);
  });
});
