/** One product as the elements show it: catalog data reduced to safe URLs and a formatted price, rendered by default or through the shop's template. */
import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import type { ProductView } from '@discovery-kit/protocol';
import { asText, asWire } from './api.js';
import { priceCurrency, priceLocale } from './config.js';
import { formatPrice } from './format-price.js';
import { fillMarked, renderMarked } from './highlight.js';
import { safeImageUrl, safeLinkUrl } from './safe-url.js';

export interface ProductCard {
  productId: string;
  title: string;
  /** A safe link, or undefined when the catalog's URL is missing or unsafe (the card is then not a link). */
  url?: string;
  photo?: string;
  /** The price formatted for the shopper, empty when there is none. */
  price: string;
  /** The product's other catalog attributes, for `data-field` in a shop template. */
  attributes: Record<string, unknown>;
  /** Ranges of the title that matched the shopper's words (search results only). */
  titleMarks?: Array<[number, number]>;
}

/** `productId` is the search item's id; a recommendation's product carries its catalog id in `_id.original_id`. */
export function toProductCard(product: unknown, productId?: string): ProductCard | undefined {
  const attributes = asWire<ProductView>(product);
  const id = productId || asText(asWire<ProductView['_id']>(attributes._id).original_id) || asText(attributes.id);
  if (!id) return undefined;
  return {
    productId: id,
    title: asText(attributes.title),
    url: safeLinkUrl(attributes.url),
    photo: safeImageUrl(attributes.photo),
    price: formatPrice(attributes.price, priceCurrency(attributes.currency), priceLocale()),
    attributes,
  };
}

/** The default card: a link (when the URL is safe) holding photo, title and price, each a `::part`. */
export function renderDefaultCard(card: ProductCard): TemplateResult {
  const body = html`${card.photo ? html`<img part="photo" src=${card.photo} alt="" loading="lazy" />` : nothing}<span part="title"
      >${renderMarked(card.title, card.titleMarks)}</span
    >${card.price ? html`<span part="price">${card.price}</span>` : nothing}`;
  return card.url ? html`<a part="card" href=${card.url}>${body}</a>` : html`<div part="card">${body}</div>`;
}

/**
 * Fills a clone of the shop's `<template>`: `data-field="url"` gets `href`, `data-field="photo"` gets `src`,
 * any other `data-field` gets the attribute's text. Catalog data only ever becomes text or a checked URL.
 */
export function fillCardTemplate(template: HTMLTemplateElement, card: ProductCard): DocumentFragment {
  const fragment = template.content.cloneNode(true) as DocumentFragment;
  for (const element of fragment.querySelectorAll<HTMLElement>('[data-field]')) {
    const field = element.dataset.field ?? '';
    if (field === 'url') {
      if (card.url) element.setAttribute('href', card.url);
      else element.removeAttribute('href');
    } else if (field === 'photo') {
      if (!card.photo) element.remove();
      else {
        element.setAttribute('src', card.photo);
        if (!element.hasAttribute('alt')) element.setAttribute('alt', '');
      }
    } else {
      if (field === 'title') fillMarked(element, card.title, card.titleMarks);
      else element.textContent = field === 'price' ? card.price : asText(card.attributes[field]);
    }
  }
  return fragment;
}

export function renderCard(card: ProductCard, template: HTMLTemplateElement | null): TemplateResult | DocumentFragment {
  return template ? fillCardTemplate(template, card) : renderDefaultCard(card);
}
