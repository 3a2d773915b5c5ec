/**
 * Pure rendering pieces of `<discovery-search-results>` around the list: the summary line (count,
 * corrected query, looser match, redirect), the pagination, and the placeholder shown while the first
 * answer loads. The element owns the state and passes in what each piece needs.
 */
import { html, nothing } from 'lit';
import type { SearchAnswer } from '../search-request.js';
import type { SearchResultsMessages } from './search-messages.js';
import { pageWindow } from './search-state.js';

/** The search API pages no further than this offset. */
export const MAX_OFFSET = 10000;

/** A link that runs the typed query as typed (no correction): its URL, and an ordinary click shown without reloading. */
export interface SearchInstead {
  href: string;
  follow: (event: MouseEvent) => void;
}

/** What the shopper sees above the results: the count, a corrected query (with the way back to the typed one), a looser match. */
export function renderSummary(answer: SearchAnswer, typed: string, words: SearchResultsMessages, instead: SearchInstead): unknown {
  const shown = answer.correctedQuery ?? typed;
  const summary = answer.count === 0 ? (answer.redirect ? '' : words.noResults(typed)) : words.results(answer.count, shown);
  return html`<p part="summary" role="status">${summary}</p>
    ${answer.correctedQuery && answer.count > 0
      ? html`<p part="correction">
          ${words.showingResultsFor} <strong>${answer.correctedQuery}</strong><br />
          <a part="search-instead" href=${instead.href} @click=${instead.follow}>${words.searchInstead(typed)}</a>
        </p>`
      : nothing}
    ${answer.relaxed && answer.count > 0 ? html`<p part="relaxed">${words.relaxed(typed)}</p>` : nothing}
    ${answer.redirect
      ? html`<div part="redirect">
          <span>${words.redirect}</span>
          <a part="redirect-link" href=${answer.redirect.url}>${answer.redirect.name}</a>
        </div>`
      : nothing}`;
}

export interface PaginationView {
  count: number;
  size: number;
  /** The page shown, 1-based. */
  page: number;
  words: SearchResultsMessages;
  /** The URL of a page, for links that also work in a new tab. */
  href: (page: number) => string;
  /** An ordinary click on a page link: the element shows that page without reloading. */
  follow: (event: MouseEvent, page: number) => void;
}

export function renderPagination(view: PaginationView): unknown {
  const { page, words } = view;
  const pages = Math.min(Math.ceil(view.count / view.size), Math.floor(MAX_OFFSET / view.size) + 1);
  if (pages <= 1) return nothing;
  return html`<nav part="pagination" aria-label=${words.pages}>
    ${page > 1 ? html`<a part="previous" rel="prev" href=${view.href(page - 1)} @click=${(event: MouseEvent) => view.follow(event, page - 1)}>${words.previous}</a>` : nothing}
    ${pageWindow(page, pages).map((number) =>
      number === 0
        ? html`<span part="gap" aria-hidden="true">…</span>`
        : html`<a part="page" href=${view.href(number)} aria-current=${number === page ? 'page' : nothing} @click=${(event: MouseEvent) => view.follow(event, number)}
            >${number}</a
          >`,
    )}
    ${page < pages ? html`<a part="next" rel="next" href=${view.href(page + 1)} @click=${(event: MouseEvent) => view.follow(event, page + 1)}>${words.next}</a>` : nothing}
  </nav>`;
}

/** Placeholder cards, so the page does not jump when the first answer arrives. */
export function renderPlaceholder(cards: number): unknown {
  return html`<p part="summary" role="status" aria-busy="true">&nbsp;</p>
    <div part="layout">
      <div part="facets"></div>
      <div>
        <div part="toolbar"><span part="placeholder toolbar-placeholder"></span></div>
        <ul part="list" aria-hidden="true">
          ${Array.from({ length: cards }, () => html`<li part="item placeholder"><div part="card"><div part="photo"></div><span part="title">&nbsp;<br />&nbsp;</span><span part="price">&nbsp;</span></div></li>`)}
        </ul>
      </div>
    </div>`;
}
