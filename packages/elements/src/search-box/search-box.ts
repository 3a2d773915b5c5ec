/** `<discovery-search-box>`: an ARIA 1.2 combobox with autocomplete suggestions and instant product results. */
import { LitElement, html, nothing } from 'lit';
import { announceActivity, navigateTo } from '../events.js';
import type { NavigateDetail } from '../events.js';
import type { ProductCard } from '../product-card.js';
import { safeLinkUrl } from '../safe-url.js';
import { renderMarked } from '../highlight.js';
import { autocomplete, search } from '../search-request.js';
import { clearRecentSearches, readRecentSearches, rememberSearch } from './recent-searches.js';
import { searchBoxStyles } from './search-box.styles.js';

/** Typing pauses shorter than this send no request. */
export const SEARCH_BOX_DEBOUNCE_MS = 150;

type Option =
  | { kind: 'suggestion'; text: string; marks?: Array<[number, number]> }
  | { kind: 'recent'; text: string }
  | { kind: 'clear-recent' }
  | { kind: 'link'; text: string; url: string }
  | { kind: 'product'; card: ProductCard }
  | { kind: 'all'; count: number };

/**
 * A search input that suggests earlier shoppers' queries and shows a few matching products as the
 * shopper types. Focus stays in the input; `aria-activedescendant` names the highlighted option.
 * Enter (or the button) goes to the shop's results page `action?param=query`. On that page the input
 * keeps the query. While the input is empty it offers the shopper's recent searches, kept in this
 * browser only (never sent) and clearable; the last row goes to all the results.
 *
 * @attr action - the results page (default `/search`)
 * @attr param - its query parameter (default `q`)
 * @attr placeholder - the input's placeholder
 * @attr label - accessible name of the input and text of the button (default `Search`)
 * @attr products-label - heading of the instant products in the list (default `Products`)
 * @attr suggestions - how many suggestions (default 5; 0 for none)
 * @attr products - how many instant product results (default 4; 0 for none)
 * @attr recent - how many recent searches to offer (default 5; 0 for none, and none are stored)
 * @attr see-all-label, recent-label, clear-recent-label - words of the extra rows
 * @attr api-base, search-token - override `configureToolkit`
 * @fires discovery-navigate - cancelable, before leaving for a results page or a product
 * @fires discovery-activity - `click` on a chosen product, `sourceId` the search id
 * @csspart form, input, button, listbox, option, suggestion, text, recent, clear-recent, see-all, product, active, group-label, photo, title, price, mark
 * @cssproperty --dk-input-padding, --dk-input-border, --dk-radius, --dk-accent, --dk-accent-text, --dk-popup-background, --dk-popup-z-index, --dk-highlight
 */
export class DiscoverySearchBox extends LitElement {
  static override properties = {
    action: {},
    param: {},
    placeholder: {},
    label: {},
    productsLabel: { attribute: 'products-label' },
    suggestions: { type: Number },
    products: { type: Number },
    recent: { type: Number },
    seeAllLabel: { attribute: 'see-all-label' },
    recentLabel: { attribute: 'recent-label' },
    clearRecentLabel: { attribute: 'clear-recent-label' },
    apiBase: { attribute: 'api-base' },
    searchToken: { attribute: 'search-token' },
    query: { state: true },
    options: { state: true },
    open: { state: true },
    active: { state: true },
  };

  static override styles = searchBoxStyles;

  declare action: string;
  declare param: string;
  declare placeholder: string;
  declare label: string;
  declare productsLabel: string;
  declare suggestions: number;
  declare products: number;
  declare recent: number;
  declare seeAllLabel: string;
  declare recentLabel: string;
  declare clearRecentLabel: string;
  declare apiBase: string | null;
  declare searchToken: string | null;
  /** The text in the input. */
  declare query: string;
  /** Suggestions, then redirects, then products, as the listbox shows them. */
  declare options: Option[];
  declare open: boolean;
  /** Index of the highlighted option, -1 for none. */
  declare active: number;
  /** Id of the search answer behind the product options. */
  searchId = '';

  private timer?: ReturnType<typeof setTimeout>;
  private request?: AbortController;
  private readonly onPopstate = () => this.readUrl();

  constructor() {
    super();
    this.action = '/search';
    this.param = 'q';
    this.placeholder = '';
    this.label = 'Search';
    this.productsLabel = 'Products';
    this.suggestions = 5;
    this.products = 4;
    this.recent = 5;
    this.seeAllLabel = 'See all {count} results';
    this.recentLabel = 'Recent searches';
    this.clearRecentLabel = 'Clear recent searches';
    this.apiBase = null;
    this.searchToken = null;
    this.query = '';
    this.options = [];
    this.open = false;
    this.active = -1;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('popstate', this.onPopstate);
    this.readUrl();
  }

