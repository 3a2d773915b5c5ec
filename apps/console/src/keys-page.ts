/** Keys and tokens: the environment's tracker keys and search tokens, created, rotated and revoked. */
import { html } from 'lit';
import type { SearchTokenListResponse, TrackerKeyListResponse } from '@discovery-kit/protocol';
import { adminFetch } from './admin-client.js';
import { ConsolePage } from './console-page.js';

export class KeysPage extends ConsolePage {
  protected readonly heading = 'Keys and tokens';
  static override properties = { ...ConsolePage.properties, trackerKeys: { state: true }, searchTokens: { state: true } };
  declare trackerKeys: string[];
  declare searchTokens: string[];

  constructor() {
    super();
    this.trackerKeys = [];
    this.searchTokens = [];
  }

  protected async load(): Promise<void> {
    const [keys, tokens] = await Promise.all([adminFetch<TrackerKeyListResponse>('/tracker-keys'), adminFetch<SearchTokenListResponse>('/search-tokens')]);
    this.trackerKeys = keys.trackerKeys;
    this.searchTokens = tokens.searchTokens.map((t) => t.token);
  }

  private async act(path: string, method: string, done: string): Promise<void> {
    if (method === 'DELETE' && !confirm(`${done.replace(/\.$/, '')}? Pages using it stop working at once.`)) return;
    if (await this.save(() => adminFetch(path, { method, json: method === 'POST' && !path.endsWith('rotate') ? {} : undefined }), done)) await this.reload();
  }

  private list(kind: 'tracker-keys' | 'search-tokens', values: string[], noun: string) {
    return html`<ul class="keys">
      ${values.map(
        (value) => html`<li><code>${value}</code>
          <button type="button" aria-label="Rotate ${noun} ${value}" @click=${() => this.act(`/${kind}/${encodeURIComponent(value)}/rotate`, 'POST', `${noun} rotated.`)}>Rotate</button>
          <button type="button" class="danger" aria-label="Revoke ${noun} ${value}" @click=${() => this.act(`/${kind}/${encodeURIComponent(value)}`, 'DELETE', `${noun} revoked.`)}>Revoke</button></li>`,
      )}
    </ul>`;
  }

  protected body() {
    return html`
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
