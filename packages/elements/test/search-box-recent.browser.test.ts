/** <discovery-search-box>: recent searches kept in this browser only, and the query of the results page kept in the input. */
import { expect } from '@esm-bundle/chai';
import { sendKeys } from '@web/test-runner-commands';
import { NAVIGATE_EVENT, configureToolkit, defineElements } from '../src/index.js';
import type { DiscoverySearchBox, NavigateDetail } from '../src/index.js';
import { mount, server, until, watchSearchRequests } from './helpers.js';

const testPage = location.pathname + location.search;
const optionTexts = (box: DiscoverySearchBox) => [...box.shadowRoot!.querySelectorAll('[role=option]')].map((option) => option.textContent!.trim());

describe('<discovery-search-box> recent searches and the results page', () => {
  const targets: NavigateDetail[] = [];
  const keepHere = (event: CustomEvent<NavigateDetail>) => {
    event.preventDefault();
    targets.push(event.detail);
  };
  before(() => {
    configureToolkit({ apiBase: server(), searchToken: 'demo-search-token', locale: 'en-GB' });
    defineElements();
    document.addEventListener(NAVIGATE_EVENT, keepHere);
  });
  after(() => document.removeEventListener(NAVIGATE_EVENT, keepHere));
  beforeEach(() => localStorage.removeItem('discovery-recent-searches'));
  afterEach(() => {
    document.querySelectorAll('discovery-search-box').forEach((element) => element.remove());
    history.replaceState(null, '', testPage);
  });

  it('offers the last searches on focus, newest first, never sends them, and clears them', async () => {
    const requests = watchSearchRequests();
    try {
      const box = mount<DiscoverySearchBox>('<discovery-search-box action="/results"></discovery-search-box>');
      await box.updateComplete;
      const input = box.shadowRoot!.querySelector('input')!;
      for (const query of ['candle', 'tea cup', 'Candle']) {
        input.focus();
        input.select();
        await sendKeys({ type: query });
        await sendKeys({ press: 'Enter' });
      }
      expect(targets.map((target) => new URL(target.url, location.href).searchParams.get('q'))).to.deep.equal(['candle', 'tea cup', 'Candle']);
      await until(() => requests.sent.length > 0, 'the typing requests');
      await Promise.all(requests.settled);
      const sentBefore = requests.sent.length;

      // Emptying the input offers them (as focusing an empty input does).
      input.focus();
      input.select();
      await sendKeys({ press: 'Backspace' });
      await until(() => box.open && optionTexts(box).length === 3, 'the recent searches');
      expect(optionTexts(box)).to.deep.equal(['Candle', 'tea cup', 'Clear recent searches']);
      expect(box.shadowRoot!.getElementById('recent-label')!.textContent).to.equal('Recent searches');
      expect(requests.sent.length).to.equal(sentBefore);

      (box.shadowRoot!.querySelectorAll<HTMLElement>('[role=option]')[2]!).click();
      await box.updateComplete;
      expect(box.open).to.equal(false);
      expect(localStorage.getItem('discovery-recent-searches')).to.equal(null);
    } finally {
      requests.restore();
    }
  });

  it('shows the results page query in the input, and follows back and forward', async () => {
    history.replaceState(null, '', `${location.pathname}?q=hanging%20heart`);
    const box = mount<DiscoverySearchBox>(`<discovery-search-box action="${location.pathname}"></discovery-search-box>`);
    await box.updateComplete;
    expect(box.shadowRoot!.querySelector('input')!.value).to.equal('hanging heart');
    history.pushState(null, '', `${location.pathname}?q=mug`);
    history.back();
    await until(() => box.shadowRoot!.querySelector('input')!.value === 'hanging heart' && new URLSearchParams(location.search).get('q') === 'hanging heart', 'the query after back');
    const elsewhere = mount<DiscoverySearchBox>('<discovery-search-box action="/another-page"></discovery-search-box>');
    await elsewhere.updateComplete;
    expect(elsewhere.shadowRoot!.querySelector('input')!.value).to.equal('');
  });

  it('ends the list with a row to all the results', async () => {
    const box = mount<DiscoverySearchBox>('<discovery-search-box suggestions="0" products="2"></discovery-search-box>');
    await box.updateComplete;
    box.shadowRoot!.querySelector('input')!.focus();
    await sendKeys({ type: 'heart' });
    await until(() => box.open && optionTexts(box).length === 3, 'two products and the row');
    const row = optionTexts(box)[2]!;
    expect(row).to.match(/^See all \d+ results$/);
    targets.length = 0;
    (box.shadowRoot!.querySelectorAll<HTMLElement>('[role=option]')[2]!).click();
    expect(targets.map((target) => new URL(target.url, location.href).searchParams.get('q'))).to.deep.equal(['heart']);
  });
});