  /** On the results page, the input shows the query the page shows (set `action` and `param` before connecting). */
  readUrl(): void {
    let results: URL;
    try {
      results = new URL(this.action || '/search', location.href);
    } catch {
      return;
    }
    if (results.origin !== location.origin || results.pathname !== location.pathname) return;
    const query = new URLSearchParams(location.search).get(this.param || 'q');
    if (query !== null && !this.matches(':focus-within')) this.query = query;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('popstate', this.onPopstate);
    clearTimeout(this.timer);
    this.request?.abort();
  }

  private onInput(event: InputEvent): void {
    this.query = (event.target as HTMLInputElement).value;
    this.active = -1;
    clearTimeout(this.timer);
    this.request?.abort();
    if (this.query.trim() === '') {
      this.offerRecent();
      return;
    }
    this.timer = setTimeout(() => void this.fetchOptions(this.query.trim()), SEARCH_BOX_DEBOUNCE_MS);
  }

  /** While the input is empty: the shopper's recent searches, from this browser only. */
  private offerRecent(): void {
    const recent = this.recent > 0 ? readRecentSearches().slice(0, this.recent) : [];
    this.options = recent.length > 0 ? [...recent.map((text): Option => ({ kind: 'recent', text })), { kind: 'clear-recent' }] : [];
    this.active = -1;
    this.open = this.options.length > 0;
  }

  private onFocusin(event: FocusEvent): void {
    if ((event.target as Element | null)?.getAttribute('role') === 'combobox' && this.query.trim() === '' && !this.open) this.offerRecent();
  }

  /** Asks for suggestions and products together; a newer query cancels this one, and failures leave the list empty. */
  private async fetchOptions(query: string): Promise<void> {
    const request = (this.request = new AbortController());
    const [texts, answer] = await Promise.all([
      this.suggestions > 0 ? autocomplete(this, query, this.suggestions, request.signal).catch(() => []) : [],
      this.products > 0 ? search(this, query, { limit: this.products, withoutFacets: true, asYouType: true }, request.signal).catch(() => undefined) : undefined,
    ]);
    if (request.signal.aborted) return;
    const typed = query.toLowerCase();
    const options: Option[] = texts.filter(({ text }) => text.toLowerCase() !== typed).map(({ text, marks }) => ({ kind: 'suggestion', text, marks }));
    if (answer?.redirect) options.push({ kind: 'link', text: answer.redirect.name, url: answer.redirect.url });
    for (const card of answer?.cards ?? []) options.push({ kind: 'product', card });
    if (answer && answer.count > answer.cards.length) options.push({ kind: 'all', count: answer.count });
    this.searchId = answer?.id ?? '';
    this.options = options;
    this.active = -1;
    this.open = options.length > 0 && this.matches(':focus-within');
  }

