/** `<discovery-recommendations>`: a recommendation widget's product cards, with view and click tracking. */
import { LitElement, css, html, nothing } from 'lit';
import type { PropertyValues } from 'lit';
import { readProfileCookie } from '@discovery-kit/tracker';
import { requestJson } from '../api.js';
import { cardStyles } from '../card-styles.js';
import { announceActivity } from '../events.js';
import { renderCard } from '../product-card.js';
import { VisibilityController } from '../visibility.js';
import { readRecommendations, recommendationsUrl } from './recommendations-request.js';
import type { RecommendationsAnswer } from './recommendations-request.js';

const REQUEST_INPUTS = ['widgetId', 'productId', 'category', 'limit', 'apiBase'];

/**
 * Fetches a widget's recommendations and renders them as product cards. Renders nothing while loading,
 * when the server fails, or when fewer than the widget's `minResults` come back.
 *
 * @attr widget-id - the configured widget (required)
 * @attr product-id - the product the page shows; several ids comma-separated (`$productId`)
 * @attr category - sent as `$category`
 * @attr limit - at most this many cards
 * @attr api-base - overrides `configureToolkit({apiBase})`
 * @attr state - reflected: `loading`, `ready`, `empty` or `error`
 * @slot - an optional `<template>` for each card, filled through `data-field` attributes
 * @fires discovery-activity - `view` of the widget once shown, `click` on a card
 * @csspart heading - the widget title
 * @csspart list - the list of cards
 * @csspart item - one list item
 * @csspart card - the default card (a link when the product URL is safe)
 * @csspart photo - @csspart title - @csspart price - pieces of the default card
 * @cssproperty --dk-gap, --dk-card-min-width, --dk-card-padding, --dk-card-border, --dk-card-background, --dk-radius, --dk-price-color, --dk-heading-size
 */
export class DiscoveryRecommendations extends LitElement {
  static override properties = {
    widgetId: { attribute: 'widget-id' },
    productId: { attribute: 'product-id' },
    category: {},
    limit: { type: Number },
    apiBase: { attribute: 'api-base' },
    state: { reflect: true },
    answer: { state: true },
  };

  static override styles = [
    cardStyles,
    css`
      :host {
        display: block;
      }
      :host([state='loading']),
      :host([state='empty']),
      :host([state='error']),
      :host([hidden]) {
        display: none;
      }
      [part~='heading'] {
        font-size: var(--dk-heading-size, 1.25rem);
        margin: 0 0 0.75rem;
      }
    `,
  ];

  declare widgetId: string | null;
  declare productId: string | null;
  declare category: string | null;
  declare limit: number | null;
  declare apiBase: string | null;
  declare state: 'loading' | 'ready' | 'empty' | 'error';
  /** The last answer, when it is shown. */
  declare answer: RecommendationsAnswer | undefined;

  private request?: AbortController;
  private viewedAnswer?: RecommendationsAnswer;
  private readonly visibility = new VisibilityController(this, () => this.reportView());

  constructor() {
    super();
    this.widgetId = null;
    this.productId = null;
    this.category = null;
    this.limit = null;
    this.apiBase = null;
    this.state = 'loading';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.hasUpdated && this.widgetId) void this.load();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.request?.abort();
  }

  protected override willUpdate(changed: PropertyValues): void {
    // Starting here rather than in updated() folds the `loading` state into this same update.
    if (REQUEST_INPUTS.some((name) => changed.has(name))) void this.load();
  }

  protected override updated(): void {
    if (this.state === 'ready') this.reportView();
  }

  /** Fetches again, replacing any request under way; never rejects. */
  async load(): Promise<void> {
    this.request?.abort();
    if (!this.widgetId) {
      this.answer = undefined;
      this.state = 'empty';
      return;
    }
    const request = (this.request = new AbortController());
    this.state = 'loading';
    try {
      const url = recommendationsUrl({
        apiBase: this.apiBase,
        widgetId: this.widgetId,
        productId: this.productId,
        category: this.category,
        limit: this.limit,
        profileId: readProfileCookie(),
      });
      const answer = readRecommendations(await requestJson(url, { signal: request.signal }));
      if (request.signal.aborted) return;
      const enough = answer.cards.length > 0 && answer.cards.length >= answer.minResults;
      this.answer = enough ? answer : undefined;
      this.state = enough ? 'ready' : 'empty';
    } catch (error) {
      // A newer request replaced this one: its answer is the one to show.
      if (request.signal.aborted) return;
      this.answer = undefined;
      this.state = 'error';
    }
  }

  private reportView(): void {
    const answer = this.answer;
    if (!answer || this.state !== 'ready' || !this.visibility.visible || this.viewedAnswer === answer) return;
    this.viewedAnswer = answer;
    announceActivity(this, { action: 'view', sourceId: answer.id, metadata: { widgetId: this.widgetId ?? '' } });
  }

  private reportClick(index: number): void {
    const answer = this.answer;
    const card = answer?.cards[index];
    if (!answer || !card) return;
    announceActivity(this, {
      action: 'click',
      productId: card.productId,
      sourceId: answer.id,
      metadata: { widgetId: this.widgetId ?? '', recommendationId: card.recommendationId, position: index + 1 },
    });
  }

  protected override render(): unknown {
    const answer = this.answer;
    if (!answer) return nothing;
    const template = this.querySelector<HTMLTemplateElement>(':scope > template');
    return html`${answer.title ? html`<h2 part="heading">${answer.title}</h2>` : nothing}
      <ul part="list">
        ${answer.cards.map((card, index) => html`<li part="item" @click=${() => this.reportClick(index)}>${renderCard(card, template)}</li>`)}
      </ul>`;
  }
}
