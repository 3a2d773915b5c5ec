/** `<discovery-search-results>`: results, facets, sorting and pagination, all bound to the page URL. */
import { LitElement, html, nothing } from 'lit';
import type { PropertyValues } from 'lit';
import { cardStyles } from '../card-styles.js';
import { announceActivity } from '../events.js';
import { renderCard } from '../product-card.js';
import { search } from '../search-request.js';
import type { SearchAnswer } from '../search-request.js';
import { pageWindow, readSearchState, sortBy, toggleFacet, writeSearchState } from './search-state.js';
import type { SearchState } from './search-state.js';
import { searchResultsStyles } from './search-results.styles.js';

export interface SortOption {
  /** `attribute:asc`, `attribute:desc`, or empty for relevance. */
  value: string;
  label: string;
}

/** The words the results page shows; set `messages` to translate some or all of them. */
export interface SearchResultsMessages {
  results: (count: number, query: string) => string;
  noResults: (query: string) => string;
  unavailable: string;
  sortBy: string;
  pages: string;
  previous: string;
  next: string;
}

const ENGLISH: SearchResultsMessages = {
  results: (count, query) => (query ? `${count} results for “${query}”` : `${count} products`),
  noResults: (query) => `No results for “${query}”`,
  unavailable: 'Search is not available right now. Please try again later.',
  sortBy: 'Sort by',
  pages: 'Pages',
  previous: 'Previous',
  next: 'Next',
};

/** The search API pages no further than this offset. */
const MAX_OFFSET = 10000;

/**
 * Reads query, page, sort and facet selections from `location.search`, shows the answer, and writes every
 * change back with `history.pushState` (and follows the back button), so a filtered page can be shared.
 * URL parameters: the query (`param`), `page` (1-based), `sort` (`price:asc`), `f.{facetId}` per selected value.
 *
 * @attr param - the query parameter (default `q`)
 * @attr page-size - results per page (default 12)
 * @attr api-base, search-token - override `configureToolkit`
 * @attr state - reflected: `loading`, `ready`, `empty` or `error`
 * @slot - an optional `<template>` for each result card, as in `<discovery-recommendations>`
 * @fires discovery-activity - `view` of the results page (`metadata.query`, `sourceId` the search id), `click` on a result
 * @csspart summary, message, redirect, layout, facets, facet, facet-title, facet-value, facet-count, toolbar, sort, list, item, card, photo, title, price, pagination, page, previous, next
 * @cssproperty --dk-facets-width, and the card properties of `<discovery-recommendations>`
 */
export class DiscoverySearchResults extends LitElement {
  static override properties = {
    param: {},
    pageSize: { attribute: 'page-size', type: Number },
    apiBase: { attribute: 'api-base' },
    searchToken: { attribute: 'search-token' },
    sortOptions: { attribute: false },
    messages: { attribute: false },
    state: { reflect: true },
    answer: { state: true },
    current: { state: true },
  };

  static override styles = [cardStyles, searchResultsStyles];

  declare param: string;
  declare pageSize: number;
  declare apiBase: string | null;
  declare searchToken: string | null;
  /** The sort select's choices; the first is the default. */
  declare sortOptions: SortOption[];
  /** Replaces some or all of the English words (and the sort labels are `sortOptions`). */
  declare messages: Partial<SearchResultsMessages>;
  declare state: 'loading' | 'ready' | 'empty' | 'error';
  declare answer: SearchAnswer | undefined;
  /** The state read from the URL, and being shown. */
  declare current: SearchState;

  private request?: AbortController;
  private readonly onPopstate = () => this.readUrl();

