/** Refining in <discovery-search-results> against the real companion: show more, facet search, price range, chips, the phone drawer. */
import { expect } from '@esm-bundle/chai';
import { setViewport } from '@web/test-runner-commands';
import { configureToolkit, defineElements } from '../src/index.js';
import type { DiscoverySearchResults } from '../src/index.js';
import { mount, server, until } from './helpers.js';

const testPage = location.pathname + location.search;

async function ready(element: DiscoverySearchResults, what: string, condition: () => boolean = () => true): Promise<void> {
  await element.updateComplete;
  await until(() => element.state !== 'loading' && element.answer !== undefined && condition(), what);
  await element.updateComplete;
}

const facet = (element: DiscoverySearchResults, title: string) =>
  [...element.shadowRoot!.querySelectorAll('fieldset')].find((fieldset) => fieldset.querySelector('legend')!.textContent === title)!;
const labels = (fieldset: HTMLFieldSetElement) => [...fieldset.querySelectorAll('[part~="facet-label"]')].map((label) => label.textContent);

describe('<discovery-search-results> refinement', () => {
  before(() => {
    configureToolkit({ apiBase: server(), searchToken: 'demo-search-token', locale: 'en-GB', currency: 'GBP' });
    defineElements();
  });
  afterEach(async () => {
    document.querySelectorAll('discovery-search-results').forEach((element) => element.remove());
    history.replaceState(null, '', testPage);
    await setViewport({ width: 800, height: 600 });
  });

  it('shows five values of a long facet, the rest on "show more", and a search within it', async () => {
    history.replaceState(null, '', `${location.pathname}?q=`);
    const element = mount<DiscoverySearchResults>('<discovery-search-results page-size="4"></discovery-search-results>');
    await ready(element, 'every product');
    const category = facet(element, 'Category');
    const all = element.answer!.facets.find((entry) => entry.id === 'category')!.values.map((value) => value.value);
    expect(all.length).to.be.greaterThan(10);
    expect(labels(category)).to.deep.equal(all.slice(0, 5));
    const more = category.querySelector<HTMLButtonElement>('[part~="show-more"]')!;
    expect(more.textContent).to.equal(`Show ${all.length - 5} more`);
    more.click();
    await element.updateComplete;
    expect(labels(facet(element, 'Category'))).to.deep.equal(all);

    const search = facet(element, 'Category').querySelector<HTMLInputElement>('[part~="facet-search"]')!;
    expect(search.getAttribute('aria-label')).to.equal('Search category');
    search.value = 'cand';
    search.dispatchEvent(new InputEvent('input'));
    await element.updateComplete;
    expect(labels(facet(element, 'Category'))).to.deep.equal(['Candles & Lights']);
  });

  it('filters by a typed price range, shows it as a chip, and clears every filter at once', async () => {
    history.replaceState(null, '', `${location.pathname}?q=heart&f.color=Red`);
    const element = mount<DiscoverySearchResults>('<discovery-search-results page-size="50"></discovery-search-results>');
    await ready(element, 'red hearts');
    const before = element.answer!.count;
    const form = element.shadowRoot!.querySelector<HTMLFormElement>('[part~="range-form"]')!;
    (form.elements.namedItem('min') as HTMLInputElement).value = '1';
    (form.elements.namedItem('max') as HTMLInputElement).value = '3';
    form.querySelector<HTMLButtonElement>('[part~="range-apply"]')!.click();
    expect(new URLSearchParams(location.search).get('min')).to.equal('1');
    expect(new URLSearchParams(location.search).get('max')).to.equal('3');
    await ready(element, 'red hearts from £1 to £3', () => element.current.max === 3);
    const prices = element.answer!.cards.map((card) => card.attributes.price as number);
    expect(prices.length).to.be.within(1, before - 1);
    for (const price of prices) expect(price).to.be.within(100, 300);
    const chips = [...element.shadowRoot!.querySelectorAll('[part~="chip"]')].map((chip) => chip.getAttribute('aria-label'));
    expect(chips).to.deep.equal(['Remove filter Colour: Red', 'Remove filter £1.00 – £3.00']);

    element.shadowRoot!.querySelector<HTMLButtonElement>('[part~="chips"] [part~="clear-all"]')!.click();
    expect(location.search).to.equal('?q=heart');
    await ready(element, 'every heart', () => element.current.max === undefined);
    expect(element.shadowRoot!.querySelector('[part~="chip"]')).to.equal(null);
  });

  it('on a narrow screen puts the facets in a drawer behind a "Filters" button, with "See N results"', async () => {
    await setViewport({ width: 390, height: 844 });
    history.replaceState(null, '', `${location.pathname}?q=heart`);
    const element = mount<DiscoverySearchResults>('<discovery-search-results page-size="4"></discovery-search-results>');
    await ready(element, 'the hearts');
    const root = element.shadowRoot!;
    const panel = root.querySelector<HTMLElement>('[part~="facets"]')!;
    expect(getComputedStyle(panel).display).to.equal('none');
    const button = root.querySelector<HTMLButtonElement>('[part~="filters-button"]')!;
    expect(button.getAttribute('aria-expanded')).to.equal('false');
    button.click();
    await element.updateComplete;
    expect(element.drawer).to.equal(true);
    const opened = root.querySelector<HTMLElement>('[part~="facets"]')!;
    expect(opened.getAttribute('role')).to.equal('dialog');
    expect(opened.getBoundingClientRect().height).to.equal(innerHeight);
    await until(() => root.activeElement === root.querySelector('[part~="close"]'), 'focus in the drawer');
    expect(root.querySelector('[part~="see-results"]')!.textContent).to.equal(`See ${element.answer!.count} results`);
    opened.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }));
    await element.updateComplete;
    expect(element.drawer).to.equal(false);
    await until(() => root.activeElement === root.querySelector('[part~="filters-button"]'), 'focus back on the button');
  });
});
