/**
 * The refinement part of `<discovery-search-results>`: facets with "show more" and a search within long
 * ones, a price range typed by the shopper, the selected filters as removable chips, and "clear all".
 * Pure rendering: the element owns the state and passes what happens back through `FacetActions`.
 */
import { html, nothing } from 'lit';
import type { Facet, SearchAnswer } from '../search-request.js';
import type { SearchState } from './search-state.js';

/** The words of the refinement controls; part of the element's `messages`. */
export interface FacetMessages {
  showMore: (hidden: number) => string;
  showLess: string;
  searchFacet: (title: string) => string;
  minimum: string;
  maximum: string;
  applyRange: string;
  removeFilter: (label: string) => string;
  clearAll: string;
  rangeLabel: (min: string, max: string) => string;
}

export const FACET_ENGLISH: FacetMessages = {
  showMore: (hidden) => `Show ${hidden} more`,
  showLess: 'Show less',
  searchFacet: (title) => `Search ${title.toLowerCase()}`,
  minimum: 'Min',
  maximum: 'Max',
  applyRange: 'Apply',
  removeFilter: (label) => `Remove filter ${label}`,
  clearAll: 'Clear all',
  rangeLabel: (min, max) => (min && max ? `${min} – ${max}` : min ? `From ${min}` : `Up to ${max}`),
};

/** Values shown before "show more". */
export const FACET_VISIBLE = 5;
/** Facets with more values than this get a search field. */
export const FACET_SEARCHABLE = 10;

export interface FacetView {
  state: SearchState;
  answer: SearchAnswer;
  words: FacetMessages;
  /** The facet shown as a min/max range rather than values, or '' for none. */
  rangeFacet: string;
  /** Facet ids whose whole list is open. */
  expanded: ReadonlySet<string>;
  /** Text typed in each facet's search field. */
  filters: ReadonlyMap<string, string>;
  /** Formats an amount of the shop's currency for a chip. */
  money: (amount: number) => string;
}

export interface FacetActions {
  toggle: (facetId: string, value: string) => void;
  expand: (facetId: string, open: boolean) => void;
  filterValues: (facetId: string, text: string) => void;
  setRange: (min: number | undefined, max: number | undefined) => void;
  clearAll: () => void;
}

function isSelected(view: FacetView, facet: Facet, value: { value: string; selected: boolean }): boolean {
  return value.selected || (view.state.facets[facet.id] ?? []).includes(value.value);
}

function readAmount(form: HTMLFormElement, name: string): number | undefined {
  const text = (form.elements.namedItem(name) as HTMLInputElement | null)?.value.trim() ?? '';
  const value = Number(text);
  return text !== '' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

function renderRange(view: FacetView, facet: Facet, actions: FacetActions): unknown {
  const { words, state } = view;
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    let min = readAmount(form, 'min');
    let max = readAmount(form, 'max');
    if (min !== undefined && max !== undefined && min > max) [min, max] = [max, min];
    actions.setRange(min, max);
  };
  return html`<fieldset part="facet range">
    <legend part="facet-title">${facet.title}</legend>
    <form part="range-form" @submit=${submit}>
      <label part="range-field">${words.minimum} <input part="range-input" name="min" type="number" min="0" step="any" inputmode="decimal" .value=${state.min === undefined ? '' : String(state.min)} /></label>
      <label part="range-field">${words.maximum} <input part="range-input" name="max" type="number" min="0" step="any" inputmode="decimal" .value=${state.max === undefined ? '' : String(state.max)} /></label>
      <button part="range-apply" type="submit">${words.applyRange}</button>
    </form>
  </fieldset>`;
}

function renderValues(view: FacetView, facet: Facet, actions: FacetActions): unknown {
  const { words } = view;
  const typed = (view.filters.get(facet.id) ?? '').trim().toLowerCase();
  const matching = typed ? facet.values.filter((value) => value.value.toLowerCase().includes(typed)) : facet.values;
  const open = view.expanded.has(facet.id) || typed !== '';
  // Selected values stay in view even when they fall past the first few.
  const shown = open ? matching : matching.filter((value, index) => index < FACET_VISIBLE || isSelected(view, facet, value));
  const hidden = matching.length - shown.length;
  return html`<fieldset part="facet">
    <legend part="facet-title">${facet.title}</legend>
    ${facet.values.length > FACET_SEARCHABLE
      ? html`<input
          part="facet-search"
          type="search"
          aria-label=${words.searchFacet(facet.title)}
          placeholder=${words.searchFacet(facet.title)}
          .value=${view.filters.get(facet.id) ?? ''}
          @input=${(event: InputEvent) => actions.filterValues(facet.id, (event.target as HTMLInputElement).value)}
        />`
      : nothing}
    ${shown.map(
      (value) =>
        html`<label part="facet-value"><input type="checkbox" .checked=${isSelected(view, facet, value)} @change=${() => actions.toggle(facet.id, value.value)} /><span part="facet-label">${value.value}</span> <span part="facet-count">(${value.count})</span></label>`,
    )}
    ${hidden > 0
      ? html`<button part="show-more" type="button" aria-expanded="false" @click=${() => actions.expand(facet.id, true)}>${words.showMore(hidden)}</button>`
      : view.expanded.has(facet.id) && matching.length > FACET_VISIBLE && typed === ''
        ? html`<button part="show-more" type="button" aria-expanded="true" @click=${() => actions.expand(facet.id, false)}>${words.showLess}</button>`
        : nothing}
  </fieldset>`;
}

export function renderFacets(view: FacetView, actions: FacetActions): unknown {
  return view.answer.facets
    .filter((facet) => facet.values.length > 0 || facet.id === view.rangeFacet)
    .map((facet) => (facet.id === view.rangeFacet ? renderRange(view, facet, actions) : renderValues(view, facet, actions)));
}

/** The filters in force as chips, each removing itself, and "clear all"; nothing when no filter is on. */
export function renderChips(view: FacetView, actions: FacetActions): unknown {
  const { state, words } = view;
  const chips: Array<{ label: string; remove: () => void }> = [];
  for (const [id, values] of Object.entries(state.facets)) {
    const title = view.answer.facets.find((facet) => facet.id === id)?.title ?? id;
    for (const value of values) chips.push({ label: `${title}: ${value}`, remove: () => actions.toggle(id, value) });
  }
  if (state.min !== undefined || state.max !== undefined) {
    const label = words.rangeLabel(state.min === undefined ? '' : view.money(state.min), state.max === undefined ? '' : view.money(state.max));
    chips.push({ label, remove: () => actions.setRange(undefined, undefined) });
  }
  if (chips.length === 0) return nothing;
  return html`<div part="chips">
    ${chips.map(
      (chip) => html`<button part="chip" type="button" aria-label=${words.removeFilter(chip.label)} @click=${chip.remove}>
        ${chip.label} <span aria-hidden="true">×</span>
      </button>`,
    )}
    <button part="clear-all" type="button" @click=${actions.clearAll}>${words.clearAll}</button>
  </div>`;
}
