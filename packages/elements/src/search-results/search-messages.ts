/** The words `<discovery-search-results>` shows, in English; a shop replaces some or all through `messages`. */
import { FACET_ENGLISH } from './search-facets.js';
import type { FacetMessages } from './search-facets.js';

export interface SearchResultsMessages extends FacetMessages {
  results: (count: number, query: string) => string;
  noResults: (query: string) => string;
  /** Before the query that was run instead of the typed one. */
  showingResultsFor: string;
  /** The link that runs what the shopper typed, without correction. */
  searchInstead: (typed: string) => string;
  relaxed: (query: string) => string;
  redirect: string;
  tryInstead: string;
  noResultsTips: string;
  unavailable: string;
  sortBy: string;
  pages: string;
  previous: string;
  next: string;
  filters: string;
  seeResults: (count: number) => string;
  close: string;
}

export const ENGLISH: SearchResultsMessages = {
  ...FACET_ENGLISH,
  results: (count, query) => (query ? `${count} results for “${query}”` : `${count} products`),
  noResults: (query) => `No results for “${query}”`,
  showingResultsFor: 'Showing results for',
  searchInstead: (typed) => `Search instead for “${typed}”`,
  relaxed: (query) => `No product matches every word of “${query}”: these match some of them.`,
  redirect: 'Looking for this?',
  tryInstead: 'Try one of these searches:',
  noResultsTips: 'Check the spelling, use fewer or more general words, or start from our popular products.',
  unavailable: 'Search is not available right now. Please try again later.',
  sortBy: 'Sort by',
  pages: 'Pages',
  previous: 'Previous',
  next: 'Next',
  filters: 'Filters',
  seeResults: (count) => `See ${count} results`,
  close: 'Close',
};
