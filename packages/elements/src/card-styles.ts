/** Styles shared by the elements that show product cards; every value is a `--dk-*` custom property with a default. */
import { css } from 'lit';

export const cardStyles = css`
  [part~='list'] {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: var(--dk-gap, 1rem);
    grid-template-columns: repeat(auto-fill, minmax(var(--dk-card-min-width, 9rem), 1fr));
  }
  [part~='card'] {
    display: flex;
    flex-direction: column;
    gap: 0.25rem;
    height: 100%;
    box-sizing: border-box;
    padding: var(--dk-card-padding, 0.5rem);
    border: var(--dk-card-border, 1px solid #ddd);
    border-radius: var(--dk-radius, 0.5rem);
    background: var(--dk-card-background, transparent);
    color: inherit;
    text-decoration: none;
  }
  a[part~='card']:focus-visible {
    outline: 2px solid var(--dk-accent, #1a56db);
  }
  [part~='photo'] {
    display: block;
    width: 100%;
    aspect-ratio: 1;
    object-fit: contain;
  }
  /* Two lines of title and one of price whatever the text: every card of a row has one height, known ahead. */
  [part~='title'] {
    display: -webkit-box;
    -webkit-box-orient: vertical;
    -webkit-line-clamp: 2;
    overflow: hidden;
    line-height: 1.25;
    height: 2.5em;
  }
  [part~='price'] {
    font-weight: 600;
    line-height: 1.25;
    min-height: 1.25em;
    color: var(--dk-price-color, inherit);
  }
  [part~='mark'] {
    background: var(--dk-mark-background, transparent);
    color: inherit;
    font-weight: var(--dk-mark-weight, 700);
  }
`;
