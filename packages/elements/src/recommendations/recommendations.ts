/** `<discovery-recommendations>`: a recommendation widget's product cards, with view and click tracking. */
import { LitElement, html, nothing } from 'lit';
import type { PropertyValues } from 'lit';
import { readProfileCookie } from '@discovery-kit/tracker';
import { requestJson } from '../api.js';
import { cardStyles } from '../card-styles.js';
import { announceActivity } from '../events.js';
import { renderCard } from '../product-card.js';
import { VisibilityController } from '../visibility.js';
import { readRecommendations, recommendationsUrl } from './recommendations-request.js';
import { pageLang } from '../page-lang.js';
import type { RecommendationsAnswer } from './recommendations-request.js';
import { recommendationsStyles } from './recommendations.styles.js';
import { joinPage, leavePage, shownBefore } from './shown-on-page.js';
import type { PageWidget } from './shown-on-page.js';

const REQUEST_INPUTS = ['widgetId', 'productId', 'category', 'limit', 'apiBase'];

/**
 * Fetches a widget's recommendations and renders them as product cards, in a row that scrolls sideways
 * (`layout="grid"` for a grid). While loading it keeps the row's height free (`--dk-recommendations-height`)
 * so the page does not jump; it collapses when the server fails or fewer than the widget's `minResults` come back.
 * Widgets on one page leave out the products the widgets before them show (`idsToBan`), and the page's product.
 *
 * @attr widget-id - the configured widget (required)
 * @attr product-id - the product the page shows; several ids comma-separated (`$productId`)
 * @attr category - sent as `$category`
 * @attr limit - at most this many cards
 * @attr layout - `row` (default: one row scrolling sideways, with previous/next buttons) or `grid`
 * @attr priority - widgets of higher priority pick first (default 0, then document order); the others leave their products out
 * @attr api-base - overrides `configureToolkit({apiBase})`
 * @attr state - reflected: `loading`, `ready`, `empty` or `error`
 * @slot - an optional `<template>` for each card, filled through `data-field` attributes
 * @fires discovery-activity - the widget's impression once on screen (a `view` with `metadata.widgetId` and
 *   `metadata.impression`, not a page view), `click` on a card
 * @csspart heading - the widget title
 * @csspart list - the list of cards
 * @csspart item - one list item
 * @csspart card - the default card (a link when the product URL is safe)
 * @csspart photo - @csspart title - @csspart price - pieces of the default card
 * @csspart scroll-previous, scroll-next - the row's buttons
 * @cssproperty --dk-gap, --dk-card-min-width, --dk-card-width, --dk-card-padding, --dk-card-border, --dk-card-background, --dk-radius, --dk-price-color, --dk-heading-size, --dk-recommendations-height
 */
export class DiscoveryRecommendations extends LitElement implements PageWidget {
  static override properties = {
    widgetId: { attribute: 'widget-id' },
    productId: { attribute: 'product-id' },
    category: {},
    limit: { type: Number },
    layout: { reflect: true },
    priority: { type: Number },
    apiBase: { attribute: 'api-base' },
    state: { reflect: true },
    answer: { state: true },
  };

  static override styles = [cardStyles, recommendationsStyles];

  declare widgetId: string | null;
  declare productId: string | null;
  declare category: string | null;
  declare limit: number | null;
  declare layout: 'row' | 'grid';
  declare priority: number;
  declare apiBase: string | null;
  declare state: 'loading' | 'ready' | 'empty' | 'error';
  /** The last answer, when it is shown. */
  declare answer: RecommendationsAnswer | undefined;

  private request?: AbortController;
  private firstSettled!: () => void;
  /** Until the first answer: widgets after this one wait for it even before its first request has started. */
  settled: Promise<void> = new Promise((resolve) => (this.firstSettled = resolve));
  private viewedAnswer?: RecommendationsAnswer;
  private readonly visibility = new VisibilityController(this, () => this.reportView());

  constructor() {
    super();
    this.widgetId = null;
    this.productId = null;
    this.category = null;
    this.limit = null;
    this.layout = 'row';
    this.priority = 0;
    this.apiBase = null;
    this.state = 'loading';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    joinPage(this);
    if (this.hasUpdated && this.widgetId) void this.load();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    leavePage(this);
    this.request?.abort();
  }

  get turn(): number {
    return Number.isFinite(this.priority) ? this.priority : 0;
  }

  shownIds(): string[] {
    return this.state === 'ready' && this.answer ? this.answer.cards.map((card) => card.productId) : [];
  }

  protected override willUpdate(changed: PropertyValues): void {
    // Starting here rather than in updated() folds the `loading` state into this same update.
    if (REQUEST_INPUTS.some((name) => changed.has(name))) void this.load();
  }

  protected override updated(): void {
    if (this.state === 'ready') this.reportView();
  }

  /** Fetches again, replacing any request under way; never rejects. */
  load(): Promise<void> {
    const done = this.fetchAnswer();
    void done.then(this.firstSettled);
    this.settled = done;
    return done;
  }

  private async fetchAnswer(): Promise<void> {
    this.request?.abort();
    if (!this.widgetId) {
      this.answer = undefined;
      this.state = 'empty';
      return;
    }
    const request = (this.request = new AbortController());
    this.state = 'loading';
    try {
      const pageProducts = (this.productId ?? '').split(',').map((id) => id.trim()).filter(Boolean);
      const banned = [...new Set([...pageProducts, ...(await shownBefore(this))])];
      if (request.signal.aborted) return;
      const url = recommendationsUrl({
        apiBase: this.apiBase,
        widgetId: this.widgetId,
        productId: this.productId,
        category: this.category,
        limit: this.limit,
        profileId: readProfileCookie(),
        idsToBan: banned,
        lang: pageLang(this),
      });
      const answer = readRecommendations(await requestJson(url, { signal: request.signal }));
      if (request.signal.aborted) return;
      // The server leaves them out; a server that does not still must not repeat a product on the page.
      const ban = new Set(banned);
      answer.cards = answer.cards.filter((card) => !ban.has(card.productId));
      const enough = answer.cards.length > 0 && answer.cards.length >= answer.minResults;
      this.answer = enough ? answer : undefined;
      this.state = enough ? 'ready' : 'empty';
    } catch {
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
    announceActivity(this, { action: 'view', sourceId: answer.id, metadata: { widgetId: this.widgetId ?? '', impression: true } });
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

  /** Moves the row by about its visible width. */
  private scrollRow(direction: 1 | -1): void {
    const list = this.renderRoot.querySelector<HTMLElement>('[part~=list]');
    list?.scrollBy({ left: direction * list.clientWidth * 0.9, behavior: 'smooth' });
  }

  protected override render(): unknown {
    const answer = this.answer;
    if (!answer) return nothing;
    const template = this.querySelector<HTMLTemplateElement>(':scope > template');
    const row = this.layout !== 'grid';
    return html`<div part="header">
        ${answer.title ? html`<h2 part="heading">${answer.title}</h2>` : nothing}
        ${row
          ? html`<span part="scroll-buttons">
              <button part="scroll-previous" type="button" aria-label="Previous" @click=${() => this.scrollRow(-1)}>‹</button>
              <button part="scroll-next" type="button" aria-label="Next" @click=${() => this.scrollRow(1)}>›</button>
            </span>`
          : nothing}
      </div>
      <ul part="list">
        ${answer.cards.map((card, index) => html`<li part="item" @click=${() => this.reportClick(index)}>${renderCard(card, template)}</li>`)}
      </ul>`;
  }
}
