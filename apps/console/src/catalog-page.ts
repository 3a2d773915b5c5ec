/** Catalog: the versions with their states, dates and failed promotions, promoting one, and looking up an item of the active catalog. */
import { html, nothing } from 'lit';
import type { AdminItemResponse, AdminCatalogListResponse } from '@discovery-kit/protocol';
import { adminFetch } from './admin-client.js';
import { ConsolePage } from './console-page.js';

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export class CatalogPage extends ConsolePage {
  protected readonly heading = 'Catalog';
  static override properties = { ...ConsolePage.properties, catalogs: { state: true }, item: { state: true } };
  declare catalogs: AdminCatalogListResponse['catalogs'];
  declare item: AdminItemResponse | undefined;

  constructor() {
    super();
    this.catalogs = [];
  }

  protected async load(): Promise<void> {
    this.catalogs = (await adminFetch<AdminCatalogListResponse>('/catalogs')).catalogs;
  }

  private async promote(version: number): Promise<void> {
    if (await this.save(() => adminFetch(`/catalogs/${version}/promote`, { method: 'POST' }), `Catalog version ${version} promoted.`)) await this.reload();
  }

  private async lookUp(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const id = (this.querySelector('#item-id') as HTMLInputElement).value.trim();
    this.item = undefined;
    await this.attempt(async () => void (this.item = await adminFetch<AdminItemResponse>(`/items/${encodeURIComponent(id)}`)));
  }

  protected body() {
    return html`
      <div class="table-scroll" tabindex="0" role="region" aria-label="Catalog versions, scrolls sideways">
      <table>
        <caption>Catalog versions</caption>
        <thead><tr><th scope="col">Version</th><th scope="col">State</th><th scope="col">Items</th><th scope="col">Created</th><th scope="col">Last active from</th><th scope="col">Action</th></tr></thead>
        <tbody>
          ${this.catalogs.map(
            (c) => html`<tr data-version=${c.version}>
              <th scope="row">${c.version}</th>
              <td>${c.state}${c.promotionError !== undefined ? html`<br /><span class="error">Promotion failed: ${c.promotionError}</span>` : nothing}</td>
              <td data-items>${c.items.toLocaleString()}</td>
              <td>${when(c.createdAt)}</td>
              <td>${c.activatedAt === null ? 'never' : when(c.activatedAt)}</td>
              <td>${c.state === 'active' ? 'serving shoppers' : html`<button type="button" @click=${() => this.promote(c.version)}>Promote version ${c.version}</button>`}</td>
            </tr>`,
          )}
        </tbody>
      </table>
      </div>
      <form class="inline" @submit=${(e: SubmitEvent) => this.lookUp(e)}>
        <label for="item-id">Item id</label><input id="item-id" required />
        <button type="submit">Look up</button>
      </form>
      ${this.item === undefined ? nothing : html`<pre class="item">${JSON.stringify(this.item, null, 2)}</pre>`}
    `;
  }
}
