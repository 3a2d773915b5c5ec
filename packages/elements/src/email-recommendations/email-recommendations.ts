/** `<discovery-email-recommendations>`: builds the e-mail block of recommendation links, previews it, and copies its HTML. */
import { LitElement, css, html, nothing } from 'lit';
import type { PropertyValues } from 'lit';
import { requestJson } from '../api.js';
import { toolkitConfig } from '../config.js';
import { readRecommendations } from '../recommendations/recommendations-request.js';
import { emailImageSize, emailRecommendationsHtml } from './email-html.js';
import type { EmailBlockOptions } from './email-html.js';

/**
 * For marketers: the HTML to paste into an e-mail template. Each position links to
 * `.../{position}/redirect.html` (which records the click and redirects to the product) around
 * `.../{position}/photo.png`, so the e-mail shows the user's recommendations when it is opened.
 *
 * @attr widget-id, datasource-id, user-id - required; path segments, URL-encoded
 * @attr count - positions (default 4, at most 20)
 * @attr columns - positions per row (default 4)
 * @attr image-size - image width and height in pixels (default 128; smaller when a row would pass 600 px)
 * @attr alt - alt text of a position whose product title is not known, followed by the position (default `Recommended product`)
 * @attr merge-tag - boolean: `user-id` is the e-mail platform's merge tag, kept as written
 * @attr api-base - overrides `configureToolkit({apiBase})`; made absolute against the page
 * @csspart preview, code, copy, status
 */
export class DiscoveryEmailRecommendations extends LitElement {
  static override properties = {
    widgetId: { attribute: 'widget-id' },
    datasourceId: { attribute: 'datasource-id' },
    userId: { attribute: 'user-id' },
    count: { type: Number },
    columns: { type: Number },
    imageSize: { attribute: 'image-size', type: Number },
    alt: {},
    mergeTag: { attribute: 'merge-tag', type: Boolean },
    apiBase: { attribute: 'api-base' },
    status: { state: true },
    titles: { state: true },
  };

  static override styles = css`
    :host {
      display: block;
    }
    [part~='preview'] {
      display: block;
      width: 100%;
      border: var(--dk-card-border, 1px solid #ddd);
      border-radius: var(--dk-radius, 0.5rem);
      pointer-events: none;
    }
    [part~='code'] {
      display: block;
      width: 100%;
      box-sizing: border-box;
      min-height: 8rem;
      margin: 0.5rem 0;
      font-family: ui-monospace, monospace;
      font-size: 0.8rem;
    }
  `;

  declare widgetId: string | null;
  declare datasourceId: string | null;
  declare userId: string | null;
  declare count: number;
  declare columns: number;
  declare imageSize: number;
  declare alt: string;
  declare mergeTag: boolean;
  declare apiBase: string | null;
  declare status: string;
  /** The user's current picks' titles, the alt texts of the copied HTML (none for a merge tag: the user is not known). */
  declare titles: string[];
  private request?: AbortController;

  constructor() {
    super();
    this.widgetId = null;
    this.datasourceId = null;
    this.userId = null;
    this.count = 4;
    this.columns = 4;
    this.imageSize = 128;
    this.alt = 'Recommended product';
    this.mergeTag = false;
    this.apiBase = null;
    this.status = '';
    this.titles = [];
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.request?.abort();
  }

  protected override willUpdate(changed: PropertyValues): void {
    if (['widgetId', 'datasourceId', 'userId', 'count', 'mergeTag', 'apiBase'].some((name) => changed.has(name))) void this.loadTitles();
  }

  /** The titles of what the user would be shown now; a failure leaves the generic alt text. */
  private async loadTitles(): Promise<void> {
    this.request?.abort();
    this.titles = [];
    const options = this.blockOptions;
    if (!options || options.mergeTag) return;
    const request = (this.request = new AbortController());
    const path = `/widget/${encodeURIComponent(options.widgetId)}/recommendations/${encodeURIComponent(options.datasourceId)}/${encodeURIComponent(options.userId)}`;
    try {
      const answer = readRecommendations(await requestJson(`${options.apiBase.replace(/\/+$/, '')}${path}?limit=${options.count}`, { signal: request.signal }));
      if (!request.signal.aborted) this.titles = answer.cards.map((card) => card.title);
    } catch {
      // Generic alt texts are still correct ones.
    }
  }

  /** The options of the block, or undefined while a required attribute is missing. */
  get blockOptions(): EmailBlockOptions | undefined {
    if (!this.widgetId || !this.datasourceId || !this.userId) return undefined;
    const whole = (value: number, fallback: number, max: number) => (Number.isFinite(value) && value >= 1 ? Math.min(Math.floor(value), max) : fallback);
    return {
      apiBase: new URL(this.apiBase || toolkitConfig().apiBase || location.origin, location.href).href,
      widgetId: this.widgetId,
      datasourceId: this.datasourceId,
      userId: this.userId,
      count: whole(this.count, 4, 20),
      columns: whole(this.columns, 4, 20),
      imageSize: whole(this.imageSize, 128, 600),
      alt: this.alt,
      titles: this.titles,
      mergeTag: this.mergeTag,
    };
  }

  /** The HTML to paste, or '' while a required attribute is missing. */
  get emailHtml(): string {
    const options = this.blockOptions;
    return options ? emailRecommendationsHtml(options) : '';
  }

  private async copy(): Promise<void> {
    const text = this.emailHtml;
    try {
      await navigator.clipboard.writeText(text);
      this.status = 'Copied';
    } catch {
      // No clipboard permission (or an insecure page): copy the selected text the older way.
      const code = this.renderRoot.querySelector('textarea')!;
      code.select();
      this.status = document.execCommand('copy') ? 'Copied' : 'Select the HTML and copy it';
    }
  }

  protected override render(): unknown {
    const options = this.blockOptions;
    if (!options) return nothing;
    const text = emailRecommendationsHtml(options);
    const rows = Math.ceil(options.count / options.columns);
    return html`<iframe
        part="preview"
        title="E-mail preview"
        sandbox="allow-same-origin"
        style="height:${rows * (emailImageSize(options.imageSize, options.columns) + 16) + 24}px;max-width:616px"
        .srcdoc=${`<!doctype html><body style="margin:8px">${text}</body>`}
      ></iframe>
      <textarea part="code" readonly aria-label="E-mail HTML" .value=${text}></textarea>
      <button part="copy" type="button" @click=${() => void this.copy()}>Copy HTML</button>
      <span part="status" role="status">${this.status}</span>`;
  }
}
