/** Widgets: edit strategies, result counts and filters, create new ones, and preview what a widget recommends for a product or a profile. */
import { html, nothing } from 'lit';
import type { AdminWidget, WidgetListResponse, WidgetPreviewResponse, WidgetStrategy } from '@discovery-kit/protocol';
import { adminFetch } from './admin-client.js';
import { ConsolePage } from './console-page.js';
import type { PickDetail } from './product-picker.js';
import { filterRowsView, toFilters, toRows, type FilterRow } from './widget-filters.js';

/** Every strategy with what it does, in words (a Record: a strategy added to the protocol and missing here does not compile). */
const STRATEGY_LABELS: Record<WidgetStrategy, string> = {
  popular: 'Popular: most viewed and bought overall',
  'top-sellers': 'Top sellers: most bought',
  trending: 'Trending: rising this week',
  similar: 'Similar: like the product shown',
  'also-viewed': 'Also viewed: by shoppers who viewed the product',
  'bought-together': 'Bought together: in the same orders',
  personalized: 'Picked for the shopper: from their own history',
  'recently-viewed': 'Recently viewed: by this shopper',
  'buy-again': 'Buy it again: the shopper\'s own purchases, when due',
};
const STRATEGIES = Object.keys(STRATEGY_LABELS) as WidgetStrategy[];

/** `strategies` with the one at `index` moved by `step` (−1 up, +1 down). */
export function moveStrategy(strategies: readonly WidgetStrategy[], index: number, step: -1 | 1): WidgetStrategy[] {
  const next = [...strategies];
  const target = index + step;
  if (target < 0 || target >= next.length) return next;
  [next[index], next[target]] = [next[target]!, next[index]!];
  return next;
}

export class WidgetsPage extends ConsolePage {
  protected readonly heading = 'Widgets';
  static override properties = { ...ConsolePage.properties, widgets: { state: true }, selected: { state: true }, preview: { state: true }, order: { state: true }, filterRows: { state: true } };
  declare widgets: AdminWidget[];
  /** The selected widget's strategies as being edited, in order of preference. */
  declare order: WidgetStrategy[];
  /** The selected widget's filters as being edited. */
  declare filterRows: FilterRow[];
  declare selected: string;
  declare preview: WidgetPreviewResponse | undefined;

  constructor() {
    super();
    this.widgets = [];
    this.selected = '';
    this.order = [];
    this.filterRows = [];
  }

  protected async load(): Promise<void> {
    this.widgets = (await adminFetch<WidgetListResponse>('/widgets')).widgets;
    if (!this.widgets.some((w) => w.id === this.selected)) this.selected = this.widgets[0]?.id ?? '';
    this.order = [...(this.widgets.find((w) => w.id === this.selected)?.strategies ?? [])];
    this.filterRows = toRows(this.widgets.find((w) => w.id === this.selected)?.filters ?? []);
  }

  private select(id: string): void {
    this.selected = id;
    this.preview = undefined;
    this.order = [...(this.widgets.find((w) => w.id === id)?.strategies ?? [])];
    this.filterRows = toRows(this.widgets.find((w) => w.id === id)?.filters ?? []);
  }

  /** Moves a strategy and keeps the focus on the same strategy's button, so a keyboard user can keep moving it. */
  private async move(index: number, step: -1 | 1): Promise<void> {
    const strategy = this.order[index]!;
    this.order = moveStrategy(this.order, index, step);
    await this.updateComplete;
    const edge = index + step < 0 || index + step >= this.order.length;
    this.querySelector<HTMLButtonElement>(`[data-strategy="${strategy}"] button[data-move="${edge ? -step : step}"]`)?.focus();
  }

  private strategiesView() {
    const unused = STRATEGIES.filter((s) => !this.order.includes(s));
    return html`<fieldset class="strategies"><legend>Strategies, in order of preference: the first that has enough answers fills the widget</legend>
      <ol>
        ${this.order.map(
          (s, i) => html`<li data-strategy=${s}>
            <span>${STRATEGY_LABELS[s]}</span>
            <span class="moves">
              <button type="button" class="secondary" data-move="-1" aria-label="Move ${s} up" ?disabled=${i === 0} @click=${() => this.move(i, -1)}>↑</button>
              <button type="button" class="secondary" data-move="1" aria-label="Move ${s} down" ?disabled=${i === this.order.length - 1} @click=${() => this.move(i, 1)}>↓</button>
              <button type="button" class="danger" aria-label="Remove ${s}" ?disabled=${this.order.length === 1} @click=${() => (this.order = this.order.filter((x) => x !== s))}>Remove</button>
            </span>
          </li>`,
        )}
      </ol>
      ${unused.length === 0
        ? nothing
        : html`<label for="add-strategy">Add a strategy</label>
            <span class="add-strategy">
              <select id="add-strategy">${unused.map((s) => html`<option value=${s}>${STRATEGY_LABELS[s]}</option>`)}</select>
              <button type="button" class="secondary" @click=${() => (this.order = [...this.order, (this.querySelector('#add-strategy') as HTMLSelectElement).value as WidgetStrategy])}>Add</button>
            </span>`}
    </fieldset>`;
  }

