/**
 * Analytics for the console's charts: per day activities, searches and per-widget results, the
 * queries shoppers type (top, zero-result, corrected), activities per minute, and the period's key figures
 * beside the period before's. Everything is read
 * from aggregates folded as activities arrive; no request rescans the log.
 */
import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type * as Wire from '@discovery-kit/protocol';
import type { ServerDeps } from '../api-module.js';
import { DAY_MS } from '../../platform/clock.js';
import { emptyWidgetCounts, type WidgetCounts } from '../../domains/analytics/widget-analytics.js';
import type { QuerySummary } from '../../domains/search/analytics/query-analytics.js';
import { queryWords } from '../../domains/search/query/matcher.js';
import { adminScope } from './admin-auth.js';

type IntParam = (ctx: Context, name: string, min: number, max: number, fallback: number) => number;

const isoDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
const ratio = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 10_000) / 10_000 : 0);

function add(into: WidgetCounts, counts: WidgetCounts): void {
  into.impressions += counts.impressions;
  into.clicks += counts.clicks;
  into.addToCarts += counts.addToCarts;
  into.purchases += counts.purchases;
  into.revenue += counts.revenue;
}

export function analyticsRoutes(router: Router, deps: ServerDeps, guard: Middleware, intParam: IntParam): void {
  const { widgets } = deps.services.analytics;
  // Query analytics have one source, search's (clicks attributed by sourceId, else metadata.query).
  const queries = deps.services.searchAnalytics;

  /** The key figures of the days `from` to `to` (day numbers), every widget of the environment summed. */
  const totals = (tenantId: string, widgetIds: readonly string[], from: number, to: number): Wire.AnalyticsTotals => {
    const out: Wire.AnalyticsTotals = { from: isoDay(from), to: isoDay(to), searches: 0, zeroResultSearches: 0, searchClicks: 0, searchConversions: 0, searchRevenue: 0, widgetImpressions: 0, widgetClicks: 0, widgetPurchases: 0, widgetRevenue: 0 };
    for (const day of queries.searchesPerDay(tenantId, out.from, out.to).values()) {
      out.searches += day.searches;
      out.zeroResultSearches += day.zeroResults;
      out.searchClicks += day.clicks;
      out.searchConversions += day.conversions;
      out.searchRevenue += day.revenue;
    }
    for (const { counts } of widgets.daysBetween(tenantId, from, to)) {
      for (const id of widgetIds) {
        const c = counts.widgets.get(id);
        if (c === undefined) continue;
        out.widgetImpressions += c.impressions;
        out.widgetClicks += c.clicks;
        out.widgetPurchases += c.purchases;
        out.widgetRevenue += c.revenue;
      }
    }
    return out;
  };

  router.get('/analytics', guard, (ctx) => {
    const scope = adminScope(deps, ctx);
    const days = intParam(ctx, 'days', 1, 90, 7);
    const today = Math.floor(deps.clock.now() / DAY_MS);
    const widgetIds = deps.registry.findTenant(scope.tenantId)!.environments.find((e) => e.id === scope.environmentId)!.widgets.map((w) => w.id);
    const searchDays = queries.searchesPerDay(scope.tenantId, isoDay(today - days + 1), isoDay(today));
    const sums = new Map(widgetIds.map((id) => [id, emptyWidgetCounts()]));
    let currency: string | undefined;
    const unverified = new Map(widgetIds.map((id) => [id, emptyWidgetCounts()]));
    const perDay = widgets.daysBetween(scope.tenantId, today - days + 1, today).map(({ day, counts }) => {
      const dayWidgets: Record<string, WidgetCounts & { clickThrough: number }> = {};
      for (const id of widgetIds) {
        const c = counts.widgets.get(id) ?? emptyWidgetCounts();
        add(sums.get(id)!, c);
        add(unverified.get(id)!, counts.unverified.get(id) ?? emptyWidgetCounts());
        dayWidgets[id] = { ...c, clickThrough: ratio(c.clicks, c.impressions) };
      }
      currency = counts.currency ?? currency;
      const searched = searchDays.get(isoDay(day));
      return {
        date: isoDay(day),
        activities: counts.activities,
        verbs: { ...counts.verbs },
        searches: searched?.searches ?? 0,
        zeroResultSearches: searched?.zeroResults ?? 0,
        searchClicks: searched?.clicks ?? 0,
        searchConversions: searched?.conversions ?? 0,
        searchRevenue: searched?.revenue ?? 0,
        widgets: dayWidgets,
      };
    });
    // Before the period: the latest purchase's currency from the days just before it (a quiet week still has one).
    if (currency === undefined) for (const { counts } of widgets.daysBetween(scope.tenantId, today - 2 * days + 1, today - days)) currency = counts.currency ?? currency;
    ctx.body = {
      environment: scope.environmentId,
      ...(currency === undefined ? {} : { currency }),
      days: perDay,
      widgets: widgetIds.map((id) => {
        const c = sums.get(id)!;
        return { widgetId: id, ...c, clickThrough: ratio(c.clicks, c.impressions), conversionRate: ratio(c.purchases, c.clicks), unverified: unverified.get(id)! };
      }),
      totals: { current: totals(scope.tenantId, widgetIds, today - days + 1, today), previous: totals(scope.tenantId, widgetIds, today - 2 * days + 1, today - days) },
    } satisfies Wire.AnalyticsResponse;
  });

  router.get('/analytics/queries', guard, (ctx) => {
    const scope = adminScope(deps, ctx);
    const days = intParam(ctx, 'days', 1, 90, 7);
    const limit = intParam(ctx, 'limit', 1, 500, 50);
    const today = Math.floor(deps.clock.now() / DAY_MS);
    const rows = queries.summary(scope.tenantId, isoDay(today - days + 1), isoDay(today));
    const round = (row: QuerySummary): Wire.QueryAnalyticsRow => ({ ...row, clickThrough: ratio(row.clicks, row.searches), conversionRate: ratio(row.conversions, row.searches) });
    // A redirect is a fix too: the shopper is sent somewhere, though no item matches.
    const redirected = new Set(
      deps.registry
        .findTenant(scope.tenantId)!
        .environments.flatMap((e) => e.searchTokens.flatMap((t) => t.configurations.flatMap((c) => c.redirects.flatMap((r) => r.queries.map((q) => queryWords(q).join(' ')))))),
    );
    ctx.body = {
      days,
      top: rows.slice(0, limit).map(round),
      // A query counts as zero-result while its latest search still finds nothing and no redirect answers it: fixing it takes it off the list.
      zeroResult: rows.filter((r) => r.lastResultCount === 0 && !redirected.has(queryWords(r.query).join(' '))).slice(0, limit).map(round),
      corrected: rows.filter((r) => r.corrected > 0).sort((a, b) => b.corrected - a.corrected).slice(0, limit).map(round),
    } satisfies Wire.QueryAnalyticsResponse;
  });

  router.get('/analytics/activities-per-minute', guard, (ctx) => {
    const scope = adminScope(deps, ctx);
    const minutes = intParam(ctx, 'minutes', 1, 1440, 60);
    ctx.body = { minutes: widgets.perMinute(scope.tenantId, minutes).map(({ minute, count }) => ({ at: new Date(minute * 60_000).toISOString(), count })) } satisfies Wire.ActivitiesPerMinuteResponse;
  });
}
