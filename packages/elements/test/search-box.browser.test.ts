/** <discovery-search-box> typed into with real key presses, against the demo search of a real companion server. */
import { expect } from '@esm-bundle/chai';
import { sendKeys } from '@web/test-runner-commands';
import { NAVIGATE_EVENT, configureToolkit, defineElements } from '../src/index.js';
import type { DiscoverySearchBox, NavigateDetail } from '../src/index.js';
import { UNREACHABLE, mount, recordActivities, recordUnhandledRejections, seedSearches, server, until, watchSearchRequests } from './helpers.js';

const parts = (box: DiscoverySearchBox) => {
  const root = box.shadowRoot!;
  return {
    input: root.querySelector<HTMLInputElement>('input')!,
    listbox: root.querySelector<HTMLElement>('[role=listbox]')!,
    options: () => [...root.querySelectorAll<HTMLElement>('[role=option]')],
  };
};

/** Records navigation requests and keeps the page where it is. */
function interceptNavigation(): { targets: NavigateDetail[]; stop: () => void } {
  const targets: NavigateDetail[] = [];
  const listener = (event: CustomEvent<NavigateDetail>) => {
    event.preventDefault();
    targets.push(event.detail);
  };
  document.addEventListener(NAVIGATE_EVENT, listener);
  return { targets, stop: () => document.removeEventListener(NAVIGATE_EVENT, listener) };
}

async function typeInto(box: DiscoverySearchBox, text: string): Promise<void> {
  await box.updateComplete;
  parts(box).input.focus();
  await sendKeys({ type: text });
}

const openWith = (box: DiscoverySearchBox, what: string) => until(() => box.open && parts(box).options().length > 0 && box, what);