  private async submit(event: SubmitEvent, widget: AdminWidget): Promise<void> {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    // The JSON, when an expert opened it, else the rows.
    let filters: unknown = toFilters(this.filterRows);
    if (this.querySelector<HTMLDetailsElement>('details.filters-json')?.open === true) {
      try {
        filters = JSON.parse(String(data.get('filters') || '[]'));
      } catch {
        this.saveState = { kind: 'failed', text: 'Not saved: filters must be a JSON list, such as [{"sameAs": "brand"}].' };
        return;
      }
    }
    const next = {
      ...widget,
      title: String(data.get('title') ?? ''),
      strategies: this.order,
      minResults: Number(data.get('minResults')),
      maxResults: Number(data.get('maxResults')),
      filters,
    };
    if (await this.save(() => adminFetch(`/widgets/${encodeURIComponent(widget.id)}`, { method: 'PUT', json: next }), `Widget ${widget.id} saved.`)) await this.reload();
  }

  private async create(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const input = this.querySelector('#new-widget') as HTMLInputElement;
    const id = input.value.trim();
    if (await this.save(() => adminFetch(`/widgets/${encodeURIComponent(id)}`, { method: 'PUT', json: { title: id, strategies: ['popular'] } }), `Widget ${id} created.`)) {
      this.selected = id;
      input.value = '';
      await this.reload();
    }
  }

  private async runPreview(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    const params = new URLSearchParams();
    for (const name of ['productId', 'profileId']) {
      const value = String(data.get(name) ?? '').trim();
      if (value !== '') params.set(name, value);
    }
    this.preview = undefined;
    await this.attempt(async () => void (this.preview = await adminFetch<WidgetPreviewResponse>(`/widgets/${encodeURIComponent(this.selected)}/preview?${params}`)));
  }

  protected body() {
    const widget = this.widgets.find((w) => w.id === this.selected);
    return html`
      <p>
        <label for="widget-select">Widget</label>
        <select id="widget-select" @change=${(e: Event) => this.select((e.target as HTMLSelectElement).value)}>
          ${this.widgets.map((w) => html`<option value=${w.id} ?selected=${w.id === this.selected}>${w.title || w.id} (${w.id})</option>`)}
        </select>
      </p>
      ${widget === undefined
        ? nothing
        : html`<form class="widget-form" @submit=${(e: SubmitEvent) => this.submit(e, widget)}>
            <label for="w-title">Title</label><input id="w-title" name="title" .value=${widget.title} />
            ${this.strategiesView()}
            <label for="w-min">Fewest results</label><input id="w-min" name="minResults" type="number" min="0" max="100" .value=${String(widget.minResults)} />
            <label for="w-max">Most results</label><input id="w-max" name="maxResults" type="number" min="1" max="100" .value=${String(widget.maxResults)} />
            ${filterRowsView(this.filterRows, (rows) => (this.filterRows = rows))}
            <details class="filters-json"><summary>Filters as JSON, for experts (used instead of the rows while open)</summary>
              <label for="w-filters">Filters (JSON), for example [{"sameAs": "brand"}, {"where": "price < $price"}]</label><textarea id="w-filters" name="filters" rows="3" .value=${JSON.stringify(toFilters(this.filterRows))}></textarea>
            </details>
            <button type="submit">Save widget</button>
          </form>
          <section aria-labelledby="preview-heading">
            <h2 id="preview-heading">Preview</h2>
            <dk-product-picker label="Find a product for the preview by its title" action="Use this product" @pick=${(e: CustomEvent<PickDetail>) => ((this.querySelector('#p-product') as HTMLInputElement).value = e.detail.id)}></dk-product-picker>
            <form class="inline" @submit=${(e: SubmitEvent) => this.runPreview(e)}>
              <label for="p-product">For product id</label><input id="p-product" name="productId" />
              <label for="p-profile">For profile id</label><input id="p-profile" name="profileId" />
              <button type="submit">Preview</button>
            </form>
            ${this.preview === undefined
              ? nothing
              : html`<ol class="preview">
                  ${this.preview.recommendations.map(
                    (r) => html`<li>
                      ${r.product.photo ? html`<img src=${r.product.photo} alt="" width="120" height="120" />` : html`<span class="no-photo"></span>`}
                      <span class="preview-title">${r.product.title ?? r.product._id?.original_id}</span>
                      <small>${typeof r.product.price === 'number' ? `${(r.product.price / 100).toFixed(2)} · ` : ''}${r.product._id?.original_id} · ${r.strategy}</small>
                    </li>`,
                  )}
                </ol>`}
          </section>`}
      <form class="inline" @submit=${(e: SubmitEvent) => this.create(e)}>
        <label for="new-widget">New widget id</label><input id="new-widget" required pattern="[A-Za-z0-9][A-Za-z0-9._-]*" />
        <button type="submit">Create widget</button>
      </form>
    `;
  }
}
