/** A profile's activities as a JSON:API page: `filter[...]`, `page[number]`, `page[size]`, links and a total. */
import type { Context } from 'koa';
import type { TrackerActivityView, TrackerHistoryPage } from '@discovery-kit/protocol';
import type { HistoryFilters } from '../../domains/tracking/profile-history.js';
import { HttpError } from '../http/errors.js';
import { parseInput } from '../http/validate.js';
import { HISTORY_FILTERS, historyQuerySchema } from './tracker-schema.js';

type PageReader = (filters: HistoryFilters, range: { offset: number; limit: number }) => Promise<{ total: number; data: TrackerActivityView[] }>;

export async function renderHistory(ctx: Context, read: PageReader): Promise<TrackerHistoryPage> {
  // A filter or page parameter we do not know would silently widen the answer: name it instead.
  for (const name of Object.keys(ctx.query)) {
    if (/^(filter|page)\[/.test(name) && !(HISTORY_FILTERS as readonly string[]).includes(name) && name !== 'page[number]' && name !== 'page[size]') {
      throw new HttpError(400, 'invalid_parameter', `${name}: unknown parameter; filters are filter[type] and filter[verb], pages page[number] and page[size]`, { field: name });
    }
  }
  const query = parseInput(historyQuerySchema, ctx.query, 'query');
  const filters: HistoryFilters = {
    ...(query['filter[type]'] === undefined ? {} : { types: query['filter[type]'] }),
    ...(query['filter[verb]'] === undefined ? {} : { verbs: query['filter[verb]'] }),
  };
  const size = query['page[size]'];
  const number = query['page[number]'];
  const { total, data } = await read(filters, { offset: (number - 1) * size, limit: size });
  const totalPages = Math.max(1, Math.ceil(total / size));
  const link = (page: number) => {
    const params = new URLSearchParams();
    if (filters.types !== undefined) params.set('filter[type]', filters.types.join(','));
    if (filters.verbs !== undefined) params.set('filter[verb]', filters.verbs.join(','));
    params.set('page[number]', String(page));
    params.set('page[size]', String(size));
    return `${ctx.path}?${params.toString()}`;
  };
  return {
    data,
    links: {
      self: link(number),
      first: link(1),
      prev: number > 1 ? link(Math.min(number - 1, totalPages)) : null,
      next: number < totalPages ? link(number + 1) : null,
      last: link(totalPages),
    },
    meta: { total, pageNumber: number, pageSize: size, totalPages },
  };
}
