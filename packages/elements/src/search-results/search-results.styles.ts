/**
 * Styles of `<discovery-search-results>`: facets beside the results on wide screens; on phones the results
 * come first and the facets open in a full-screen drawer. Every control is at least 24×24 px (WCAG 2.2 target size).
 */
import { css } from 'lit';

export const searchResultsStyles = css`
  :host {
    display: block;
    /* Reserved before the answer arrives and kept after, so the footer does not jump into view. */
    min-height: var(--dk-results-min-height, 80vh);
    scroll-margin-top: var(--dk-scroll-margin, 0.5rem);
  }
  [part~='summary'] {
    margin: 0 0 0.5rem;
    min-height: 1.5em;
  }
  [part~='correction'],
  [part~='relaxed'] {
    margin: 0 0 0.5rem;
  }
  /* A link to tap on a phone: at least 24 px tall (WCAG 2.2 target size). */
  [part~='search-instead'] {
    display: inline-block;
    min-height: 24px;
    line-height: 24px;
    color: inherit;
  }
  [part~='redirect'] {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.75rem;
    padding: 0.75rem 1rem;
    margin: 0 0 1rem;
    border: var(--dk-card-border, 1px solid #ddd);
    border-radius: var(--dk-radius, 0.5rem);
  }
  [part~='redirect-link'],
  [part~='see-results'],
  [part~='range-apply'] {
    display: inline-flex;
    align-items: center;
    min-height: 2.5rem;
    padding: 0 1rem;
    border: 0;
    border-radius: var(--dk-radius, 0.5rem);
    background: var(--dk-accent, #1a56db);
    color: var(--dk-accent-text, #fff);
    font: inherit;
    text-decoration: none;
    cursor: pointer;
  }
  [part~='layout'] {
    display: grid;
    gap: var(--dk-gap, 1rem);
    grid-template-columns: minmax(0, var(--dk-facets-width, 14rem)) minmax(0, 1fr);
  }
  [part~='facet'] {
    border: 0;
    margin: 0 0 1rem;
    padding: 0;
    min-width: 0;
  }
  [part~='facet-title'] {
    font-weight: 600;
    padding: 0;
    margin-bottom: 0.25rem;
  }
  [part~='facet-value'] {
    display: flex;
    gap: 0.5rem;
    align-items: center;
    min-height: 2rem;
    cursor: pointer;
  }
  [part~='facet-value'] input {
    width: 1.5rem;
    height: 1.5rem;
    margin: 0;
    flex: none;
    accent-color: var(--dk-accent, #1a56db);
  }
  [part~='facet-count'] {
    opacity: 0.7;
  }
  [part~='facet-search'],
  [part~='range-input'],
  select {
    box-sizing: border-box;
    min-height: 2.5rem;
    font: inherit;
    padding: 0 0.5rem;
    border: var(--dk-input-border, 1px solid #999);
    border-radius: var(--dk-radius, 0.5rem);
    background: var(--dk-popup-background, #fff);
    color: inherit;
  }
  [part~='facet-search'] {
    width: 100%;
    margin-bottom: 0.25rem;
  }
  [part~='range-form'] {
    display: flex;
    flex-wrap: wrap;
    align-items: end;
    gap: 0.5rem;
  }
  [part~='range-field'] {
    display: grid;
    font-size: 0.85em;
  }
  [part~='range-input'] {
    width: 5.5rem;
  }
  [part~='show-more'],
  [part~='clear-all'],
  [part~='close'],
  [part~='filters-button'],
  [part~='chip'] {
    min-height: 2.5rem;
    min-width: 2.5rem;
    padding: 0 0.75rem;
    font: inherit;
    cursor: pointer;
    border-radius: var(--dk-radius, 0.5rem);
    color: inherit;
  }
  [part~='show-more'],
  [part~='clear-all'] {
    border: 0;
    background: transparent;
    color: var(--dk-accent, #1a56db);
    padding: 0 0.25rem;
  }
  [part~='filters-button'],
  [part~='chip'],
  [part~='close'] {
    border: var(--dk-input-border, 1px solid #999);
    background: var(--dk-popup-background, #fff);
  }
  [part~='chips'] {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem;
    margin-bottom: 0.75rem;
  }
  [part~='toolbar'] {
    display: flex;
    justify-content: flex-end;
    align-items: center;
    flex-wrap: wrap;
    gap: 0.5rem 1rem;
    margin-bottom: 0.75rem;
    min-height: 2.5rem;
  }
  [part~='sort'] {
    display: inline-flex;
    align-items: center;
    gap: 0.5rem;
  }
  [part~='filters-button'],
  [part~='drawer-header'],
  [part~='drawer-footer'] {
    display: none;
  }
  [part~='pagination'] {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    margin-top: 1rem;
  }
  [part~='pagination'] a,
  [part~='gap'] {
    display: inline-flex;
    align-items: center;
    justify-content: center;
    box-sizing: border-box;
    min-width: 2.5rem;
    min-height: 2.5rem;
    padding: 0 0.5rem;
    border-radius: var(--dk-radius, 0.5rem);
  }
  [part~='pagination'] a {
    border: var(--dk-card-border, 1px solid #ddd);
    color: inherit;
    text-decoration: none;
  }
  [part~='page'][aria-current] {
    font-weight: 700;
    background: var(--dk-accent, #1a56db);
    border-color: var(--dk-accent, #1a56db);
    color: var(--dk-accent-text, #fff);
  }
  [part~='suggestions'] {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    list-style: none;
    padding: 0;
  }
  [part~='suggestion'] {
    display: inline-flex;
    align-items: center;
    min-height: 2.5rem;
    padding: 0 0.75rem;
    border: var(--dk-card-border, 1px solid #ddd);
    border-radius: 999px;
    color: inherit;
  }
  [part~='popular'] {
    margin-top: 1.5rem;
  }
  [part~='placeholder'] [part~='photo'],
  [part~='placeholder'] [part~='title'],
  [part~='placeholder'] [part~='price'] {
    background: var(--dk-placeholder-background, #f1f1f1);
    border-radius: 0.25rem;
  }
  [aria-busy='true'] [part~='list'] {
    opacity: 0.6;
  }
  @media (max-width: 40rem) {
    [part~='layout'] {
      grid-template-columns: minmax(0, 1fr);
    }
    [part~='toolbar'] {
      justify-content: space-between;
    }
    [part~='filters-button'] {
      display: inline-flex;
      align-items: center;
    }
    /* The facets leave the page for the drawer: the results come first. */
    [part~='facets'] {
      display: none;
    }
    :host([drawer]) [part~='facets'] {
      display: flex;
      flex-direction: column;
      position: fixed;
      inset: 0;
      z-index: var(--dk-drawer-z-index, 1000);
      overflow-y: auto;
      overscroll-behavior: contain;
      background: var(--dk-popup-background, #fff);
      padding: 0 1rem;
    }
    :host([drawer]) [part~='drawer-header'],
    :host([drawer]) [part~='drawer-footer'] {
      display: flex;
      align-items: center;
      justify-content: space-between;
      gap: 1rem;
      position: sticky;
      background: inherit;
      padding: 0.75rem 0;
    }
    [part~='drawer-header'] {
      top: 0;
      font-size: 1.1em;
    }
    [part~='drawer-footer'] {
      bottom: 0;
      margin-top: auto;
      border-top: var(--dk-card-border, 1px solid #ddd);
    }
    [part~='see-results'] {
      flex: 1;
      justify-content: center;
    }
  }
`;
