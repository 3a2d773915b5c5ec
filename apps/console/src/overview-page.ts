/**
 * The overview: the period's key figures (searches, zero-result rate, click-through, conversion,
 * revenue from search and from widgets) with their change against the period before, activities per
 * minute by when they happened, searches per day, and what each widget earns, by its title.
 */
import { html, nothing } from 'lit';
import type { ActivitiesPerMinuteResponse, AdminWidget, AnalyticsResponse, AnalyticsTotals, WidgetListResponse } from '@discovery-kit/protocol';
import { adminFetch } from './admin-client.js';
import { barList, columnChart, lineChart } from './charts.js';
import { ConsolePage } from './console-page.js';

const PERIODS = [
  { days: 1, label: 'Today' },
  { days: 7, label: '7 days' },
  { days: 30, label: '30 days' },
  { days: 90, label: '90 days' },
] as const;

const percent = (n: number) => `${(n * 100).toFixed(1)}%`;
const rate = (a: number, b: number) => (b > 0 ? a / b : 0);

/** A key figure: its value this period and the period before, and how to show it. */
interface Figure {
  id: string;
  label: string;
  value: number;
  previous: number;
  format: (n: number) => string;
  /** Whether a rise is bad news (the zero-result rate). */
  lowerIsBetter?: boolean;
}

function figures(t: AnalyticsTotals, p: AnalyticsTotals, money: (cents: number) => string): Figure[] {
  return [
    { id: 'searches', label: 'Searches', value: t.searches, previous: p.searches, format: (n) => n.toLocaleString() },
    { id: 'zero-rate', label: 'Zero-result rate', value: rate(t.zeroResultSearches, t.searches), previous: rate(p.zeroResultSearches, p.searches), format: percent, lowerIsBetter: true },
    { id: 'search-ctr', label: 'Search click-through', value: rate(t.searchClicks, t.searches), previous: rate(p.searchClicks, p.searches), format: percent },
    { id: 'search-conversion', label: 'Search conversion', value: rate(t.searchConversions, t.searches), previous: rate(p.searchConversions, p.searches), format: percent },
    { id: 'search-revenue', label: 'Revenue from search', value: t.searchRevenue, previous: p.searchRevenue, format: money },
    { id: 'widget-revenue', label: 'Revenue from widgets', value: t.widgetRevenue, previous: p.widgetRevenue, format: money },
  ];
}

function change(figure: Figure, period: string) {
  if (figure.previous === 0) return html`<span class="change">${figure.value === 0 ? 'no change' : 'new'} vs previous ${period}</span>`;
  const delta = (figure.value - figure.previous) / figure.previous;
  if (Math.abs(delta) < 0.0005) return html`<span class="change">no change vs previous ${period}</span>`;
  const good = delta > 0 !== (figure.lowerIsBetter === true);
  return html`<span class="change ${good ? 'up' : 'down'}">${delta > 0 ? '▲' : '▼'} ${percent(Math.abs(delta))} vs previous ${period}</span>`;
}

export class OverviewPage extends ConsolePage {
  protected readonly heading = 'Overview';
  static override properties = { ...ConsolePage.properties, analytics: { state: true }, minutes: { state: true }, titles: { state: true }, days: { state: true } };
  declare analytics: AnalyticsResponse | undefined;
  declare minutes: ActivitiesPerMinuteResponse['minutes'];
  /** Widget id → the title shoppers see. */
  declare titles: Map<string, string>;
  declare days: number;

  constructor() {
    super();
    this.minutes = [];
    this.titles = new Map();
    this.days = 7;
  }

  protected async load(): Promise<void> {
    const [analytics, perMinute, widgets] = await Promise.all([
      adminFetch<AnalyticsResponse>(`/analytics?days=${this.days}`),
      adminFetch<ActivitiesPerMinuteResponse>('/analytics/activities-per-minute?minutes=60'),
      adminFetch<WidgetListResponse>('/widgets'),
    ]);
    this.analytics = analytics;
    this.minutes = perMinute.minutes;
    this.titles = new Map(widgets.widgets.map((w: AdminWidget) => [w.id, w.title || w.id]));
  }

  private pick(days: number): void {
    this.days = days;
    void this.reload();
  }

