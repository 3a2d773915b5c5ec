/** `<discovery-search-box>`: an ARIA 1.2 combobox with autocomplete suggestions and instant product results. */
import { LitElement, html, nothing } from 'lit';
import { announceActivity, navigateTo } from '../events.js';
import type { NavigateDetail } from '../events.js';
import type { ProductCard } from '../product-card.js';
import { safeLinkUrl } from '../safe-url.js';
import { autocomplete, search } from '../search-request.js';
import { searchBoxStyles } from './search-box.styles.js';

/** Typing pauses shorter than this send no request. */
export const SEARCH_BOX_DEBOUNCE_MS = 150;

type Option = { kind: 'suggestion'; text: string } | { kind: 'link'; text: string; url: string } | { kind: 'product'; card: ProductCard };

/**
 * A search input that suggests earlier shoppers' queries and shows a few matching products as the
 * shopper types. Focus stays in the input; `aria-activedescendant` names the highlighted option.
 * Enter (or the button) goes to the shop's results page `action?param=query`.
 *
 * @attr action - the results page (default `/search`)
 * @attr param - its query parameter (default `q`)
 * @attr placeholder - the input's placeholder
 * @attr label - accessible name of the input and text of the button (default `Search`)
 * @attr products-label - heading of the instant products in the list (default `Products`)
 * @attr suggestions - how many suggestions (default 5; 0 for none)
 * @attr products - how many instant product results (default 4; 0 for none)
 * @attr api-base, search-token - override `configureToolkit`
 * @fires discovery-navigate - cancelable, before leaving for a results page or a product
 * @fires discovery-activity - `click` on a chosen product, `sourceId` the search id
 * @csspart form, input, button, listbox, option, suggestion, product, active, group-label, photo, title, price
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

  constructor() {
    super();
    this.action = '/search';
    this.param = 'q';
    this.placeholder = '';
    this.label = 'Search';
    this.productsLabel = 'Products';
    this.suggestions = 5;
    this.products = 4;
    this.apiBase = null;
    this.searchToken = null;
    this.query = '';
    this.options = [];
    this.open = false;
    this.active = -1;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.timer);
    this.request?.abort();
  }

  private onInput(event: InputEvent): void {
    this.query = (event.target as HTMLInputElement).value;
    this.active = -1;
    clearTimeout(this.timer);
    this.request?.abort();
    if (this.query.trim() === '') {
      this.options = [];
      this.open = false;
      return;
    }
    this.timer = setTimeout(() => void this.fetchOptions(this.query.trim()), SEARCH_BOX_DEBOUNCE_MS);
  }

  /** Asks for suggestions and products together; a newer query cancels this one, and failures leave the list empty. */
  private async fetchOptions(query: string): Promise<void> {
    const request = (this.request = new AbortController());
    const [texts, answer] = await Promise.all([
      this.suggestions > 0 ? autocomplete(this, query, this.suggestions, request.signal).catch(() => []) : [],
      this.products > 0 ? search(this, query, { limit: this.products, withoutFacets: true }, request.signal).catch(() => undefined) : undefined,
    ]);
    if (request.signal.aborted) return;
    const typed = query.toLowerCase();
    const options: Option[] = texts.filter((text) => text.toLowerCase() !== typed).map((text) => ({ kind: 'suggestion', text }));
    if (answer?.redirect) options.push({ kind: 'link', text: answer.redirect.name, url: answer.redirect.url });
    for (const card of answer?.cards ?? []) options.push({ kind: 'product', card });
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
    if (option.kind === 'suggestion') {
      this.query = option.text;
      this.goToResults(option.text, 'suggestion');
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

  private renderOption(option: Option, index: number): unknown {
    const selected = index === this.active;
    const parts = `option ${option.kind === 'product' ? 'product' : 'suggestion'}${selected ? ' active' : ''}`;
    // pointerdown would move focus out of the input; the click chooses.
    return html`<div
      id="option-${index}"
      role="option"
      part=${parts}
      aria-selected=${selected ? 'true' : 'false'}
      @pointerdown=${(event: Event) => event.preventDefault()}
      @click=${() => this.choose(index)}
    >
      ${option.kind === 'product'
        ? html`${option.card.photo ? html`<img part="photo" src=${option.card.photo} alt="" />` : nothing}<span part="title">${option.card.title}</span
            >${option.card.price ? html`<span part="price">${option.card.price}</span>` : nothing}`
        : option.text}
    </div>`;
  }

  protected override render(): unknown {
    const firstProduct = this.options.findIndex((option) => option.kind === 'product');
    const texts = firstProduct === -1 ? this.options : this.options.slice(0, firstProduct);
    return html`<form part="form" role="search" action=${this.action} @submit=${this.onSubmit} @focusout=${this.onFocusout}>
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
        ${texts.map((option, index) => this.renderOption(option, index))}
        ${firstProduct === -1
          ? nothing
          : html`<div role="group" aria-labelledby="products-label">
              <div id="products-label" part="group-label" role="presentation">${this.productsLabel}</div>
              ${this.options.slice(firstProduct).map((option, offset) => this.renderOption(option, firstProduct + offset))}
            </div>`}
      </div>
    </form>`;
  }
}