  constructor() {
    super();
    this.param = 'q';
    this.pageSize = 12;
    this.apiBase = null;
    this.searchToken = null;
    this.sortOptions = [
      { value: '', label: 'Relevance' },
      { value: 'price:asc', label: 'Price: low to high' },
      { value: 'price:desc', label: 'Price: high to low' },
      { value: 'title:asc', label: 'Name' },
    ];
    this.messages = {};
    this.state = 'loading';
    this.current = readSearchState('', 'q');
  }

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('popstate', this.onPopstate);
    this.readUrl();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('popstate', this.onPopstate);
    this.request?.abort();
  }

  /** Shows what the URL asks for; call it after changing the URL yourself (pushState sends no event). */
  readUrl(): void {
    this.current = readSearchState(location.search, this.param || 'q');
  }

  protected override willUpdate(changed: PropertyValues): void {
    if (changed.has('param') && changed.get('param') !== undefined) this.current = readSearchState(location.search, this.param || 'q');
    if (['current', 'pageSize', 'apiBase', 'searchToken'].some((name) => changed.has(name))) void this.load();
  }

  private get size(): number {
    return Number.isInteger(this.pageSize) && this.pageSize > 0 ? Math.min(this.pageSize, 100) : 12;
  }

  private async load(): Promise<void> {
    this.request?.abort();
    const request = (this.request = new AbortController());
    const state = this.current;
    this.state = 'loading';
    try {
      const facets = Object.entries(state.facets).map(([id, values]) => ({ id, values }));
      const options = { offset: Math.min((state.page - 1) * this.size, MAX_OFFSET), limit: this.size, sortBy: sortBy(state.sort), facets };
      const answer = await search(this, state.query, options, request.signal);
      if (request.signal.aborted) return;
      this.answer = answer;
      this.state = answer.cards.length > 0 || answer.redirect ? 'ready' : 'empty';
      announceActivity(this, { action: 'view', page: location.pathname + location.search, sourceId: answer.id, metadata: { query: state.query } });
    } catch {
      if (request.signal.aborted) return;
      this.answer = undefined;
      this.state = 'error';
    }
  }

  /** Puts `next` in the URL as a new history entry, and shows it. */
  private go(next: SearchState): void {
    history.pushState(history.state, '', location.pathname + writeSearchState(next, this.param || 'q', location.search) + location.hash);
    this.current = next;
  }

  private pageLink(page: number): string {
    return location.pathname + writeSearchState({ ...this.current, page }, this.param || 'q', location.search);
  }

  private followPage(event: MouseEvent, page: number): void {
    // Let the browser handle a new tab or window; an ordinary click stays on the page.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    this.go({ ...this.current, page });
  }

  private reportClick(index: number): void {
    const answer = this.answer;
    const card = answer?.cards[index];
    if (!answer || !card) return;
    const position = (this.current.page - 1) * this.size + index + 1;
    announceActivity(this, { action: 'click', productId: card.productId, sourceId: answer.id, metadata: { query: this.current.query, position } });
  }

  private renderFacets(answer: SearchAnswer): unknown {
    const state = this.current;
    return answer.facets
      .filter((facet) => facet.values.length > 0)
      .map(
        (facet) => html`<fieldset part="facet">
          <legend part="facet-title">${facet.title}</legend>
          ${facet.values.map(
            (value) => html`<label part="facet-value"
              ><input
                type="checkbox"
                .checked=${value.selected || (state.facets[facet.id] ?? []).includes(value.value)}
                @change=${() => this.go(toggleFacet(this.current, facet.id, value.value))}
              />${value.value} <span part="facet-count">(${value.count})</span></label
            >`,
          )}
        </fieldset>`,
      );
  }

  private get words(): SearchResultsMessages {
    return { ...ENGLISH, ...this.messages };
  }

  private renderPagination(answer: SearchAnswer): unknown {
    const pages = Math.min(Math.ceil(answer.count / this.size), Math.floor(MAX_OFFSET / this.size) + 1);
    const page = this.current.page;
    if (pages <= 1) return nothing;
    const words = this.words;
    return html`<nav part="pagination" aria-label=${words.pages}>
      ${page > 1 ? html`<a part="previous" rel="prev" href=${this.pageLink(page - 1)} @click=${(event: MouseEvent) => this.followPage(event, page - 1)}>${words.previous}</a>` : nothing}
      ${pageWindow(page, pages).map((number) =>
        number === 0
          ? html`<span aria-hidden="true">…</span>`
          : html`<a
              part="page"
              href=${this.pageLink(number)}
              aria-current=${number === page ? 'page' : nothing}
              @click=${(event: MouseEvent) => this.followPage(event, number)}
              >${number}</a
            >`,
      )}
      ${page < pages ? html`<a part="next" rel="next" href=${this.pageLink(page + 1)} @click=${(event: MouseEvent) => this.followPage(event, page + 1)}>${words.next}</a>` : nothing}
    </nav>`;
  }

  protected override render(): unknown {
    const answer = this.answer;
    const words = this.words;
    if (this.state === 'error') return html`<p part="message" role="status">${words.unavailable}</p>`;
    if (!answer) return html`<p part="message" role="status" aria-busy="true"></p>`;
    const query = this.current.query;
    const template = this.querySelector<HTMLTemplateElement>(':scope > template');
    const summary = answer.count === 0 ? words.noResults(query) : words.results(answer.count, query);
    return html`<div aria-busy=${this.state === 'loading' ? 'true' : 'false'}>
      <p part="summary" role="status">${summary}</p>
      ${answer.redirect ? html`<p part="redirect"><a href=${answer.redirect.url}>${answer.redirect.name}</a></p>` : nothing}
      <div part="layout">
        <div part="facets">${this.renderFacets(answer)}</div>
        <div>
          <div part="toolbar">
            <label part="sort"
              >${words.sortBy}
              <select @change=${(event: Event) => this.go({ ...this.current, sort: (event.target as HTMLSelectElement).value, page: 1 })}>
                ${this.sortOptions.map((option) => html`<option value=${option.value} ?selected=${option.value === this.current.sort}>${option.label}</option>`)}
              </select></label
            >
          </div>
          <ul part="list">
            ${answer.cards.map((card, index) => html`<li part="item" @click=${() => this.reportClick(index)}>${renderCard(card, template)}</li>`)}
          </ul>
          ${this.renderPagination(answer)}
        </div>
      </div>
    </div>`;
  }
}
