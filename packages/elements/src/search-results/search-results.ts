/** `<discovery-search-results>`: results, facets, sorting and pagination, all bound to the page URL. */
import { LitElement, html, nothing } from 'lit';
import type { PropertyValues } from 'lit';
import { cardStyles } from '../card-styles.js';
import { priceCurrency, priceLocale } from '../config.js';
import { announceActivity } from '../events.js';
import { formatPrice } from '../format-price.js';
import { renderCard } from '../product-card.js';
import { autocomplete, search } from '../search-request.js';
import type { SearchAnswer } from '../search-request.js';
import { renderChips, renderFacets } from './search-facets.js';
import { MAX_OFFSET, renderPagination, renderPlaceholder, renderSummary, type SearchInstead } from './search-page-parts.js';
import type { FacetActions, FacetView } from './search-facets.js';
import { ENGLISH } from './search-messages.js';
import type { SearchResultsMessages } from './search-messages.js';
import { clearFilters, filterCount, rangeFilter, readSearchState, sortBy, toggleFacet, writeSearchState } from './search-state.js';
import type { SearchState } from './search-state.js';
import { searchResultsStyles } from './search-results.styles.js';

export type { SearchResultsMessages } from './search-messages.js';

export interface SortOption {
  /** `attribute:asc`, `attribute:desc`, or empty for relevance. */
  value: string;
  label: string;
}

/** The phone layout (filters in a drawer) below this width; the styles use the same. */
const NARROW = '(max-width: 40rem)';
/** Placeholder cards shown while the first answer loads, so the page does not jump when it arrives. */
const PLACEHOLDER_CARDS = 8;
const ATTRIBUTE_NAME = /^[A-Za-z_][\w.]*$/;

/**
 * Reads query, page, sort, facet selections and price range from `location.search`, shows the answer, and
 * writes every change back with `history.pushState` (and follows the back button), so a filtered page can
 * be shared. URL parameters: the query (`param`), `page` (1-based), `sort` (`price:asc`), `f.{facetId}` per
 * selected value, `min` and `max` (price range in currency units).
 *
 * On a phone the filters live in a full-screen drawer opened by a "Filters" button, and results come first.
 * A corrected query, a looser match and a merchandising redirect are said so; zero results offer other
 * searches and, with `empty-widget-id`, popular products.
 *
 * @attr param - the query parameter (default `q`)
 * @attr page-size - results per page (default 12)
 * @attr empty-widget-id - a recommendation widget shown when nothing matches (popular products)
 * @attr range-facet - the facet shown as a min/max range (default `price`; empty for none)
 * @attr range-attribute - the catalog attribute the range filters (default the facet id), in minor units (cents)
 * @attr api-base, search-token - override `configureToolkit`
 * @attr state - reflected: `loading`, `ready`, `empty` or `error`
 * @attr drawer - reflected while the phone filter drawer is open
 * @slot - an optional `<template>` for each result card, as in `<discovery-recommendations>`
 * @fires discovery-activity - `view` of the results page (`metadata.query`, `sourceId` the search id), `click` on a result
 * @csspart summary, correction, relaxed, message, redirect, redirect-link, suggestions, suggestion, layout, facets, facet, facet-title, facet-value, facet-label, facet-count, facet-search, show-more, range, range-form, range-field, range-input, range-apply, chips, chip, clear-all, toolbar, filters-button, sort, list, item, card, photo, title, mark, price, placeholder, pagination, page, previous, next, drawer-header, drawer-footer, close, see-results
 * @cssproperty --dk-facets-width, --dk-results-min-height, --dk-drawer-z-index, and the card properties of `<discovery-recommendations>`
 */
