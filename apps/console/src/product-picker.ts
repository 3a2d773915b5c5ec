/**
 * `<dk-product-picker>`: wherever the console asks for a product, the merchandiser types part of its
 * title and picks it from a list with its photo, price and id (an ARIA 1.2 combobox: arrows move,
 * Enter picks, Escape closes). It searches through the admin explain endpoint of the environment's
 * first search token, which counts no shopper search. A `pick` event carries `{ id, title }`.
 */
import { html, nothing } from 'lit';
import type { ExplainedHit, SearchExplanation, SearchTokenListResponse } from '@discovery-kit/protocol';
import { adminFetch } from './admin-client.js';
import { ConsoleElement, errorText } from './console-element.js';

export interface PickDetail {
  id: string;
  title: string;
}

const DEBOUNCE_MS = 200;
let pickers = 0;

export class ProductPicker extends ConsoleElement {
  static override properties = {
    ...ConsoleElement.properties,
    label: {},
    action: {},
    token: {},
    hits: { state: true },
    active: { state: true },
    open: { state: true },
    message: { state: true },
  };
  /** The field's label, e.g. "Pin a product". */
  declare label: string;
  /** The button's text, e.g. "Pin". */
  declare action: string;
  /** Search token to search with; the environment's first one when empty. */
  declare token: string;
  declare hits: ExplainedHit[];
  declare active: number;
  declare open: boolean;
  declare message: string;
  private readonly uid = `picker-${++pickers}`;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private asked = 0;
  private chosen: PickDetail | undefined;

  constructor() {
    super();
    this.label = 'Product';
    this.action = 'Choose';
    this.token = '';
    this.hits = [];
    this.active = -1;
    this.open = false;
    this.message = '';
  }

  private get input(): HTMLInputElement {
    return this.querySelector('input')!;
  }

  private async searchToken(): Promise<string> {
    if (this.token === '') this.token = (await adminFetch<SearchTokenListResponse>('/search-tokens')).searchTokens[0]?.token ?? '';
    return this.token;
  }

  private typed(): void {
    this.chosen = undefined;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.find(this.input.value.trim()), DEBOUNCE_MS);
  }

  private async find(text: string): Promise<void> {
    const ask = ++this.asked;
    if (text === '') {
      this.open = false;
      this.hits = [];
      return;
    }
    try {
      const token = await this.searchToken();
      const found = await adminFetch<SearchExplanation>(`/search-tokens/${encodeURIComponent(token)}/explain?${new URLSearchParams({ q: text, limit: '8' })}`);
      if (ask !== this.asked) return;
      this.hits = found.hits;
      this.active = found.hits.length > 0 ? 0 : -1;
      this.message = found.hits.length === 0 ? `No product matches “${text}”.` : `${found.hits.length} products found.`;
      this.open = true;
    } catch (error) {
      this.message = errorText(error);
    }
  }

  private choose(hit: ExplainedHit): void {
    this.chosen = { id: hit.id, title: hit.title || hit.id };
    this.input.value = this.chosen.title;
    this.open = false;
    this.message = `${this.chosen.title} (${hit.id}) chosen.`;
  }

  private submit(event: SubmitEvent): void {
    event.preventDefault();
    if (this.open && this.active >= 0) this.choose(this.hits[this.active]!);
    if (this.chosen === undefined) {
      this.message = 'Type part of a title and choose a product first.';
      return;
    }
    this.dispatchEvent(new CustomEvent<PickDetail>('pick', { detail: this.chosen, bubbles: true }));
    this.chosen = undefined;
    this.input.value = '';
  }

  private key(event: KeyboardEvent): void {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!this.open) return void (this.open = this.hits.length > 0);
      const step = event.key === 'ArrowDown' ? 1 : -1;
      this.active = (this.active + step + this.hits.length) % Math.max(1, this.hits.length);
    } else if (event.key === 'Escape' && this.open) {
      event.preventDefault();
      this.open = false;
    } else if (event.key === 'Enter' && this.open && this.active >= 0) {
      event.preventDefault();
      this.choose(this.hits[this.active]!);
    }
  }

  private price(hit: ExplainedHit): string {
    if (hit.price === undefined) return '';
    return (hit.price / 100).toLocaleString(undefined, hit.currency === undefined ? { minimumFractionDigits: 2 } : { style: 'currency', currency: hit.currency });
  }

  override render() {
    const list = `${this.uid}-list`;
    return html`<form class="picker" @submit=${(e: SubmitEvent) => this.submit(e)}>
      <label for="${this.uid}-input">${this.label}</label>
      <div class="picker-row">
        <div class="picker-field">
          <input
            id="${this.uid}-input"
            type="text"
            role="combobox"
            autocomplete="off"
            placeholder="Type part of a title"
            aria-autocomplete="list"
            aria-expanded=${this.open ? 'true' : 'false'}
            aria-controls=${list}
            aria-activedescendant=${this.open && this.active >= 0 ? `${this.uid}-option-${this.active}` : nothing}
            @input=${() => this.typed()}
            @keydown=${(e: KeyboardEvent) => this.key(e)}
            @blur=${() => setTimeout(() => (this.open = false), 150)}
          />
          <ul id=${list} role="listbox" aria-label="Products" class="picker-list" ?hidden=${!this.open || this.hits.length === 0}>
            ${this.hits.map(
              (hit, index) => html`<li
                id="${this.uid}-option-${index}"
                role="option"
                aria-selected=${index === this.active ? 'true' : 'false'}
                data-product=${hit.id}
                @pointerdown=${(e: Event) => e.preventDefault()}
                @click=${() => this.choose(hit)}
              >
                ${hit.photo !== '' ? html`<img src=${hit.photo} alt="" width="40" height="40" />` : html`<span class="no-photo"></span>`}
                <span class="picker-title">${hit.title || hit.id}</span>
                <span class="picker-meta">${this.price(hit)} · ${hit.id}</span>
              </li>`,
            )}
          </ul>
        </div>
        <button type="submit">${this.action}</button>
      </div>
      <p class="picker-status" role="status" aria-live="polite">${this.message}</p>
    </form>`;
  }
}
