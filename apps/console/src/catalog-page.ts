/** Catalog: the versions with their item counts and dates, the last import with what failed and why, and a paged, searchable list of a version's items. */
import { html, nothing } from 'lit';
import type { AdminCatalogImportsResponse, AdminCatalogListResponse, AdminItemListResponse, AdminItemRow, CatalogImportRecord } from '@discovery-kit/protocol';
import { adminFetch } from './admin-client.js';
import { ConsolePage } from './console-page.js';

const PAGE_SIZE = 20;
const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const plural = (n: number, noun: string) => `${n.toLocaleString()} ${noun}${n === 1 ? '' : 's'}`;

function price(row: AdminItemRow): string {
  if (row.price === undefined) return '—';
  return (row.price / 100).toLocaleString(undefined, row.currency === undefined ? { minimumFractionDigits: 2 } : { style: 'currency', currency: row.currency });
}

export class CatalogPage extends ConsolePage {
  protected readonly heading = 'Catalog';
  static override properties = { ...ConsolePage.properties, catalogs: { state: true }, lastImport: { state: true }, list: { state: true }, loaded: { state: true } };
  declare catalogs: AdminCatalogListResponse['catalogs'];
  declare lastImport: CatalogImportRecord | undefined;
  declare list: AdminItemListResponse | undefined;
  /** False until the first load answered: the page's sections appear at once then, rather than empty tables that grow and push what follows down. */
  declare loaded: boolean;
  /** What the item list shows: the words searched, the version (the active one when undefined) and the first row. */
  private query = { q: '', version: undefined as number | undefined, offset: 0 };

  constructor() {
    super();
    this.catalogs = [];
    this.loaded = false;
  }

  protected async load(): Promise<void> {
    // One render for the three answers, so nothing already shown moves when a later one arrives.
    const [catalogs, imports, list] = await Promise.all([
      adminFetch<AdminCatalogListResponse>('/catalogs'),
      adminFetch<AdminCatalogImportsResponse>('/catalog-imports?limit=1'),
      this.fetchItems().catch(() => undefined),
    ]);
    this.catalogs = catalogs.catalogs;
    this.lastImport = imports.imports[0];
    this.list = list;
    this.loaded = true;
  }

  private fetchItems(): Promise<AdminItemListResponse> {
    const params = new URLSearchParams({ q: this.query.q, offset: String(this.query.offset), limit: String(PAGE_SIZE) });
    if (this.query.version !== undefined) params.set('catalogVersion', String(this.query.version));
    return adminFetch<AdminItemListResponse>(`/items?${params}`);
  }

  private async showItems(change: Partial<CatalogPage['query']>): Promise<void> {
    this.query = { ...this.query, ...change };
    await this.attempt(async () => void (this.list = await this.fetchItems()));
  }

  /** Shows the page before (-1) or after (1); on the first or last page, where the button pressed is disabled, the focus moves to the other one. */
  private async turnPage(step: -1 | 1): Promise<void> {
    await this.showItems({ offset: Math.max(0, this.query.offset + step * PAGE_SIZE) });
    await this.updateComplete;
    const pressed = this.querySelector<HTMLButtonElement>(`button[data-page="${step < 0 ? 'previous' : 'next'}"]`);
    if (pressed?.disabled === true) this.querySelector<HTMLButtonElement>(`button[data-page="${step < 0 ? 'next' : 'previous'}"]`)?.focus();
  }

  private async promote(version: number): Promise<void> {
    if (await this.save(() => adminFetch(`/catalogs/${version}/promote`, { method: 'POST' }), `Catalog version ${version} promoted.`)) await this.reload();
  }

  private search(event: SubmitEvent): void {
    event.preventDefault();
    const q = (this.querySelector('#item-q') as HTMLInputElement).value.trim();
    const chosen = (this.querySelector('#item-version') as HTMLSelectElement).value;
    void this.showItems({ q, version: chosen === '' ? undefined : Number(chosen), offset: 0 });
  }

  private versionsView() {
    return html`<div class="table-scroll" tabindex="0" role="region" aria-label="Catalog versions, scrolls sideways">
      <table>
        <caption>Catalog versions</caption>
        <thead><tr><th scope="col">Version</th><th scope="col">State</th><th scope="col">Items</th><th scope="col">Created</th><th scope="col">Last active from</th><th scope="col">Action</th></tr></thead>
        <tbody>
          ${this.catalogs.map(
            (c) => html`<tr data-version=${c.version} data-state=${c.state}>
              <th scope="row">${c.version}</th>
              <td>${c.state === 'active' ? html`<strong>active</strong>` : c.state}${c.promotionError !== undefined ? html`<br /><span class="error">Promotion failed: ${c.promotionError}</span>` : nothing}</td>
              <td data-items>${c.items.toLocaleString()}</td>
              <td>${when(c.createdAt)}</td>
              <td>${c.activatedAt === null ? 'never' : when(c.activatedAt)}</td>
              <td>${c.state === 'active' ? 'serving shoppers' : html`<button type="button" @click=${() => this.promote(c.version)}>Promote version ${c.version}</button>`}</td>
            </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
  }