describe('<discovery-search-box>', () => {
  let navigation: ReturnType<typeof interceptNavigation>;
  before(async () => {
    configureToolkit({ apiBase: server(), searchToken: 'demo-search-token', locale: 'en-GB' });
    defineElements();
    await seedSearches(['heart garland', 'heart wreath']);
  });
  beforeEach(() => {
    // Searches submitted by earlier tests would be offered as recent searches on focus.
    localStorage.removeItem('discovery-recent-searches');
    navigation = interceptNavigation();
  });
  afterEach(() => {
    navigation.stop();
    document.querySelectorAll('discovery-search-box').forEach((element) => element.remove());
  });

  it('is an ARIA 1.2 combobox: named input controlling a hidden listbox', async () => {
    const box = mount<DiscoverySearchBox>('<discovery-search-box label="Search the shop" placeholder="Mugs, lights…"></discovery-search-box>');
    await box.updateComplete;
    const { input, listbox } = parts(box);
    expect(input.getAttribute('role')).to.equal('combobox');
    expect(input.getAttribute('aria-label')).to.equal('Search the shop');
    expect(input.getAttribute('aria-autocomplete')).to.equal('list');
    expect(input.getAttribute('aria-expanded')).to.equal('false');
    expect(input.hasAttribute('aria-activedescendant')).to.equal(false);
    expect(input.getAttribute('placeholder')).to.equal('Mugs, lights…');
    expect(box.shadowRoot!.getElementById(input.getAttribute('aria-controls')!)).to.equal(listbox);
    expect(listbox.getAttribute('role')).to.equal('listbox');
    expect(listbox.hidden).to.equal(true);
    expect(box.shadowRoot!.querySelector('form')!.getAttribute('role')).to.equal('search');
  });

  it('suggests earlier queries and shows products, with one debounced request per pause', async () => {
    const requests = watchSearchRequests();
    try {
      const box = mount<DiscoverySearchBox>('<discovery-search-box></discovery-search-box>');
      await typeInto(box, 'heart');
      await openWith(box, 'the listbox to open');
      const { input, options } = parts(box);
      expect(input.getAttribute('aria-expanded')).to.equal('true');
      const suggestions = options().filter((option) => option.part.contains('suggestion')).map((option) => option.textContent!.trim());
      expect(suggestions).to.include.members(['heart garland', 'heart wreath']);
      // The typed part and the rest of the word read as one word: no gap after the highlight.
      const mark = options().find((option) => option.part.contains('suggestion'))!.querySelector('[part~=mark]')!;
      const after = [...mark.parentNode!.childNodes].slice([...mark.parentNode!.childNodes].indexOf(mark) + 1).find((node) => node.nodeType === Node.TEXT_NODE && node.textContent !== '')!;
      const rest = document.createRange();
      rest.selectNodeContents(after);
      expect(rest.getBoundingClientRect().left - mark.getBoundingClientRect().right).to.be.below(1);
      const products = options().filter((option) => option.part.contains('product'));
      expect(products.length).to.be.within(1, 4);
      expect(products[0]!.querySelector('[part=title]')!.textContent).to.match(/heart/i);
      expect(products[0]!.querySelector('[part=price]')!.textContent).to.match(/^£/);
      const group = box.shadowRoot!.querySelector('[role=group]')!;
      expect(group.contains(products[0]!)).to.equal(true);
      expect(box.shadowRoot!.getElementById(group.getAttribute('aria-labelledby')!)!.textContent).to.equal('Products');
      expect(requests.sent).to.deep.equal([
        { path: '/search/autocomplete', query: 'heart' },
        { path: '/search', query: 'heart' },
      ]);
    } finally {
      requests.restore();
    }
  });

  it('moves the highlight with the arrow keys, keeping focus in the input, and closes on Escape', async () => {
    const box = mount<DiscoverySearchBox>('<discovery-search-box></discovery-search-box>');
    await typeInto(box, 'heart');
    await openWith(box, 'the listbox to open');
    const { input, options } = parts(box);
    const count = options().length;
    const highlighted = () => {
      const id = input.getAttribute('aria-activedescendant');
      const selected = options().filter((option) => option.getAttribute('aria-selected') === 'true');
      expect(selected.map((option) => option.id)).to.deep.equal(id ? [id] : []);
      return id;
    };
    expect(highlighted()).to.equal(null);
    await sendKeys({ press: 'ArrowDown' });
    await box.updateComplete;
    expect(highlighted()).to.equal('option-0');
    await sendKeys({ press: 'ArrowDown' });
    await box.updateComplete;
    expect(highlighted()).to.equal('option-1');
    await sendKeys({ press: 'ArrowUp' });
    await sendKeys({ press: 'ArrowUp' });
    await box.updateComplete;
    expect(highlighted()).to.equal(`option-${count - 1}`);
    expect(box.shadowRoot!.activeElement).to.equal(input);
    await sendKeys({ press: 'Escape' });
    await box.updateComplete;
    expect(input.getAttribute('aria-expanded')).to.equal('false');
    expect(highlighted()).to.equal(null);
    expect(input.value).to.equal('heart');
    await sendKeys({ press: 'Escape' });
    await box.updateComplete;
    expect(input.value).to.equal('');
  });

  it('goes to the shop results page on Enter, and to a chosen suggestion', async () => {
    const box = mount<DiscoverySearchBox>('<discovery-search-box action="/shop/search.html" param="query"></discovery-search-box>');
    await typeInto(box, 'heart & co');
    await sendKeys({ press: 'Enter' });
    expect(navigation.targets).to.deep.equal([{ url: `${location.origin}/shop/search.html?query=heart+%26+co`, reason: 'search' }]);

    parts(box).input.select();
    await typeInto(box, 'heart');
    await openWith(box, 'the suggestions');
    const index = parts(box).options().findIndex((option) => option.textContent!.trim() === 'heart wreath');
    for (let step = 0; step <= index; step++) await sendKeys({ press: 'ArrowDown' });
    await sendKeys({ press: 'Enter' });
    expect(navigation.targets[1]).to.deep.equal({ url: `${location.origin}/shop/search.html?query=heart+wreath`, reason: 'suggestion' });
    expect(parts(box).input.value).to.equal('heart wreath');
  });

  it('announces a click with the search id and opens a chosen product', async () => {
    const activities = recordActivities();
    try {
      const box = mount<DiscoverySearchBox>('<discovery-search-box suggestions="0"></discovery-search-box>');
      await typeInto(box, 'mug');
      await openWith(box, 'the products');
      const second = parts(box).options()[1]!;
      const title = second.querySelector('[part=title]')!.textContent;
      second.click();
      expect(activities.intents).to.have.length(1);
      const intent = activities.intents[0]!;
      expect(intent).to.deep.include({ action: 'click', sourceId: box.searchId });
      expect(intent.metadata).to.deep.equal({ query: 'mug', position: 2 });
      // The server's signed search id (docs/tracking.md): a click carrying it counts as verified attribution.
      expect(box.searchId).to.match(/^s_[A-Za-z0-9_-]{24}$/);
      expect(navigation.targets).to.deep.equal([{ url: `/shop/product.html?id=${intent.productId}`, reason: 'product' }]);
      expect(title).to.match(/mug|cup/i);
      expect(box.open).to.equal(false);
    } finally {
      activities.stop();
    }
  });

  it('cancels a stale request: the last typed query wins even when an earlier answer comes later', async () => {
    const requests = watchSearchRequests(['heart']);
    try {
      const box = mount<DiscoverySearchBox>('<discovery-search-box></discovery-search-box>');
      await typeInto(box, 'heart');
      await until(() => requests.sent.some((request) => request.query === 'heart'), 'the held request for heart');
      parts(box).input.select();
      await sendKeys({ type: 'mug' });
      await openWith(box, 'the answer for mug');
      const shown = box.options;
      const searchId = box.searchId;
      requests.release();
      await Promise.all(requests.settled);
      await box.updateComplete;
      expect(box.options).to.equal(shown);
      expect(box.searchId).to.equal(searchId);
      expect(parts(box).options().some((option) => /heart/i.test(option.textContent!))).to.equal(false);
    } finally {
      requests.restore();
    }
  });

  it('stays usable while the server is slow', async () => {
    const requests = watchSearchRequests(['mug']);
    try {
      const box = mount<DiscoverySearchBox>('<discovery-search-box></discovery-search-box>');
      await typeInto(box, 'mug');
      await until(() => requests.sent.length === 2, 'the held requests');
      expect(box.open).to.equal(false);
      expect(parts(box).input.getAttribute('aria-expanded')).to.equal('false');
      await sendKeys({ press: 'Enter' });
      expect(navigation.targets).to.deep.equal([{ url: `${location.origin}/search?q=mug`, reason: 'search' }]);
      requests.release();
      await Promise.all(requests.settled);
    } finally {
      requests.restore();
    }
  });

  it('does not reopen for an answer that arrives after Escape', async () => {
    const requests = watchSearchRequests(['heart']);
    try {
      const box = mount<DiscoverySearchBox>('<discovery-search-box></discovery-search-box>');
      await typeInto(box, 'heart');
      await until(() => requests.sent.length === 2, 'the held requests');
      await sendKeys({ press: 'Escape' });
      requests.release();
      await Promise.all(requests.settled);
      await box.updateComplete;
      expect(box.open).to.equal(false);
      expect(box.options).to.deep.equal([]);
      expect(parts(box).input.value).to.equal('');
    } finally {
      requests.restore();
    }
  });

  it('stays a plain search field when the server is down', async () => {
    const rejections = recordUnhandledRejections();
    const requests = watchSearchRequests();
    try {
      const box = mount<DiscoverySearchBox>(`<discovery-search-box api-base="${UNREACHABLE}"></discovery-search-box>`);
      await typeInto(box, 'heart');
      await until(() => requests.sent.length === 2, 'both requests');
      await Promise.all(requests.settled);
      await box.updateComplete;
      expect(box.open).to.equal(false);
      expect(parts(box).options()).to.have.length(0);
      await sendKeys({ press: 'Enter' });
      expect(navigation.targets).to.deep.equal([{ url: `${location.origin}/search?q=heart`, reason: 'search' }]);
      expect(rejections.reasons).to.deep.equal([]);
    } finally {
      requests.restore();
      rejections.stop();
    }
  });
});
