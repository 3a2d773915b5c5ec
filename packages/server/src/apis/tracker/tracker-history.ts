/** A profile's activities as a JSON:API page: `filter[...]`, `page[number]`, `page[size]`, links and a total. */
import type { Context } from 'koa';
import { parseInput } from '../../http/validate.js';
import { historyQuerySchema, type TrackerActivityView } from './tracker-schema.js';

export interface HistoryPage {
  data: TrackerActivityView[];
  links: { self: string; first: string; prev: string | null; next: string | null; last: string };
  meta: { total: number; pageNumber: number; pageSize: number; totalPages: number };
}

export function renderHistory(ctx: Context, list: (filters: { type?: string; verb?: string }) => TrackerActivityView[]): HistoryPage {
  const query = parseInput(historyQuerySchema, ctx.query, 'query');
  const all = list({ type: query['filter[type]'], verb: query['filter[verb]'] });
  const size = query['page[size]'];
  const number = query['page[number]'];
  const totalPages = Math.max(1, Math.ceil(all.length / size));
  const link = (page: number) => {
    const params = new URLSearchParams();
    if (query['filter[type]'] !== undefined) params.set('filter[type]', query['filter[type]']);
    if (query['filter[verb]'] !== undefined) params.set('filter[verb]', query['filter[verb]']);
    params.set('page[number]', String(page));
    params.set('page[size]', String(size));
    return `${ctx.path}?${params.toString()}`;
  };
  return {
    data: all.slice((number - 1) * size, number * size),
    links: {
      self: link(number),
      first: link(1),
      prev: number > 1 ? link(Math.min(number - 1, totalPages)) : null,
      next: number < totalPages ? link(number + 1) : null,
      last: link(totalPages),
    },
    meta: { total: all.length, pageNumber: number, pageSize: size, totalPages },
  };
}