  private importView() {
    const last = this.lastImport;
    if (last === undefined) return html`<p data-import="none">No item batch has been sent through the catalog API yet.</p>`;
    const into = last.catalogVersion === null ? 'no readable version' : `version ${last.catalogVersion}`;
    const what = last.mode === 'load' ? 'loaded' : 'patched';
    if (last.error === undefined) {
      return html`<p data-import="stored">${plural(last.stored, 'item')} ${what} into ${into}, ${when(last.at)}.</p>`;
    }
    return html`<p data-import="refused"><strong>Refused:</strong> ${plural(last.received, 'item')} sent to ${into}, ${when(last.at)}; nothing was stored.</p>
      <p class="error" data-import-error>${last.error}</p>
      ${last.issues.length === 0
        ? nothing
        : html`<div class="table-scroll" tabindex="0" role="region" aria-label="What failed in the last import, scrolls sideways">
            <table class="import-issues">
              <caption>What failed${last.issueCount > last.issues.length ? ` (the first ${last.issues.length} of ${last.issueCount})` : ''}</caption>
              <thead><tr><th scope="col">Item and field</th><th scope="col">Why</th></tr></thead>
              <tbody>${last.issues.map((issue) => html`<tr data-issue=${issue.path}><th scope="row"><code>${issue.path}</code></th><td>${issue.message}</td></tr>`)}</tbody>
            </table>
          </div>`}`;
  }

  private itemsView() {
    const list = this.list;
    const first = list === undefined || list.total === 0 ? 0 : list.offset + 1;
    const last = list === undefined ? 0 : list.offset + list.items.length;
    return html`<form class="inline" role="search" aria-label="Items" @submit=${(e: SubmitEvent) => this.search(e)}>
        <div><label for="item-q">Title or id</label><input id="item-q" type="search" maxlength="200" .value=${this.query.q} /></div>
        <div><label for="item-version">Version</label>
          <select id="item-version">
            <option value="" ?selected=${this.query.version === undefined}>active</option>
            ${this.catalogs.map((c) => html`<option value=${c.version} ?selected=${this.query.version === c.version}>${c.version}</option>`)}
          </select></div>
        <button type="submit">Search</button>
      </form>
      <p data-item-range aria-live="polite">${list === undefined
        ? 'No active catalog to list.'
        : list.total === 0
          ? `No item of version ${list.catalogVersion}${list.q === '' ? '' : ` matches “${list.q}”`}.`
          : `Items ${first.toLocaleString()}–${last.toLocaleString()} of ${list.total.toLocaleString()} in version ${list.catalogVersion}${list.q === '' ? '' : ` matching “${list.q}”`}`}</p>
      <div class="table-scroll" tabindex="0" role="region" aria-label="Items, scrolls sideways">
        <table class="items">
          <caption class="visually-hidden">Items</caption>
          <thead><tr><th scope="col"><span class="visually-hidden">Photo</span></th><th scope="col">Title</th><th scope="col">Price</th><th scope="col">Id</th></tr></thead>
          <tbody>
            ${(list?.items ?? []).map(
              (row) => html`<tr data-item=${row.id}>
                <td>${row.photo === '' ? html`<span class="no-photo"></span>` : html`<img src=${row.photo} alt="" width="48" height="48" loading="lazy" />`}</td>
                <th scope="row">${row.title || html`<small>(no title)</small>`}${row.parentId === undefined ? nothing : html`<br /><small>variant of ${row.parentId}</small>`}</th>
                <td>${price(row)}</td>
                <td><code>${row.id}</code></td>
              </tr>`,
            )}
          </tbody>
        </table>
      </div>
      <div class="pager">
        <button type="button" class="secondary" data-page="previous" ?disabled=${list === undefined || list.offset === 0} @click=${() => this.turnPage(-1)}>Previous ${PAGE_SIZE}</button>
        <button type="button" class="secondary" data-page="next" ?disabled=${list === undefined || last >= list.total} @click=${() => this.turnPage(1)}>Next ${PAGE_SIZE}</button>
      </div>`;
  }

  protected body() {
    if (!this.loaded) return this.error === '' ? html`<p class="hint">Loading the catalog…</p>` : nothing;
    return html`
      ${this.versionsView()}
      <section aria-labelledby="import-heading">
        <h2 id="import-heading">Last import</h2>
        ${this.importView()}
      </section>
      <section aria-labelledby="items-heading">
        <h2 id="items-heading">Items</h2>
        ${this.itemsView()}
      </section>
    `;
  }
}
