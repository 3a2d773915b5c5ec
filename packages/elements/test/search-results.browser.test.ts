/** <discovery-search-results> bound to the page URL, against the demo search of a real companion server. */
import { expect } from '@esm-bundle/chai';
import { configureToolkit, defineElements, readSearchState, writeSearchState } from '../src/index.js';
import type { DiscoverySearchResults } from '../src/index.js';
import { pageWindow } from '../src/search-results/search-state.js';
import { UNREACHABLE, mount, recordActivities, recordUnhandledRejections, server, stayOnPage, until } from './helpers.js';

const testPage = location.pathname + location.search;

/** Waits for the answer to the element's current state (a change starts its request in the next update), rendered. */
async function ready(element: DiscoverySearchResults, what: string, condition: () => boolean = () => true): Promise<void> {
  await element.updateComplete;
  await until(() => element.state !== 'loading' && element.answer !== undefined && condition(), what);
  await element.updateComplete;
}

const checkbox = (element: DiscoverySearchResults, facetTitle: string, value: string) => {
  const facet = [...element.shadowRoot!.querySelectorAll('fieldset')].find((fieldset) => fieldset.querySelector('legend')!.textContent === facetTitle)!;
  const label = [...facet.querySelectorAll('label')].find((entry) => entry.textContent!.trim().startsWith(`${value} (`))!;
  return label.querySelector('input')!;
};

const ids = (element: DiscoverySearchResults) => element.answer!.cards.map((card) => card.productId);

