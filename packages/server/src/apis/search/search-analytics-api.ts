/**
 * `GET /search-analytics/{token}?from=YYYY-MM-DD&to=YYYY-MM-DD&limit=20`: a search token's query
 * analytics per UTC day (search/analytics/query-analytics.ts), for the merchandiser's console. Private: the
 * tenant's bearer token, and a token of another tenant is answered as unknown.
 */
import Router from '@koa/router';
import { z } from 'zod';
import type { ApiModule, ServerDeps } from '../api-module.js';
import { requireBearer } from '../http/bearer-guard.js';
import { notFound } from '../http/errors.js';
import { parseInput } from '../http/validate.js';
import { DAYS_KEPT, dayOf, type QueryDayStats } from '../../domains/search/analytics/query-analytics.js';

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a day as YYYY-MM-DD');
const querySchema = z.object({
  from: day.optional(),
  to: day.optional(),
  limit: z.coerce.number().int().min(1).max(1_000).default(20),
});

interface QueryRow extends QueryDayStats {
  query: string;
  clickThroughRate: number;
  conversionRate: number;
}

function rate(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 1000) / 1000;
}

export function createSearchAnalyticsApi(deps: ServerDeps): ApiModule {
  const router = new Router();
  // Guarded per route: this router shares its mount with the public search API.
  router.get('/search-analytics/:token', requireBearer(deps.services.auth, { realm: 'tenant' }), async (ctx) => {
    const input = parseInput(querySchema, ctx.query, 'query');
    const caller = ctx.state.auth!.tenantId;
    let tenantId: string | undefined;
    try {
      tenantId = deps.registry.searchToken(ctx.params.token!).tenant.id;
    } catch {
      tenantId = undefined;
    }
    // Another tenant's token is answered exactly as one that does not exist.
    if (tenantId !== caller) throw notFound('unknown_search_token', `No search token "${ctx.params.token}" is configured.`, 'token');
    const today = dayOf(deps.clock.now());
    const to = input.to ?? today;
    const from = input.from ?? (input.to ?? today);
    const oldest = dayOf(deps.clock.now() - DAYS_KEPT * 24 * 60 * 60 * 1000);
    const days = deps.services.searchAnalytics.report(tenantId, ctx.params.token!, from < oldest ? oldest : from, to).map(({ day: date, queries }) => {
      const rows: QueryRow[] = Object.entries(queries).map(([query, stats]) => ({ query, ...stats, clickThroughRate: rate(stats.clicks, stats.searches), conversionRate: rate(stats.conversions, stats.searches) }));
      const total = (key: 'searches' | 'zeroResults' | 'corrected' | 'relaxed' | 'clicks' | 'conversions'): number => rows.reduce((n, r) => n + r[key], 0);
      const searches = total('searches');
      const bySearches = (a: QueryRow, b: QueryRow): number => b.searches - a.searches || (a.query < b.query ? -1 : 1);
      return {
        day: date,
        searches,
        zeroResults: total('zeroResults'),
        corrected: total('corrected'),
        relaxed: total('relaxed'),
        clicks: total('clicks'),
        conversions: total('conversions'),
        clickThroughRate: rate(total('clicks'), searches),
        conversionRate: rate(total('conversions'), searches),
        topQueries: [...rows].sort(bySearches).slice(0, input.limit),
        zeroResultQueries: rows.filter((r) => r.zeroResults > 0).sort((a, b) => b.zeroResults - a.zeroResults || bySearches(a, b)).slice(0, input.limit).map((r) => ({ query: r.query, zeroResults: r.zeroResults })),
        correctedQueries: rows.filter((r) => r.corrected > 0).sort((a, b) => b.corrected - a.corrected || bySearches(a, b)).slice(0, input.limit).map((r) => ({ query: r.query, correctedTo: r.correctedTo, corrected: r.corrected })),
      };
    });
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { token: ctx.params.token, from, to, days };
  });

  return { name: 'search-analytics', mount: 'search', router, public: false };
}
