/** Catalog: the versions and their states, promoting one, and looking up an item of the active catalog. */
import { html, nothing } from 'lit';
import type { AdminItemResponse, CatalogListResponse, CatalogRecord } from '@discovery-kit/protocol';
import { adminFetch } from './admin-client.js';
import { ConsoleElement, errorText } from './console-element.js';

export class CatalogPage extends ConsoleElement {
  static override properties = { ...ConsoleElement.properties, catalogs: { state: true }, item: { state: true }, error: { state: true } };
  declare catalogs: CatalogRecord[];
  declare item: AdminItemResponse | undefined;
  declare error: string;

  constructor() {
    super();
    this.catalogs = [];
    this.error = '';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  async load(): Promise<void> {
    try {
      this.catalogs = (await adminFetch<CatalogListResponse>('/catalogs')).catalogs;
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private async promote(version: number): Promise<void> {
    if (await this.save(() => adminFetch(`/catalogs/${version}/promote`, { method: 'POST' }), `Catalog version ${version} promoted.`)) await this.load();
  }

  private async lookUp(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const id = (this.querySelector('#item-id') as HTMLInputElement).value.trim();
    try {
      this.item = await adminFetch<AdminItemResponse>(`/items/${encodeURIComponent(id)}`);
      this.error = '';
    } catch (error) {
      this.item = undefined;
      this.error = errorText(error);
    }
  }

  override render() {
    return html`
      <h1>Catalog</h1>
      ${this.error !== '' ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${this.statusView()}
      <table>
        <caption>Catalog versions</caption>
        <thead><tr><th scope="col">Version</th><th scope="col">State</th><th scope="col">Action</th></tr></thead>
        <tbody>
          ${this.catalogs.map(
            (c) => html`<tr><th scope="row">${c.version}</th><td>${c.state}</td><td>${c.state === 'active' ? '—' : html`<button type="button" @click=${() => this.promote(c.version)}>Promote version ${c.version}</button>`}</td></tr>`,
          )}
        </tbody>
      </table>
      <form class="inline" @submit=${(e: SubmitEvent) => this.lookUp(e)}>
        <label for="item-id">Item id</label><input id="item-id" required />
        <button type="submit">Look up</button>
      </form>
      ${this.item === undefined ? nothing : html`<pre class="item">${JSON.stringify(this.item, null, 2)}</pre>`}
    `;
  }
}
