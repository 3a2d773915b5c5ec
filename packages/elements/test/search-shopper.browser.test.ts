/**
 * The search elements name the shopper as recommendations do (the tracker's profile cookie), in
 * `context.session`, so that a running experiment serves them the same variant in search
 * (docs/experiments.md). The requests go to the real demo companion; the page's fetch is only watched.
 */
import { expect } from '@esm-bundle/chai';
import { clearProfileCookie, writeProfileCookie } from '@discovery-kit/tracker';
import { configureToolkit, defineElements } from '../src/index.js';
import type { DiscoverySearchResults } from '../src/index.js';
import { mount, server, until } from './helpers.js';

/** The JSON bodies the page posts to a path, as sent. */
function watchPosts(path: string): { bodies: Array<Record<string, unknown>>; stop: () => void } {
  const bodies: Array<Record<string, unknown>> = [];
  const original = window.fetch;
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    if (String(input).endsWith(path) && typeof init?.body === 'string') bodies.push(JSON.parse(init.body) as Record<string, unknown>);
    return original(input, init);
  };
  return { bodies, stop: () => (window.fetch = original) };
}

describe('the search elements name the shopper', () => {
  const testPage = location.pathname + location.search;
  before(() => {
    configureToolkit({ apiBase: server(), searchToken: 'demo-search-token', locale: 'en-GB' });
    defineElements();
  });
  afterEach(() => {
    document.querySelectorAll('discovery-search-results').forEach((element) => element.remove());
    history.replaceState(null, '', testPage);
    clearProfileCookie();
  });

  async function searchOnce(): Promise<Record<string, unknown>> {
    const watched = watchPosts('/search');
    try {
      history.replaceState(null, '', `${location.pathname}?q=heart`);
      const element = mount<DiscoverySearchResults>('<discovery-search-results page-size="2"></discovery-search-results>');
      await until(() => element.answer !== undefined && watched.bodies.length > 0, 'the answer');
      expect(element.answer!.count).to.be.greaterThan(0);
      return watched.bodies[0]!;
    } finally {
      watched.stop();
    }
  }

  it('sends the profile cookie as context.session.sessionId', async () => {
    writeProfileCookie('p_search-shopper');
    expect((await searchOnce()).context).to.deep.equal({ session: { sessionId: 'p_search-shopper' } });
  });

  it('sends no context for a shopper without a profile cookie', async () => {
    expect((await searchOnce()).context).to.equal(undefined);
  });
});