describe('<discovery-search-results>', () => {
  before(() => {
    configureToolkit({ apiBase: server(), searchToken: 'demo-search-token', locale: 'en-GB' });
    defineElements();
  });
  afterEach(() => {
    document.querySelectorAll('discovery-search-results').forEach((element) => element.remove());
    history.replaceState(null, '', testPage);
  });

  it('labels its controls: facet checkboxes, the sort select, the page links and the live summary', async () => {
    history.replaceState(null, '', `${location.pathname}?q=heart`);
    const element = mount<DiscoverySearchResults>('<discovery-search-results page-size="4"></discovery-search-results>');
    await ready(element, 'the results');
    const root = element.shadowRoot!;
    const boxes = [...root.querySelectorAll<HTMLInputElement>('input[type=checkbox]')];
    expect(boxes.length).to.be.greaterThan(3);
    for (const box of boxes) expect(box.closest('label')!.textContent!.trim()).to.match(/^\S.* \(\d+\)$/);
    for (const fieldset of root.querySelectorAll('fieldset')) expect(fieldset.querySelector('legend')!.textContent).not.to.equal('');
    expect(root.querySelector('select')!.closest('label')!.textContent).to.contain('Sort by');
    const nav = root.querySelector('nav')!;
    expect(nav.getAttribute('aria-label')).to.equal('Pages');
    expect([...nav.querySelectorAll('a')].every((link) => link.getAttribute('href')!.startsWith(location.pathname))).to.equal(true);
    expect(root.querySelector('[part=summary]')!.getAttribute('role')).to.equal('status');
  });

  it('shows the query of the URL with facets, counts, sort and pages, and announces the page view', async () => {
    const activities = recordActivities();
    history.replaceState(null, '', `${location.pathname}?keep=1&q=heart&f.color=Red`);
    const element = mount<DiscoverySearchResults>('<discovery-search-results page-size="4"></discovery-search-results>');
    await ready(element, 'the results');
    activities.stop();
    const root = element.shadowRoot!;
    expect(element.state).to.equal('ready');
    expect(element.answer!.count).to.be.within(2, 20);
    expect(root.querySelector('[part=summary]')!.textContent).to.equal(`${element.answer!.count} results for “heart”`);
    expect(root.querySelectorAll('li a[part=card]').length).to.equal(Math.min(4, element.answer!.count));
    expect(checkbox(element, 'Colour', 'Red').checked).to.equal(true);
    expect(checkbox(element, 'Colour', 'Pink').checked).to.equal(false);
    expect(root.querySelector('select')!.value).to.equal('');
    expect(root.querySelector('nav[part=pagination] [aria-current=page]')!.textContent).to.equal('1');
    expect(activities.intents).to.deep.equal([
      { action: 'view', page: `${location.pathname}?keep=1&q=heart&f.color=Red`, sourceId: element.answer!.id, metadata: { query: 'heart' } },
    ]);
  });

  it('writes a facet choice to the URL, and follows the back button', async () => {
    history.replaceState(null, '', `${location.pathname}?keep=1&q=heart&f.color=Red`);
    const element = mount<DiscoverySearchResults>('<discovery-search-results page-size="4"></discovery-search-results>');
    await ready(element, 'the red hearts');
    const redOnly = element.answer!.count;

    checkbox(element, 'Colour', 'Pink').click();
    expect(new URLSearchParams(location.search).getAll('f.color')).to.deep.equal(['Red', 'Pink']);
    expect(new URLSearchParams(location.search).get('keep')).to.equal('1');
    await ready(element, 'red or pink hearts', () => element.answer!.count > redOnly);
    expect(checkbox(element, 'Colour', 'Pink').checked).to.equal(true);

    history.back();
    await ready(element, 'red hearts again', () => element.answer!.count === redOnly);
    expect(element.current.facets).to.deep.equal({ color: ['Red'] });
    expect(checkbox(element, 'Colour', 'Pink').checked).to.equal(false);
  });

  it('sorts and pages through the URL, and a reload shows the same page', async () => {
    history.replaceState(null, '', `${location.pathname}?q=mug`);
    const element = mount<DiscoverySearchResults>('<discovery-search-results page-size="5"></discovery-search-results>');
    await ready(element, 'the mugs');
    const select = element.shadowRoot!.querySelector('select')!;
    select.value = 'price:asc';
    select.dispatchEvent(new Event('change'));
    expect(location.search).to.equal('?q=mug&sort=price%3Aasc');
    await ready(element, 'the mugs by price', () => element.current.sort === 'price:asc');
    const prices = element.answer!.cards.map((card) => card.attributes.price as number);
    expect(prices).to.deep.equal([...prices].sort((a, b) => a - b));
    const firstPage = ids(element);

    element.shadowRoot!.querySelector<HTMLAnchorElement>('a[part=next]')!.click();
    expect(location.search).to.equal('?q=mug&sort=price%3Aasc&page=2');
    await ready(element, 'page 2', () => element.current.page === 2);
    const secondPage = ids(element);
    expect(secondPage).to.have.length(5);
    expect(secondPage.filter((id) => firstPage.includes(id))).to.deep.equal([]);
    expect(element.answer!.cards[0]!.attributes.price as number).to.be.at.least(prices[4]!);

    element.remove();
    const reloaded = mount<DiscoverySearchResults>('<discovery-search-results page-size="5"></discovery-search-results>');
    await ready(reloaded, 'the reloaded page');
    expect(ids(reloaded)).to.deep.equal(secondPage);
    expect(reloaded.shadowRoot!.querySelector('select')!.value).to.equal('price:asc');
    expect(reloaded.shadowRoot!.querySelector('[aria-current=page]')!.textContent).to.equal('2');
  });

  it('announces a click on a result with its position and the search id', async () => {
    history.replaceState(null, '', `${location.pathname}?q=mug&page=2`);
    const element = mount<DiscoverySearchResults>('<discovery-search-results page-size="5"></discovery-search-results>');
    await ready(element, 'page 2 of the mugs');
    const activities = recordActivities();
    const allowNavigation = stayOnPage();
    element.shadowRoot!.querySelectorAll<HTMLElement>('a[part=card]')[2]!.click();
    allowNavigation();
    activities.stop();
    expect(activities.intents).to.deep.equal([
      { action: 'click', productId: element.answer!.cards[2]!.productId, sourceId: element.answer!.id, metadata: { query: 'mug', position: 8 } },
    ]);
  });

  it('speaks the shop language through messages and sortOptions', async () => {
    history.replaceState(null, '', `${location.pathname}?q=heart`);
    const element = document.createElement('discovery-search-results');
    element.messages = { results: (count, query) => `${count} résultats pour « ${query} »`, sortBy: 'Trier par', next: 'Suivant' };
    element.sortOptions = [{ value: '', label: 'Pertinence' }, { value: 'price:asc', label: 'Prix croissant' }];
    element.pageSize = 4;
    document.body.append(element);
    await ready(element, 'the results');
    const root = element.shadowRoot!;
    expect(root.querySelector('[part=summary]')!.textContent).to.equal(`${element.answer!.count} résultats pour « heart »`);
    expect(root.querySelector('label[part=sort]')!.textContent).to.contain('Trier par');
    expect([...root.querySelectorAll('option')].map((option) => option.textContent)).to.deep.equal(['Pertinence', 'Prix croissant']);
    expect(root.querySelector('[part=next]')!.textContent).to.equal('Suivant');
    expect(root.querySelector('[part=previous]')).to.equal(null);
  });

  it('says so quietly when nothing matches or the server is down', async () => {
    const rejections = recordUnhandledRejections();
    history.replaceState(null, '', `${location.pathname}?q=zzqxv`);
    const none = mount<DiscoverySearchResults>('<discovery-search-results></discovery-search-results>');
    const down = mount<DiscoverySearchResults>(`<discovery-search-results api-base="${UNREACHABLE}"></discovery-search-results>`);
    const refused = mount<DiscoverySearchResults>('<discovery-search-results search-token="not-a-token"></discovery-search-results>');
    await ready(none, 'no results');
    await until(() => down.state === 'error' && refused.state === 'error', 'the failures');
    await down.updateComplete;
    await refused.updateComplete;
    expect(refused.shadowRoot!.querySelector('[part=message]')).not.to.equal(null);
    rejections.stop();
    expect(none.state).to.equal('empty');
    expect(none.shadowRoot!.querySelector('[part=summary]')!.textContent).to.equal('No results for “zzqxv”');
    expect(down.shadowRoot!.querySelector('[part=message]')!.textContent).to.equal('Search is not available right now. Please try again later.');
    expect(down.shadowRoot!.querySelector('ul')).to.equal(null);
    expect(rejections.reasons).to.deep.equal([]);
  });
});

