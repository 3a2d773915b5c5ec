/** Widgets: edit strategies, result counts and filters, create new ones, and preview what a widget recommends for a product or a profile. */
import { html, nothing } from 'lit';
import type { AdminWidget, WidgetListResponse, WidgetPreviewResponse, WidgetStrategy } from '@discovery-kit/protocol';
import { adminFetch } from './admin-client.js';
import { ConsolePage } from './console-page.js';
import type { PickDetail } from './product-picker.js';
import { strategyListView } from './strategy-list.js';
import { filterRowsView, toFilters, toRows, type FilterRow } from './widget-filters.js';

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
            ${strategyListView(this, this.order, (order) => (this.order = order), 'Strategies, in order of preference: the first that has enough answers fills the widget')}
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
