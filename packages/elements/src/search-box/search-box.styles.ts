/** Styles of `<discovery-search-box>`: an input with a popup listbox below it. */
import { css } from 'lit';

export const searchBoxStyles = css`
  :host {
    display: block;
    position: relative;
  }
  form {
    display: flex;
    gap: 0.25rem;
  }
  /* A fixed height the page can reserve before the element is defined: 2.5rem (also a comfortable touch target). */
  [part~='input'],
  [part~='button'] {
    box-sizing: border-box;
    height: var(--dk-search-box-height, 2.5rem);
  }
  [part~='input'] {
    flex: 1;
    min-width: 0;
    font: inherit;
    padding: var(--dk-input-padding, 0.5rem 0.75rem);
    border: var(--dk-input-border, 1px solid #999);
    border-radius: var(--dk-radius, 0.5rem);
  }
  [part~='button'] {
    font: inherit;
    padding: var(--dk-input-padding, 0.5rem 0.75rem);
    border: 0;
    border-radius: var(--dk-radius, 0.5rem);
    background: var(--dk-accent, #1a56db);
    color: var(--dk-accent-text, #fff);
  }
  [part~='listbox'] {
    position: absolute;
    z-index: var(--dk-popup-z-index, 10);
    top: 100%;
    left: 0;
    right: 0;
    margin-top: 0.25rem;
    padding: 0.25rem 0;
    background: var(--dk-popup-background, #fff);
    border: var(--dk-card-border, 1px solid #ddd);
    border-radius: var(--dk-radius, 0.5rem);
    box-shadow: 0 4px 16px rgb(0 0 0 / 15%);
  }
  [part~='listbox'][hidden] {
    display: none;
  }
  [part~='option'] {
    display: flex;
    align-items: center;
    gap: 0.5rem;
    padding: 0.375rem 0.75rem;
    cursor: pointer;
  }
  [part~='active'] {
    background: var(--dk-highlight, #e8effd);
  }
  [part~='group-label'] {
    padding: 0.375rem 0.75rem 0.125rem;
    font-size: 0.8em;
    opacity: 0.7;
  }
  [part~='photo'] {
    width: 2.5rem;
    height: 2.5rem;
    object-fit: contain;
  }
  [part~='title'] {
    flex: 1;
  }
  [part~='price'] {
    font-weight: 600;
  }
  [part~='mark'] {
    background: var(--dk-mark-background, transparent);
    color: inherit;
    font-weight: var(--dk-mark-weight, 700);
  }
  [part~='clear-recent'],
  [part~='see-all'] {
    color: var(--dk-accent, #1a56db);
    font-size: 0.9em;
  }
`;
