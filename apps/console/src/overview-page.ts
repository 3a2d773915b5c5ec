/** The overview: activities per minute, searches per day, and which widget earns clicks and sales. */
import { html, nothing } from 'lit';
import type { ActivitiesPerMinuteResponse, AnalyticsResponse } from '@discovery-kit/protocol';
import { adminFetch } from './admin-client.js';
import { barChart, lineChart } from './charts.js';
import { ConsoleElement, errorText } from './console-element.js';

const percent = (n: number) => `${(n * 100).toFixed(1)}%`;
const money = (cents: number) => (cents / 100).toLocaleString(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export class OverviewPage extends ConsoleElement {
  static override properties = { ...ConsoleElement.properties, analytics: { state: true }, minutes: { state: true }, error: { state: true } };
  declare analytics: AnalyticsResponse | undefined;
  declare minutes: ActivitiesPerMinuteResponse['minutes'];
  declare error: string;

  constructor() {
    super();
    this.minutes = [];
    this.error = '';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  async load(): Promise<void> {
    try {
      const [analytics, perMinute] = await Promise.all([
        adminFetch<AnalyticsResponse>('/analytics?days=14'),
        adminFetch<ActivitiesPerMinuteResponse>('/analytics/activities-per-minute?minutes=60'),
      ]);
      this.analytics = analytics;
      this.minutes = perMinute.minutes;
      this.error = '';
    } catch (error) {
      this.error = errorText(error);
    }
  }

  override render() {
    const a = this.analytics;
    if (this.error !== '') return html`<p class="error" role="alert">${this.error}</p>`;
    if (a === undefined) return html`<p>Loading…</p>`;
    const bestSeller = [...a.widgets].sort((x, y) => y.revenue - x.revenue || y.purchases - x.purchases)[0];
    return html`
      <h1>Overview</h1>
      <p><button type="button" @click=${() => this.load()}>Refresh</button></p>
      <div class="charts">
        ${lineChart({ id: 'activities-per-minute', title: 'Activities per minute, last hour', points: this.minutes.map((m) => ({ label: m.at.slice(11, 16), value: m.count })) })}
        ${barChart({ id: 'searches-per-day', title: 'Searches per day', bars: a.days.map((d) => ({ label: d.date.slice(5), value: d.searches })) })}
        ${barChart({ id: 'ctr-per-widget', title: 'Click-through per widget, last 14 days', bars: a.widgets.map((w) => ({ label: w.widgetId, value: w.clickThrough })), format: percent })}
        ${barChart({ id: 'revenue-per-widget', title: 'Revenue attributed per widget, last 14 days', bars: a.widgets.map((w) => ({ label: w.widgetId, value: w.revenue / 100 })), format: (n) => (n >= 100 ? n.toFixed(0) : n.toFixed(2)) })}
      </div>
      ${bestSeller !== undefined && bestSeller.revenue > 0 ? html`<p class="headline">The widget that sells most: <strong data-best-widget>${bestSeller.widgetId}</strong> (${money(bestSeller.revenue)}).</p>` : nothing}
      <table>
        <caption>Widgets, last 14 days</caption>
        <thead><tr><th scope="col">Widget</th><th scope="col">Impressions</th><th scope="col">Clicks</th><th scope="col">Click-through</th><th scope="col">Add to cart</th><th scope="col">Purchases</th><th scope="col">Revenue</th><th scope="col" title="Clicks and purchases naming this widget without a response id issued to this shop: not counted in the figures beside">Unverified clicks / purchases</th></tr></thead>
        <tbody>
          ${a.widgets.map(
            (w) => html`<tr data-widget=${w.widgetId}><th scope="row">${w.widgetId}</th><td>${w.impressions}</td><td>${w.clicks}</td><td>${percent(w.clickThrough)}</td><td>${w.addToCarts}</td><td>${w.purchases}</td><td>${money(w.revenue)}</td><td data-unverified>${w.unverified.clicks} / ${w.unverified.purchases}</td></tr>`,
          )}
        </tbody>
      </table>
    `;
  }
}