  /** Amounts in the purchases' currency; without a purchase yet, as a plain number. */
  private money(cents: number): string {
    const currency = this.analytics?.currency;
    const options: Intl.NumberFormatOptions = currency === undefined ? { minimumFractionDigits: 2, maximumFractionDigits: 2 } : { style: 'currency', currency };
    return (cents / 100).toLocaleString(undefined, options);
  }

  private widgetTitle(widgetId: string): string {
    return this.titles.get(widgetId) ?? widgetId;
  }

  protected body() {
    const a = this.analytics;
    const period = PERIODS.find((p) => p.days === this.days)!;
    const span = period.days === 1 ? 'day' : `${period.days} days`;
    return html`
      <div class="period" role="group" aria-label="Period">
        ${PERIODS.map((p) => html`<button type="button" class="toggle" aria-pressed=${p.days === this.days ? 'true' : 'false'} @click=${() => this.pick(p.days)}>${p.label}</button>`)}
        <button type="button" class="secondary" @click=${() => this.reload()}>Refresh</button>
      </div>
      ${a === undefined ? html`<p>Loading…</p>` : this.report(a, span)}
    `;
  }

  private report(a: AnalyticsResponse, span: string) {
    const money = (cents: number) => this.money(cents);
    const current = a.totals.current;
    const range = current.from === current.to ? current.from : `${current.from} to ${current.to}`;
    const bestSeller = [...a.widgets].sort((x, y) => y.revenue - x.revenue || y.purchases - x.purchases)[0];
    const widgets = [...a.widgets].sort((x, y) => y.revenue - x.revenue || y.clicks - x.clicks);
    return html`
      <p class="range">From <strong data-range>${range}</strong> (UTC)${a.currency === undefined ? nothing : html`, amounts in ${a.currency}`}.</p>
      <ul class="figures">
        ${figures(current, a.totals.previous, money).map(
          (f) => html`<li data-figure=${f.id}><span class="figure-label">${f.label}</span><strong class="figure-value">${f.format(f.value)}</strong>${change(f, span)}</li>`,
        )}
      </ul>
      ${bestSeller !== undefined && bestSeller.revenue > 0
        ? html`<p class="headline">The widget that sells most: <strong data-best-widget=${bestSeller.widgetId}>${this.widgetTitle(bestSeller.widgetId)}</strong> (${money(bestSeller.revenue)}).</p>`
        : nothing}
      <div class="charts">
        ${lineChart({ id: 'activities-per-minute', title: 'Activities per minute, last hour', unit: 'minute', points: this.minutes.map((m) => ({ label: new Date(m.at).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' }), value: m.count })) })}
        ${columnChart({ id: 'searches-per-day', title: 'Searches per day', bars: a.days.map((d) => ({ label: d.date.slice(5), value: d.searches })) })}
        ${barList({ id: 'revenue-per-widget', title: 'Revenue per widget', bars: widgets.map((w) => ({ label: this.widgetTitle(w.widgetId), value: w.revenue })), format: money })}
        ${barList({ id: 'ctr-per-widget', title: 'Click-through per widget', bars: widgets.map((w) => ({ label: this.widgetTitle(w.widgetId), value: w.clickThrough })), format: percent })}
      </div>
      <div class="table-scroll" tabindex="0" role="region" aria-label="Widgets table, scrolls sideways">
        <table>
          <caption>Widgets, ${range}</caption>
          <thead><tr><th scope="col">Widget</th><th scope="col">Impressions</th><th scope="col">Clicks</th><th scope="col">Click-through</th><th scope="col">Add to cart</th><th scope="col">Purchases</th><th scope="col">Revenue</th><th scope="col" title="Clicks and purchases naming this widget without a response id issued to this shop: not counted in the figures beside">Unverified clicks / purchases</th></tr></thead>
          <tbody>
            ${widgets.map(
              (w) => html`<tr data-widget=${w.widgetId}><th scope="row">${this.widgetTitle(w.widgetId)} <small>${w.widgetId}</small></th><td>${w.impressions}</td><td>${w.clicks}</td><td>${percent(w.clickThrough)}</td><td>${w.addToCarts}</td><td>${w.purchases}</td><td>${money(w.revenue)}</td><td data-unverified>${w.unverified.clicks} / ${w.unverified.purchases}</td></tr>`,
            )}
          </tbody>
        </table>
      </div>
    `;
  }
}
