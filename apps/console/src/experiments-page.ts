/**
 * Experiments: test a widget's settings or a search configuration against the current ones, start and
 * stop the test, watch the per-variant table and the primary metric by day, read the verdict, and
 * apply the winner (docs/experiments.md).
 */
import { html, nothing } from 'lit';
import type { AdminWidget, Experiment, ExperimentListResponse, ExperimentResults, SearchTokenListResponse, WidgetListResponse, WidgetStrategy } from '@discovery-kit/protocol';
import { adminFetch } from './admin-client.js';
import { columnChart } from './charts.js';
import { ConsolePage } from './console-page.js';
import { METRIC_NAMES, verdict } from './experiment-verdict.js';
import { strategyListView } from './strategy-list.js';

/** How often a running experiment's results are read again while the page is open. */
const REFRESH_MS = 10_000;

const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;
const money = (minor: number) => (minor / 100).toFixed(2);

export class ExperimentsPage extends ConsolePage {
  protected readonly heading = 'Experiments';
  static override properties = { ...ConsolePage.properties, experiments: { state: true }, widgets: { state: true }, surfaces: { state: true }, selected: { state: true }, results: { state: true }, surface: { state: true }, order: { state: true } };
  declare experiments: Experiment[];
  declare widgets: AdminWidget[];
  /** `widget:<id>` or `search:<token>/<configuration>`. */
  declare surfaces: string[];
  declare surface: string;
  /** Variant b's strategies as being edited, when the surface is a widget: they start as the widget's own. */
  declare order: WidgetStrategy[];
  declare selected: string;
  declare results: ExperimentResults | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor() {
    super();
    this.experiments = [];
    this.widgets = [];
    this.surfaces = [];
    this.surface = '';
    this.selected = '';
    this.order = [];
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.timer = setInterval(() => {
      if (this.experiments.find((e) => e.id === this.selected)?.status === 'running') void this.loadResults();
    }, REFRESH_MS);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearInterval(this.timer);
  }

  protected async load(): Promise<void> {
    const [experiments, widgets, tokens] = await Promise.all([adminFetch<ExperimentListResponse>('/experiments'), adminFetch<WidgetListResponse>('/widgets'), adminFetch<SearchTokenListResponse>('/search-tokens')]);
    this.experiments = experiments.experiments;
    this.widgets = widgets.widgets;
    this.surfaces = [...widgets.widgets.map((w) => `widget:${w.id}`), ...tokens.searchTokens.flatMap((t) => t.configurations.map((c) => `search:${t.token}/${c.id}`))];
    if (this.surface === '') this.pickSurface(this.surfaces[0] ?? '');
    if (!this.experiments.some((e) => e.id === this.selected)) this.selected = this.experiments.at(-1)?.id ?? '';
    await this.readResults();
  }

  private async readResults(): Promise<void> {
    this.results = this.selected === '' ? undefined : await adminFetch<ExperimentResults>(`/experiments/${encodeURIComponent(this.selected)}/results`);
  }

  /** Reads the selected experiment's results again; a failure is shown as the page's error. */
  async loadResults(): Promise<void> {
    await this.attempt(() => this.readResults());
  }

  private pickSurface(surface: string): void {
    this.surface = surface;
    this.order = [...(this.widgets.find((w) => `widget:${w.id}` === surface)?.strategies ?? [])];
  }

  /** The new experiment's variant b edits the surface the way the widgets page (strategies, sizes) or the tuning page's JSON does. */
  private async create(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    const id = String(data.get('id') ?? '').trim();
    const weight = Number(data.get('weight'));
    let override: Record<string, unknown>;
    const [kind, rest] = this.surface.split(/:(.*)/s) as [string, string];
    if (kind === 'widget') {
      override = { strategies: this.order, maxResults: Number(data.get('maxResults')) };
    } else {
      try {
        override = JSON.parse(String(data.get('configuration') || '{}')) as Record<string, unknown>;
      } catch {
        this.saveState = { kind: 'failed', text: 'Not saved: the variant’s configuration must be a JSON object, such as {"synonyms": [["bag", "satchel"]]}.' };
        return;
      }
    }
    const [token, configurationId] = rest.split('/') as [string, string];
    const body = {
      name: String(data.get('name') ?? '').trim() || id,
      ...(kind === 'widget' ? { widget: rest } : { searchToken: token, configurationId }),
      primaryMetric: String(data.get('primaryMetric')),
      variants: [{ id: 'control', weight: 100 - weight }, { id: 'b', weight, [kind === 'widget' ? 'widget' : 'configuration']: override }],
    };
    if (await this.save(() => adminFetch(`/experiments/${encodeURIComponent(id)}`, { method: 'PUT', json: body }), `Experiment ${id} saved as a draft.`)) {
      this.selected = id;
      await this.reload();
    }
  }

