/** What a results page shows, as it lives in the URL: query, page, sort and facet selections, so a page can be shared and reloaded. */

export interface SearchState {
  query: string;
  /** 1-based. */
  page: number;
  /** `attribute:asc` or `attribute:desc`; empty for relevance. */
  sort: string;
  /** Selected values per facet id. */
  facets: Record<string, string[]>;
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
  return {
    query: params.get(param) ?? '',
    page: Number.isInteger(page) && page > 1 ? page : 1,
    sort: /^[\w.]+:(asc|desc)$/.test(params.get('sort') ?? '') ? params.get('sort')! : '',
    facets,
  };
}

/** `search` with the state's parameters replaced; the page's other parameters are kept. Returns `?...` or ''. */
export function writeSearchState(state: SearchState, param: string, search: string): string {
  const params = new URLSearchParams(search);
  for (const key of [...params.keys()]) {
    if (key === param || key === 'page' || key === 'sort' || key.startsWith(FACET_PREFIX)) params.delete(key);
  }
  params.set(param, state.query);
  if (state.sort) params.set('sort', state.sort);
  for (const [id, values] of Object.entries(state.facets)) {
    for (const value of values) params.append(FACET_PREFIX + id, value);
  }
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