describe('search state in the URL', () => {
  it('reads and writes query, page, sort and facets, keeping other parameters', () => {
    const state = readSearchState('?utm=x&query=red+mug&page=3&sort=price:desc&f.color=Red&f.color=Blue&f.brand=A%26B', 'query');
    expect(state).to.deep.equal({ query: 'red mug', page: 3, sort: 'price:desc', facets: { color: ['Red', 'Blue'], brand: ['A&B'] } });
    expect(writeSearchState({ ...state, page: 1 }, 'query', '?utm=x&page=3')).to.equal('?utm=x&query=red+mug&sort=price%3Adesc&f.color=Red&f.color=Blue&f.brand=A%26B');
  });

  it('keeps a query run as typed (exact=1) through filters, and drops it for a new query', () => {
    const state = readSearchState('?q=hanging+hart&exact=1&f.color=Red', 'q');
    expect(state.exact).to.equal(true);
    expect(writeSearchState({ ...state, page: 2 }, 'q', '?exact=1')).to.equal('?q=hanging+hart&exact=1&f.color=Red&page=2');
    expect(writeSearchState({ query: 'heart', page: 1, sort: '', facets: {} }, 'q', '?q=hanging+hart&exact=1')).to.equal('?q=heart');
    expect(readSearchState('?q=a&exact=yes', 'q').exact).to.equal(undefined);
  });

  it('ignores a bad page or sort', () => {
    expect(readSearchState('?q=a&page=-2&sort=price;drop', 'q')).to.deep.equal({ query: 'a', page: 1, sort: '', facets: {} });
  });

  it('offers the first, last and nearby pages', () => {
    expect(pageWindow(1, 1)).to.deep.equal([1]);
    expect(pageWindow(6, 20)).to.deep.equal([1, 0, 4, 5, 6, 7, 8, 0, 20]);
  });
});
