/** Styles of `<discovery-search-results>`: facets beside the results on wide screens, above them on narrow ones. */
import { css } from 'lit';

export const searchResultsStyles = css`
  :host {
    display: block;
  }
  [part~='layout'] {
    display: grid;
    gap: var(--dk-gap, 1rem);
    grid-template-columns: minmax(0, var(--dk-facets-width, 14rem)) minmax(0, 1fr);
  }
  @media (max-width: 40rem) {
    [part~='layout'] {
      grid-template-columns: minmax(0, 1fr);
    }
  }
  [part~='facet'] {
    border: 0;
    margin: 0 0 1rem;
    padding: 0;
  }
  [part~='facet-title'] {
    font-weight: 600;
    padding: 0;
    margin-bottom: 0.25rem;
  }
  [part~='facet-value'] {
    display: flex;
    gap: 0.375rem;
    align-items: baseline;
  }
  [part~='facet-count'] {
    opacity: 0.7;
  }
  [part~='toolbar'] {
    display: flex;
    justify-content: space-between;
    align-items: baseline;
    gap: 1rem;
    margin-bottom: 0.75rem;
  }
  [part~='pagination'] {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    margin-top: 1rem;
  }
  [part~='page'][aria-current] {
    font-weight: 700;
  }
  [aria-busy='true'] [part~='list'] {
    opacity: 0.6;
  }
`;