export class DiscoverySearchResults extends LitElement {
  static override properties = {
    param: {},
    pageSize: { attribute: 'page-size', type: Number },
    emptyWidgetId: { attribute: 'empty-widget-id' },
    rangeFacet: { attribute: 'range-facet' },
    rangeAttribute: { attribute: 'range-attribute' },
    apiBase: { attribute: 'api-base' },
    searchToken: { attribute: 'search-token' },
    sortOptions: { attribute: false },
    messages: { attribute: false },
    state: { reflect: true },
    drawer: { type: Boolean, reflect: true },
    answer: { state: true },
    current: { state: true },
    alternatives: { state: true },
    expanded: { state: true },
    facetFilters: { state: true },
  };

  static override styles = [cardStyles, searchResultsStyles];

  declare param: string;
  declare pageSize: number;
  declare emptyWidgetId: string | null;
  declare rangeFacet: string;
  declare rangeAttribute: string | null;
  declare apiBase: string | null;
  declare searchToken: string | null;
  /** The sort select's choices; the first is the default. */
  declare sortOptions: SortOption[];
  /** Replaces some or all of the English words (and the sort labels are `sortOptions`). */
  declare messages: Partial<SearchResultsMessages>;
  declare state: 'loading' | 'ready' | 'empty' | 'error';
  /** The phone filter drawer is open. */
  declare drawer: boolean;
  declare answer: SearchAnswer | undefined;
  /** The state read from the URL, and being shown. */
  declare current: SearchState;
  /** Other searches offered when nothing matched. */
  declare alternatives: string[];
  declare expanded: ReadonlySet<string>;
  declare facetFilters: ReadonlyMap<string, string>;