  private onKeydown(event: KeyboardEvent): void {
    const count = this.options.length;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (count === 0) return;
      if (!this.open) {
        this.open = true;
        this.active = event.key === 'ArrowDown' ? 0 : count - 1;
      } else {
        this.active = event.key === 'ArrowDown' ? (this.active + 1) % count : this.active <= 0 ? count - 1 : this.active - 1;
      }
    } else if (event.key === 'Enter' && this.open && this.active >= 0) {
      event.preventDefault();
      this.choose(this.active);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      // An answer still on its way must not reopen the list the shopper just closed.
      clearTimeout(this.timer);
      this.request?.abort();
      if (this.open) this.close();
      else {
        this.query = '';
        this.options = [];
      }
    } else if (event.key === 'Tab') {
      this.close();
    }
  }

  private close(): void {
    this.open = false;
    this.active = -1;
  }

  private choose(index: number): void {
    const option = this.options[index];
    if (!option) return;
    this.close();
    if (option.kind === 'suggestion' || option.kind === 'recent') {
      this.query = option.text;
      this.goToResults(option.text, 'suggestion');
    } else if (option.kind === 'all') {
      this.goToResults(this.query.trim(), 'search');
    } else if (option.kind === 'clear-recent') {
      clearRecentSearches();
      this.options = [];
      this.shadowRoot?.querySelector('input')?.focus();
    } else if (option.kind === 'link') {
      navigateTo(this, { url: option.url, reason: 'search' });
    } else {
      const { card } = option;
      const position = this.options.filter((entry) => entry.kind === 'product').indexOf(option) + 1;
      announceActivity(this, { action: 'click', productId: card.productId, sourceId: this.searchId, metadata: { query: this.query.trim(), position } });
      if (card.url) navigateTo(this, { url: card.url, reason: 'product' });
    }
  }

  private goToResults(query: string, reason: NavigateDetail['reason']): void {
    if (query === '') return;
    if (this.recent > 0) rememberSearch(query);
    const url = new URL(this.action || '/search', location.href);
    url.searchParams.set(this.param || 'q', query);
    const safe = safeLinkUrl(url.href);
    if (safe) navigateTo(this, { url: safe, reason });
  }

  private onSubmit(event: SubmitEvent): void {
    event.preventDefault();
    this.close();
    this.goToResults(this.query.trim(), 'search');
  }

  private onFocusout(event: FocusEvent): void {
    if (!this.contains(event.relatedTarget as Node) && !this.shadowRoot!.contains(event.relatedTarget as Node)) this.close();
  }

  private optionContent(option: Option): unknown {
    switch (option.kind) {
      case 'product':
        return html`${option.card.photo ? html`<img part="photo" src=${option.card.photo} alt="" />` : nothing}<span part="title">${renderMarked(option.card.title, option.card.titleMarks)}</span
          >${option.card.price ? html`<span part="price">${option.card.price}</span>` : nothing}`;
      case 'suggestion':
        // One inline box: the option is a flex row, so a bare <mark> and the text after it would be two items, a gap apart.
        return html`<span part="text">${renderMarked(option.text, option.marks)}</span>`;
      case 'clear-recent':
        return this.clearRecentLabel;
      case 'all':
        return this.seeAllLabel.replace('{count}', option.count.toLocaleString());
      default:
        return option.text;
    }
  }

  private renderOption(option: Option, index: number): unknown {
    const selected = index === this.active;
    const kind = { product: 'product', suggestion: 'suggestion', link: 'suggestion', recent: 'suggestion recent', 'clear-recent': 'clear-recent', all: 'see-all' }[option.kind];
    const parts = `option ${kind}${selected ? ' active' : ''}`;
    // pointerdown would move focus out of the input; the click chooses.
    return html`<div
      id="option-${index}"
      role="option"
      part=${parts}
      aria-selected=${selected ? 'true' : 'false'}
      @pointerdown=${(event: Event) => event.preventDefault()}
      @click=${() => this.choose(index)}
    >
      ${this.optionContent(option)}
    </div>`;
  }

  protected override render(): unknown {
    const firstProduct = this.options.findIndex((option) => option.kind === 'product');
    const texts = firstProduct === -1 ? this.options : this.options.slice(0, firstProduct);
    const seeAll = this.options.findIndex((option) => option.kind === 'all');
    const products = firstProduct === -1 ? [] : this.options.slice(firstProduct, seeAll === -1 ? undefined : seeAll);
    const recent = this.options[0]?.kind === 'recent';
    return html`<form part="form" role="search" action=${this.action} @submit=${this.onSubmit} @focusout=${this.onFocusout} @focusin=${this.onFocusin}>
      <input
        part="input"
        type="text"
        role="combobox"
        autocomplete="off"
        enterkeyhint="search"
        aria-label=${this.label}
        aria-autocomplete="list"
        aria-controls="listbox"
        aria-expanded=${this.open ? 'true' : 'false'}
        aria-activedescendant=${this.open && this.active >= 0 ? `option-${this.active}` : nothing}
        placeholder=${this.placeholder || nothing}
        .value=${this.query}
        @input=${this.onInput}
        @keydown=${this.onKeydown}
      />
      <button part="button" type="submit">${this.label}</button>
      <div id="listbox" part="listbox" role="listbox" aria-label=${this.label} ?hidden=${!this.open}>
        ${recent
          ? html`<div role="group" aria-labelledby="recent-label">
              <div id="recent-label" part="group-label" role="presentation">${this.recentLabel}</div>
              ${texts.map((option, index) => this.renderOption(option, index))}
            </div>`
          : texts.map((option, index) => this.renderOption(option, index))}
        ${firstProduct === -1
          ? nothing
          : html`<div role="group" aria-labelledby="products-label">
              <div id="products-label" part="group-label" role="presentation">${this.productsLabel}</div>
              ${products.map((option, offset) => this.renderOption(option, firstProduct + offset))}
            </div>`}
        ${seeAll === -1 ? nothing : this.renderOption(this.options[seeAll]!, seeAll)}
      </div>
    </form>`;
  }
}
