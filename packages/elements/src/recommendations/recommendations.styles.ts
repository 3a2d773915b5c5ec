/**
 * Styles of `<discovery-recommendations>`: one row of cards that scrolls sideways (or a grid), and a
 * reserved height while loading so the content below does not jump when the cards arrive.
 */
import { css } from 'lit';

export const recommendationsStyles = css`
  :host {
    display: block;
  }
  /* The same height loading and shown: the row's height (heading + one card) is fixed by the card styles. */
  :host([state='loading']),
  :host([state='ready']:not([layout='grid'])) {
    min-height: var(--dk-recommendations-height, 19.5rem);
  }
  :host([state='empty']),
  :host([state='error']),
  :host([hidden]) {
    display: none;
  }
  [part~='header'] {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: 1rem;
    margin: 0 0 0.75rem;
    min-height: 2.5rem;
  }
  [part~='heading'] {
    font-size: var(--dk-heading-size, 1.25rem);
    line-height: 1.25;
    margin: 0;
  }
  [part~='scroll-buttons'] {
    display: flex;
    gap: 0.5rem;
  }
  [part~='scroll-previous'],
  [part~='scroll-next'] {
    width: 2.5rem;
    height: 2.5rem;
    font: inherit;
    font-size: 1.25rem;
    border: var(--dk-card-border, 1px solid #ddd);
    border-radius: 50%;
    background: var(--dk-card-background, transparent);
    color: inherit;
    cursor: pointer;
  }
  :host(:not([layout='grid'])) [part~='list'] {
    grid-template-columns: none;
    grid-auto-flow: column;
    grid-auto-columns: var(--dk-card-width, 10rem);
    overflow-x: auto;
    overscroll-behavior-x: contain;
    scroll-snap-type: x mandatory;
    scrollbar-width: thin;
    padding-bottom: 0.25rem;
  }
  :host(:not([layout='grid'])) [part~='item'] {
    scroll-snap-align: start;
  }
`;
