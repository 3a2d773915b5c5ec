/** Widgets: edit strategies, result counts and filters, create new ones, and preview what a widget recommends for a product or a profile. */
import { html, nothing } from 'lit';
import type { AdminWidget, WidgetListResponse, WidgetPreviewResponse, WidgetStrategy } from '@discovery-kit/protocol';
import { adminFetch } from './admin-client.js';
import { ConsoleElement, errorText } from './console-element.js';

/**
 * Every strategy, in the order the form offers them. A record rather than a list: a strategy added to
 * the protocol's WidgetStrategy (which must equal the server's StrategyName, apis/wire-conformance.ts)
 * and missing here fails the type check instead of being silently absent from the form.
 */
const OFFERED: Record<WidgetStrategy, true> = {
  popular: true,
  'top-sellers': true,
  trending: true,
  similar: true,
  'also-viewed': true,
  'bought-together': true,
  personalized: true,
  'recently-viewed': true,
};
const STRATEGIES = Object.keys(OFFERED) as WidgetStrategy[];

export class WidgetsPage extends ConsoleElement {
  static override properties = { ...ConsoleElement.properties, widgets: { state: true }, selected: { state: true }, preview: { state: true }, error: { state: true } };
  declare widgets: AdminWidget[];
  declare selected: string;
  declare preview: WidgetPreviewResponse | undefined;
  declare error: string;

  constructor() {
    super();
    this.widgets = [];
    this.selected = '';
    this.error = '';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  async load(): Promise<void> {
    try {
      this.widgets = (await adminFetch<WidgetListResponse>('/widgets')).widgets;
      if (!this.widgets.some((w) => w.id === this.selected)) this.selected = this.widgets[0]?.id ?? '';
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private async submit(event: SubmitEvent, widget: AdminWidget): Promise<void> {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    let filters: unknown;
    try {
      filters = JSON.parse(String(data.get('filters') || '[]'));
    } catch {
      this.saveState = { kind: 'failed', text: 'Not saved: filters must be a JSON list, such as [{"sameAs": "brand"}].' };
      return;
    }
    const next = {
      ...widget,
      title: String(data.get('title') ?? ''),
      strategies: data.getAll('strategies').map(String),
      minResults: Number(data.get('minResults')),
      maxResults: Number(data.get('maxResults')),
      filters,
    };
    if (await this.save(() => adminFetch(`/widgets/${encodeURIComponent(widget.id)}`, { method: 'PUT', json: next }), `Widget ${widget.id} saved.`)) await this.load();
  }

  private async create(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const input = this.querySelector('#new-widget') as HTMLInputElement;
    const id = input.value.trim();
    if (await this.save(() => adminFetch(`/widgets/${encodeURIComponent(id)}`, { method: 'PUT', json: { title: id, strategies: ['popular'] } }), `Widget ${id} created.`)) {
      this.selected = id;
      input.value = '';
      await this.load();
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
    try {
      this.preview = await adminFetch<WidgetPreviewResponse>(`/widgets/${encodeURIComponent(this.selected)}/preview?${params}`);
      this.error = '';
    } catch (error) {
      this.preview = undefined;
      this.error = errorText(error);
    }
  }

  override render() {
    const widget = this.widgets.find((w) => w.id === this.selected);
    return html`
      <h1>Widgets</h1>
      ${this.error !== '' ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${this.statusView()}
      <p>
        <label for="widget-select">Widget</label>
        <select id="widget-select" @change=${(e: Event) => ((this.selected = (e.target as HTMLSelectElement).value), (this.preview = undefined))}>
          ${this.widgets.map((w) => html`<option value=${w.id} ?selected=${w.id === this.selected}>${w.title || w.id} (${w.id})</option>`)}
        </select>
      </p>
      ${widget === undefined
        ? nothing
        : html`<form class="widget-form" @submit=${(e: SubmitEvent) => this.submit(e, widget)}>
            <label for="w-title">Title</label><input id="w-title" name="title" .value=${widget.title} />
            <fieldset><legend>Strategies, in order of preference</legend>
              ${STRATEGIES.map((s) => html`<label class="check"><input type="checkbox" name="strategies" value=${s} .checked=${widget.strategies.includes(s)} /> ${s}</label>`)}
            </fieldset>
            <label for="w-min">Fewest results</label><input id="w-min" name="minResults" type="number" min="0" max="100" .value=${String(widget.minResults)} />
            <label for="w-max">Most results</label><input id="w-max" name="maxResults" type="number" min="1" max="100" .value=${String(widget.maxResults)} />
            <label for="w-filters">Filters (JSON)</label><textarea id="w-filters" name="filters" rows="3" .value=${JSON.stringify(widget.filters)}></textarea>
            <button type="submit">Save widget</button>
          </form>
          <section aria-labelledby="preview-heading">
            <h2 id="preview-heading">Preview</h2>
            <form class="inline" @submit=${(e: SubmitEvent) => this.runPreview(e)}>
              <label for="p-product">For product id</label><input id="p-product" name="productId" />
              <label for="p-profile">For profile id</label><input id="p-profile" name="profileId" />
              <button type="submit">Preview</button>
            </form>
            ${this.preview === undefined
              ? nothing
              : html`<ol class="preview">${this.preview.recommendations.map((r) => html`<li>${r.product.title ?? r.product._id?.original_id} <small>${r.product._id?.original_id} · ${r.strategy}</small></li>`)}</ol>`}
          </section>`}
      <form class="inline" @submit=${(e: SubmitEvent) => this.create(e)}>
        <label for="new-widget">New widget id</label><input id="new-widget" required pattern="[A-Za-z0-9][A-Za-z0-9._-]*" />
        <button type="submit">Create widget</button>
      </form>
    `;
  }
}
