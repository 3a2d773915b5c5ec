/** What a results page shows, as it lives in the URL: query, page, sort and facet selections, so a page can be shared and reloaded. */

export interface SearchState {
  query: string;
  /** 1-based. */
  page: number;
  /** `attribute:asc` or `attribute:desc`; empty for relevance. */
  sort: string;
  /** Selected values per facet id. */
  facets: Record<string, string[]>;
  /** The query runs as typed, without typo correction (`exact=1`): the shopper chose "Search instead for …". */
  exact?: boolean;
  /** A price range typed by the shopper, in the shop's currency units (`min`, `max` in the URL). */
  min?: number;
  max?: number;
}

/** A non-negative amount from the URL, or undefined. */
function amount(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const number = Number(value);
  return Number.isFinite(number) && number >= 0 && number <= 1e9 ? number : undefined;
}

/** Facet selections travel as `f.{facetId}=value`, repeated for several values. */
const FACET_PREFIX = 'f.';

export function readSearchState(search: string, param: string): SearchState {
  const params = new URLSearchParams(search);
  const page = Number(params.get('page'));
  const facets: Record<string, string[]> = {};
  for (const [key, value] of params) {
    if (key.startsWith(FACET_PREFIX) && key.length > FACET_PREFIX.length && value !== '') {
      (facets[key.slice(FACET_PREFIX.length)] ??= []).push(value);
    }
  }
  const min = amount(params.get('min'));
  const max = amount(params.get('max'));
  return {
    query: params.get(param) ?? '',
    page: Number.isInteger(page) && page > 1 ? page : 1,
    sort: /^[\w.]+:(asc|desc)$/.test(params.get('sort') ?? '') ? params.get('sort')! : '',
    facets,
    ...(params.get('exact') === '1' ? { exact: true } : {}),
    ...(min === undefined ? {} : { min }),
    ...(max === undefined ? {} : { max }),
  };
}

/** `search` with the state's parameters replaced; the page's other parameters are kept. Returns `?...` or ''. */
export function writeSearchState(state: SearchState, param: string, search: string): string {
  const params = new URLSearchParams(search);
  for (const key of [...params.keys()]) {
    if (key === param || key === 'page' || key === 'sort' || key === 'min' || key === 'max' || key === 'exact' || key.startsWith(FACET_PREFIX)) params.delete(key);
  }
  params.set(param, state.query);
  if (state.exact) params.set('exact', '1');
  if (state.sort) params.set('sort', state.sort);
  for (const [id, values] of Object.entries(state.facets)) {
    for (const value of values) params.append(FACET_PREFIX + id, value);
  }
  if (state.min !== undefined) params.set('min', String(state.min));
  if (state.max !== undefined) params.set('max', String(state.max));
  if (state.page > 1) params.set('page', String(state.page));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The state with `value` of facet `id` switched on or off, back on the first page. */
export function toggleFacet(state: SearchState, id: string, value: string): SearchState {
  const current = state.facets[id] ?? [];
  const values = current.includes(value) ? current.filter((entry) => entry !== value) : [...current, value];
  const facets = { ...state.facets, [id]: values };
  if (values.length === 0) delete facets[id];
  return { ...state, facets, page: 1 };
}

export function sortBy(sort: string): Array<{ attribute: string; order: 'asc' | 'desc' }> {
  const [attribute, order] = sort.split(':');
  return attribute && (order === 'asc' || order === 'desc') ? [{ attribute, order }] : [];
}

/** Page numbers to offer around `page`: the first, the last, and two either side; 0 marks a gap. */
export function pageWindow(page: number, pages: number): number[] {
  const shown: number[] = [];
  for (let number = 1; number <= pages; number++) {
    if (number === 1 || number === pages || Math.abs(number - page) <= 2) shown.push(number);
    else if (shown[shown.length - 1] !== 0) shown.push(0);
  }
  return shown;
}

/** The state without any filter: no facet value, no price range, first page (the query still as typed if it was). */
export function clearFilters(state: SearchState): SearchState {
  return { query: state.query, sort: state.sort, page: 1, facets: {}, ...(state.exact ? { exact: true } : {}) };
}

/** How many filters are on: each facet value, and a price range counts once. */
export function filterCount(state: SearchState): number {
  return Object.values(state.facets).reduce((sum, values) => sum + values.length, 0) + (state.min !== undefined || state.max !== undefined ? 1 : 0);
}

/** The filter expression for a price range; catalog prices are in minor units (`scale` 100). */
export function rangeFilter(state: SearchState, attribute: string, scale: number): string | undefined {
  const parts: string[] = [];
  if (state.min !== undefined) parts.push(`${attribute} >= ${Math.round(state.min * scale)}`);
  if (state.max !== undefined) parts.push(`${attribute} <= ${Math.round(state.max * scale)}`);
  return parts.length > 0 ? parts.join(' AND ') : undefined;
}