  private async act(action: 'start' | 'stop' | 'apply' | 'delete', variant?: string): Promise<void> {
    const id = this.selected;
    if (action === 'delete' && !confirm(`Delete experiment ${id} and its results?`)) return;
    const path = `/experiments/${encodeURIComponent(id)}${action === 'delete' ? '' : `/${action}`}`;
    const done = { start: `Experiment ${id} started.`, stop: `Experiment ${id} stopped.`, apply: `Variant ${variant} applied.`, delete: `Experiment ${id} deleted.` }[action];
    const init = action === 'delete' ? { method: 'DELETE' } : { method: 'POST', json: action === 'apply' ? { variant } : {} };
    if (await this.save(() => adminFetch(path, init), done)) await this.reload();
  }

  private createForm() {
    const widget = this.surface.startsWith('widget:') ? this.widgets.find((w) => `widget:${w.id}` === this.surface) : undefined;
    return html`<section aria-labelledby="new-heading">
      <h2 id="new-heading">New experiment</h2>
      <form class="experiment-form" @submit=${(e: SubmitEvent) => this.create(e)}>
        <label for="x-id">Experiment id</label><input id="x-id" name="id" required pattern="[A-Za-z0-9][A-Za-z0-9._-]*" />
        <label for="x-name">Name</label><input id="x-name" name="name" />
        <label for="x-surface">What to test</label>
        <select id="x-surface" @change=${(e: Event) => this.pickSurface((e.target as HTMLSelectElement).value)}>
          ${this.surfaces.map((s) => html`<option value=${s} ?selected=${s === this.surface}>${s.startsWith('widget:') ? `Widget ${s.slice(7)}` : `Search ${s.slice(7)}`}</option>`)}
        </select>
        <label for="x-weight">Shoppers in variant b (%)</label><input id="x-weight" name="weight" type="number" min="1" max="99" value="50" />
        <label for="x-metric">Primary metric</label>
        <select id="x-metric" name="primaryMetric">${Object.entries(METRIC_NAMES).map(([id, name]) => html`<option value=${id} ?selected=${id === 'conversionRate'}>${name}</option>`)}</select>
        ${widget !== undefined
          ? html`${strategyListView(this, this.order, (order) => (this.order = order), 'Variant b: strategies, in order of preference')}
              <label for="x-max">Variant b: most results</label><input id="x-max" name="maxResults" type="number" min="1" max="100" .value=${String(widget.maxResults)} />`
          : html`<label for="x-configuration">Variant b: configuration fields to change (JSON: rules, synonyms, fields, defaultSort…)</label>
              <textarea id="x-configuration" name="configuration" rows="4">{}</textarea>`}
        <button type="submit">Save draft</button>
      </form>
    </section>`;
  }

