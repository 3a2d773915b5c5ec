/**
 * The one script tag, as a shop pastes it: the built discovery.js, loaded from the companion server
 * (another origin than this page) as a classic async script, defines the elements, points them at
 * the server it came from and starts tracking.
 */
import { expect } from '@esm-bundle/chai';
import { readEmbedOptions } from '@discovery-kit/tracker';
import { server, until } from './helpers.js';

function addScript(attributes: Record<string, string>): HTMLScriptElement {
  const script = document.createElement('script');
  for (const [name, value] of Object.entries(attributes)) script.setAttribute(name, value);
  script.async = true;
  document.head.append(script);
  return script;
}

describe('the discovery.js script tag', () => {
  it('defines the elements, starts the tracker and renders a widget from the server it came from', async () => {
    const ready = new Promise<CustomEvent>((resolve) => document.addEventListener('discovery-ready', (e) => resolve(e as CustomEvent), { once: true }));
    addScript({ src: `${server()}/sdk/discovery.js`, 'data-tracker-key': 'demo-tracker-key', 'data-search-token': 'demo-search-token', 'data-currency': 'GBP' });
    const event = await ready;
    const kit = window.DiscoveryKit!;
    expect(event.detail).to.equal(kit);
    expect(kit.options.apiBase).to.equal(server());
    expect(kit.options.searchToken).to.equal('demo-search-token');
    expect(customElements.get('discovery-recommendations')).to.not.equal(undefined);
    expect(customElements.get('discovery-search-box')).to.not.equal(undefined);

    const profileId = await kit.tracker!.ready();
    expect(profileId).to.match(/^[A-Za-z0-9_-]+$/);
    expect(document.cookie).to.contain(`dk_pid=${profileId}`);

    const widget = document.createElement('discovery-recommendations');
    widget.setAttribute('widget-id', 'demo-popular');
    document.body.append(widget);
    const cards = await until(() => {
      const found = widget.shadowRoot?.querySelectorAll('[part~="card"]');
      return found !== undefined && found.length > 0 ? found : undefined;
    }, 'the widget to render cards');
    expect(cards.length).to.be.at.least(4);
    expect(widget.shadowRoot!.textContent).to.contain('£');
    widget.remove();
  });

  it('leaves the first tracker in charge when the tag is pasted twice', async () => {
    const first = window.DiscoveryKit!.tracker;
    const script = addScript({ src: `${server()}/sdk/discovery.js`, 'data-tracker-key': 'demo-tracker-key' });
    await new Promise((resolve) => script.addEventListener('load', resolve, { once: true }));
    expect(window.DiscoveryKit!.tracker).to.equal(first);
  });

  it('reads the tag: the server from src (mount prefix kept) unless data-api-base says otherwise, consent and cookie settings', () => {
    const tag = document.createElement('script');
    tag.src = 'https://discovery.shop.example/discovery/sdk/discovery.js';
    tag.dataset.trackerKey = 'key-1';
    tag.dataset.consent = 'required';
    tag.dataset.cookieDays = '30';
    tag.dataset.autoTags = 'off';
    const options = readEmbedOptions(tag);
    expect(options).to.include({ apiBase: 'https://discovery.shop.example/discovery', trackerKey: 'key-1', consent: 'required', cookieDays: 30, autoTags: false });
    expect(options.searchToken).to.equal(undefined);
    tag.dataset.apiBase = 'https://api.example/';
    tag.dataset.cookieDays = 'soon';
    expect(readEmbedOptions(tag)).to.include({ apiBase: 'https://api.example', cookieDays: undefined });
  });
});