  private request?: AbortController;
  /** After a page change, the top of the results comes into view once they are shown. */
  private scrollPending = false;
  private readonly onPopstate = () => this.readUrl();
  private readonly onKeydown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && this.drawer) this.closeDrawer(false);
  };

  constructor() {
    super();
    this.param = 'q';
    this.pageSize = 12;
    this.emptyWidgetId = null;
    this.rangeFacet = 'price';
    this.rangeAttribute = null;
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
    this.drawer = false;
    this.current = readSearchState('', 'q');
    this.alternatives = [];
    this.expanded = new Set();
    this.facetFilters = new Map();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('popstate', this.onPopstate);
    this.addEventListener('keydown', this.onKeydown);
    this.readUrl();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('popstate', this.onPopstate);
    this.removeEventListener('keydown', this.onKeydown);
    this.request?.abort();
    if (this.drawer) this.closeDrawer(false);
  }

  /** Shows what the URL asks for; call it after changing the URL yourself (pushState sends no event). */
  readUrl(): void {
    this.current = readSearchState(location.search, this.param || 'q');
  }

  protected override willUpdate(changed: PropertyValues): void {
    if (changed.has('param') && changed.get('param') !== undefined) this.current = readSearchState(location.search, this.param || 'q');
    if (['current', 'pageSize', 'apiBase', 'searchToken', 'rangeFacet', 'rangeAttribute'].some((name) => changed.has(name))) void this.load();
  }

  protected override updated(): void {
    if (this.scrollPending && this.state !== 'loading') {
      this.scrollPending = false;
      // Only when the top of the results is above the screen: a shopper who can see it keeps their place.
      if (this.getBoundingClientRect().top < 0) this.scrollIntoView({ block: 'start' });
    }
  }

  private get size(): number {
    return Number.isInteger(this.pageSize) && this.pageSize > 0 ? Math.min(this.pageSize, 100) : 12;
  }

  private get words(): SearchResultsMessages {
    return { ...ENGLISH, ...this.messages };
  }

  private async load(): Promise<void> {
    this.request?.abort();
    const request = (this.request = new AbortController());
    const state = this.current;
    this.state = 'loading';
    try {
      const facets = Object.entries(state.facets).map(([id, values]) => ({ id, values }));
      const attribute = this.rangeAttribute || this.rangeFacet;
      const filter = attribute && ATTRIBUTE_NAME.test(attribute) ? rangeFilter(state, attribute, 100) : undefined;
      const options = {
        offset: Math.min((state.page - 1) * this.size, MAX_OFFSET),
        limit: this.size,
        sortBy: sortBy(state.sort),
        facets,
        ...(filter ? { filter } : {}),
        ...(state.exact ? { asTyped: true } : {}),
      };
      const answer = await search(this, state.query, options, request.signal);
      if (request.signal.aborted) return;
      this.answer = answer;
      this.state = answer.cards.length > 0 || answer.redirect ? 'ready' : 'empty';
      this.alternatives = [];
      if (this.state === 'empty') {
        // The empty page holds the way out (chips, clear all): the drawer would hide it.
        if (this.drawer) this.closeDrawer(false);
        if (state.query.trim() !== '') void this.findAlternatives(state.query, request.signal);
      }
      announceActivity(this, { action: 'view', page: location.pathname + location.search, sourceId: answer.id, metadata: { query: state.query } });
    } catch {
      if (request.signal.aborted) return;
      this.answer = undefined;
      this.state = 'error';
    }
  }

  /**
   * For zero results: earlier shoppers' searches starting like the query's words, and each word on its own;
   * only those that find something are offered (a count-only search each, at most six).
   */
  private async findAlternatives(query: string, signal: AbortSignal): Promise<void> {
    const words = query.toLowerCase().split(/\s+/).filter((word) => word.length > 1).slice(0, 3);
    const found = new Set<string>();
    for (const word of words) {
      const prefix = word.slice(0, Math.max(3, Math.ceil(word.length / 2)));
      const suggestions = await autocomplete(this, prefix, 3, signal).catch(() => []);
      for (const suggestion of suggestions) found.add(suggestion.text.toLowerCase());
    }
    if (words.length > 1) for (const word of words) found.add(word);
    found.delete(query.trim().toLowerCase());
    const candidates = [...found].slice(0, 6);
    const counts = await Promise.all(candidates.map((text) => search(this, text, { limit: 0, withoutFacets: true }, signal).then((answer) => answer.count, () => 0)));
    if (!signal.aborted) this.alternatives = candidates.filter((_, index) => counts[index]! > 0);
  }

  /** Puts `next` in the URL as a new history entry, and shows it. */
  private go(next: SearchState): void {
    history.pushState(history.state, '', this.link(next) + location.hash);
    if (next.page !== this.current.page) this.scrollPending = true;
    this.current = next;
  }

  private link(state: SearchState): string {
    return location.pathname + writeSearchState(state, this.param || 'q', location.search);
  }

  private follow(event: MouseEvent, next: SearchState): void {
    // Let the browser handle a new tab or window; an ordinary click stays on the page.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    this.go(next);
  }

  /** "Search instead for …": the same page of the typed query, run without correction. */
  private searchInstead(): SearchInstead {
    const next: SearchState = { ...this.current, page: 1, exact: true };
    return { href: this.link(next), follow: (event) => this.follow(event, next) };
  }

  private reportClick(index: number): void {
    const answer = this.answer;
    const card = answer?.cards[index];
    if (!answer || !card) return;
    const position = (this.current.page - 1) * this.size + index + 1;
    announceActivity(this, { action: 'click', productId: card.productId, sourceId: answer.id, metadata: { query: this.current.query, position } });
  }

  private openDrawer(): void {
    this.drawer = true;
    document.documentElement.style.setProperty('overflow', 'hidden');
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('[part~=close]')?.focus());
  }

  /** `toResults`: "See N results" brings the first result into view. */
  private closeDrawer(toResults: boolean): void {
    this.drawer = false;
    document.documentElement.style.removeProperty('overflow');
    void this.updateComplete.then(() => {
      if (toResults && this.getBoundingClientRect().top < 0) this.scrollIntoView({ block: 'start' });
      if (this.isConnected) this.renderRoot.querySelector<HTMLElement>('[part~=filters-button]')?.focus();
    });
  }

  private readonly actions: FacetActions = {
    toggle: (id, value) => this.go(toggleFacet(this.current, id, value)),
    expand: (id, open) => {
      const next = new Set(this.expanded);
      if (open) next.add(id);
      else next.delete(id);
      this.expanded = next;
    },
    filterValues: (id, text) => (this.facetFilters = new Map(this.facetFilters).set(id, text)),
    setRange: (min, max) => {
      const { min: _min, max: _max, ...rest } = this.current;
      this.go({ ...rest, page: 1, ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }) });
    },
    clearAll: () => this.go(clearFilters(this.current)),
  };

  private facetView(answer: SearchAnswer): FacetView {
    const currency = priceCurrency();
    return {
      state: this.current,
      answer,
      words: this.words,
      rangeFacet: this.rangeFacet ?? '',
      expanded: this.expanded,
      filters: this.facetFilters,
      money: (amount) => formatPrice(Math.round(amount * 100), currency, priceLocale()),
    };
  }

  private renderPagination(answer: SearchAnswer): unknown {
    return renderPagination({
      count: answer.count,
      size: this.size,
      page: this.current.page,
      words: this.words,
      href: (page) => this.link({ ...this.current, page }),
      follow: (event, page) => this.follow(event, { ...this.current, page }),
    });
  }

  /** Nothing matched: other searches to try, a way out of the filters, and popular products. */
  private renderEmpty(): unknown {
    const words = this.words;
    return html`<div part="empty">
      ${filterCount(this.current) > 0 ? renderChips(this.facetView(this.answer!), this.actions) : nothing}
      ${this.alternatives.length > 0
        ? html`<p part="message">${words.tryInstead}</p>
            <ul part="suggestions">
              ${this.alternatives.map((text) => {
                const next: SearchState = { query: text, sort: '', page: 1, facets: {} };
                return html`<li><a part="suggestion" href=${this.link(next)} @click=${(event: MouseEvent) => this.follow(event, next)}>${text}</a></li>`;
              })}
            </ul>`
        : nothing}
      <p part="message">${words.noResultsTips}</p>
      ${this.emptyWidgetId ? html`<discovery-recommendations part="popular" widget-id=${this.emptyWidgetId}></discovery-recommendations>` : nothing}
    </div>`;
  }

  protected override render(): unknown {
    const answer = this.answer;
    const words = this.words;
    if (this.state === 'error') return html`<p part="message" role="status">${words.unavailable}</p>`;
    if (!answer) return renderPlaceholder(Math.min(this.size, PLACEHOLDER_CARDS));
    if (this.state === 'empty') return html`${renderSummary(answer, this.current.query, words, this.searchInstead())}${this.renderEmpty()}`;
    const template = this.querySelector<HTMLTemplateElement>(':scope > template');
    const view = this.facetView(answer);
    const active = filterCount(this.current);
    const narrow = this.drawer && matchMedia(NARROW).matches;
    return html`<div aria-busy=${this.state === 'loading' ? 'true' : 'false'}>
      ${renderSummary(answer, this.current.query, words, this.searchInstead())}
      <div part="layout">
        <div
          part="facets"
          id="facets"
          role=${narrow ? 'dialog' : nothing}
          aria-modal=${narrow ? 'true' : nothing}
          aria-label=${narrow ? words.filters : nothing}
        >
          <div part="drawer-header">
            <strong>${words.filters}</strong>
            <button part="close" type="button" aria-label=${words.close} @click=${() => this.closeDrawer(false)}>×</button>
          </div>
          ${renderFacets(view, this.actions)}
          <div part="drawer-footer">
            ${active > 0 ? html`<button part="clear-all" type="button" @click=${this.actions.clearAll}>${words.clearAll}</button>` : nothing}
            <button part="see-results" type="button" @click=${() => this.closeDrawer(true)}>${words.seeResults(answer.count)}</button>
          </div>
        </div>
        <div part="results">
          ${renderChips(view, this.actions)}
          <div part="toolbar">
            <button part="filters-button" type="button" aria-controls="facets" aria-expanded=${this.drawer ? 'true' : 'false'} @click=${() => this.openDrawer()}>
              ${words.filters}${active > 0 ? ` (${active})` : ''}
            </button>
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