  private resultsView(experiment: Experiment, results: ExperimentResults) {
    const metric = results.primaryMetric;
    const rateOf = (d: { users: number; exposures: number; clicks: number; conversions: number; revenue: number }) =>
      metric === 'clickThroughRate' ? (d.exposures > 0 ? d.clicks / d.exposures : 0) : metric === 'revenuePerUser' ? (d.users > 0 ? d.revenue / d.users / 100 : 0) : d.users > 0 ? d.conversions / d.users : 0;
    return html`
      <p class="verdict" data-verdict>${verdict(results)}</p>
      ${results.srm.flagged ? html`<p class="error" role="alert" data-srm>Sample ratio mismatch: the shoppers are not split as the weights say (p = ${results.srm.pValue.toExponential(1)}). Something serves one variant more than the other; do not trust these figures.</p>` : nothing}
      <table class="results">
        <caption>Per variant${results.outliers.users > 0 ? ` (${results.outliers.users} outlier shoppers left out)` : ''}${results.capped ? '; the newest shoppers are no longer counted' : ''}</caption>
        <thead><tr><th scope="col">Variant</th><th scope="col">Weight</th><th scope="col">Shoppers</th><th scope="col">Exposures</th><th scope="col">Click-through</th><th scope="col">Add-to-cart</th><th scope="col">Conversion</th><th scope="col">Revenue</th><th scope="col">Per shopper</th>${experiment.status === 'stopped' ? html`<th scope="col">Apply</th>` : nothing}</tr></thead>
        <tbody>${results.variants.map(
          (v) => html`<tr data-variant=${v.variant}><th scope="row">${v.variant}</th><td>${v.weight}%</td><td data-users>${v.users}</td><td>${v.exposures}</td><td>${percent(v.clickThroughRate)}</td><td>${percent(v.addToCartRate)}</td><td data-conversions=${v.conversions}>${percent(v.conversionRate)}</td><td>${money(v.revenue)}</td><td>${money(v.revenuePerUser)}</td>
            ${experiment.status === 'stopped' ? html`<td><button type="button" @click=${() => this.act('apply', v.variant)} aria-label="Apply variant ${v.variant}">${experiment.appliedVariant === v.variant ? 'Applied' : 'Apply'}</button></td>` : nothing}</tr>`,
        )}</tbody>
      </table>
      <div class="charts">
        ${results.variants.map((v) => {
          // Each day's bar is the rate from the start up to that day: where it settles is the answer.
          const total = { users: 0, exposures: 0, clicks: 0, conversions: 0, revenue: 0 };
          const bars = results.days.map((d) => {
            const day = d.variants[v.variant];
            if (day !== undefined) for (const key of Object.keys(total) as Array<keyof typeof total>) total[key] += day[key];
            return { label: d.date, value: rateOf(total) * (metric === 'revenuePerUser' ? 1 : 100) };
          });
          return columnChart({ id: `experiment-${v.variant}`, title: `${METRIC_NAMES[metric]} so far, by day, ${v.variant}`, bars, format: (n) => (metric === 'revenuePerUser' ? n.toFixed(2) : `${n.toFixed(1)}%`) });
        })}
      </div>`;
  }

  protected body() {
    const experiment = this.experiments.find((e) => e.id === this.selected);
    return html`
      ${this.experiments.length === 0
        ? html`<p>No experiment yet: test a widget or a search configuration against the current one below.</p>`
        : html`<p>
            <label for="x-select">Experiment</label>
            <select id="x-select" @change=${(e: Event) => ((this.selected = (e.target as HTMLSelectElement).value), void this.loadResults())}>
              ${this.experiments.map((e) => html`<option value=${e.id} ?selected=${e.id === this.selected}>${e.name} (${e.id}, ${e.status})</option>`)}
            </select>
          </p>`}
      ${experiment === undefined
        ? nothing
        : html`<section aria-labelledby="x-heading">
            <h2 id="x-heading">${experiment.name} <small data-status>${experiment.status}</small></h2>
            <p>${experiment.widget !== undefined ? `Widget ${experiment.widget}` : `Search ${experiment.searchToken}`}${experiment.startedAt !== undefined ? `, started ${experiment.startedAt.slice(0, 16).replace('T', ' ')}` : ''}${experiment.stoppedAt !== undefined ? `, stopped ${experiment.stoppedAt.slice(0, 16).replace('T', ' ')}` : ''}</p>
            ${experiment.status === 'draft' ? html`<button type="button" data-action="start" @click=${() => this.act('start')}>Start</button>` : nothing}
            ${experiment.status === 'running' ? html`<button type="button" data-action="stop" @click=${() => this.act('stop')}>Stop</button><button type="button" data-action="refresh" @click=${() => this.loadResults()}>Refresh results</button>` : nothing}
            ${experiment.status !== 'running' ? html`<button type="button" data-action="delete" @click=${() => this.act('delete')}>Delete</button>` : nothing}
            ${this.results !== undefined && this.results.id === experiment.id ? this.resultsView(experiment, this.results) : nothing}
          </section>`}
      ${this.createForm()}
    `;
  }
}
