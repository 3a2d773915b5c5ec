/** Keys and tokens: the environment's tracker keys and search tokens, created, rotated and revoked. */
import { html, nothing } from 'lit';
import type { SearchTokenListResponse, TrackerKeyListResponse } from '@discovery-kit/protocol';
import { adminFetch } from './admin-client.js';
import { ConsoleElement, errorText } from './console-element.js';

export class KeysPage extends ConsoleElement {
  static override properties = { ...ConsoleElement.properties, trackerKeys: { state: true }, searchTokens: { state: true }, error: { state: true } };
  declare trackerKeys: string[];
  declare searchTokens: string[];
  declare error: string;

  constructor() {
    super();
    this.trackerKeys = [];
    this.searchTokens = [];
    this.error = '';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  async load(): Promise<void> {
    try {
      const [keys, tokens] = await Promise.all([adminFetch<TrackerKeyListResponse>('/tracker-keys'), adminFetch<SearchTokenListResponse>('/search-tokens')]);
      this.trackerKeys = keys.trackerKeys;
      this.searchTokens = tokens.searchTokens.map((t) => t.token);
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private async act(path: string, method: string, done: string): Promise<void> {
    if (method === 'DELETE' && !confirm(`${done.replace(/\.$/, '')}? Pages using it stop working at once.`)) return;
    if (await this.save(() => adminFetch(path, { method, json: method === 'POST' && !path.endsWith('rotate') ? {} : undefined }), done)) await this.load();
  }

  private list(kind: 'tracker-keys' | 'search-tokens', values: string[], noun: string) {
    return html`<ul class="keys">
      ${values.map(
        (value) => html`<li><code>${value}</code>
          <button type="button" aria-label="Rotate ${noun} ${value}" @click=${() => this.act(`/${kind}/${encodeURIComponent(value)}/rotate`, 'POST', `${noun} rotated.`)}>Rotate</button>
          <button type="button" aria-label="Revoke ${noun} ${value}" @click=${() => this.act(`/${kind}/${encodeURIComponent(value)}`, 'DELETE', `${noun} revoked.`)}>Revoke</button></li>`,
      )}
    </ul>`;
  }

  override render() {
    return html`
      <h1>Keys and tokens</h1>
      ${this.error !== '' ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${this.statusView()}
      <section aria-labelledby="tk-heading">
        <h2 id="tk-heading">Tracker keys</h2>
        ${this.list('tracker-keys', this.trackerKeys, 'Tracker key')}
        <button type="button" @click=${() => this.act('/tracker-keys', 'POST', 'Tracker key created.')}>New tracker key</button>
      </section>
      <section aria-labelledby="st-heading">
        <h2 id="st-heading">Search tokens</h2>
        ${this.list('search-tokens', this.searchTokens, 'Search token')}
        <button type="button" @click=${() => this.act('/search-tokens', 'POST', 'Search token created.')}>New search token</button>
      </section>
    `;
  }
}
