/** The console's shell: sign-in, the environment picker, navigation between pages (by URL hash, so the back button works), sign-out. */
import { html, nothing } from 'lit';
import type { AdminSessionResponse } from '@discovery-kit/protocol';
import { AdminRequestError, adminFetch, useSession } from './admin-client.js';
import { ConsoleElement, errorText } from './console-element.js';

const PAGES = [
  { id: 'overview', title: 'Overview' },
  { id: 'search', title: 'Search tuning' },
  { id: 'widgets', title: 'Widgets' },
  { id: 'experiments', title: 'Experiments' },
  { id: 'catalog', title: 'Catalog' },
  { id: 'keys', title: 'Keys and tokens' },
] as const;
type PageId = (typeof PAGES)[number]['id'];

const pageFromHash = (): PageId => (PAGES.find((p) => `#${p.id}` === location.hash)?.id ?? 'overview');

export class ConsoleApp extends ConsoleElement {
  static override properties = { ...ConsoleElement.properties, session: { state: true }, page: { state: true }, environment: { state: true }, signInError: { state: true }, checked: { state: true } };
  declare session: AdminSessionResponse | undefined;
  declare page: PageId;
  declare environment: string;
  declare signInError: string;
  declare checked: boolean;

  private readonly onHash = () => {
    this.page = pageFromHash();
  };

  constructor() {
    super();
    this.page = pageFromHash();
    this.environment = '';
    this.signInError = '';
    this.checked = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    addEventListener('hashchange', this.onHash);
    void this.resume();
  }

  override disconnectedCallback(): void {
    removeEventListener('hashchange', this.onHash);
    super.disconnectedCallback();
  }

  /** A session cookie from earlier (HttpOnly: only the server can tell) signs the person straight in. */
  private async resume(): Promise<void> {
    try {
      this.start(await adminFetch<AdminSessionResponse>('/session', { environment: false }));
    } catch (error) {
      if (!(error instanceof AdminRequestError && error.status === 401)) this.signInError = errorText(error);
    }
    this.checked = true;
  }

  private start(session: AdminSessionResponse): void {
    this.environment = new URLSearchParams(location.search).get('environment') ?? session.environments[0]?.id ?? '';
    // A console session always carries a CSRF token; only a service account's bearer call has none.
    useSession(session.csrfToken ?? '', this.environment);
    this.session = session;
  }

  private async signIn(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    try {
      await adminFetch('/session', { json: { tenant: data.get('tenant'), username: data.get('username'), password: data.get('password') }, environment: false });
      this.start(await adminFetch<AdminSessionResponse>('/session', { environment: false }));
      this.signInError = '';
    } catch (error) {
      this.signInError = errorText(error);
    }
  }

  private async signOut(): Promise<void> {
    await adminFetch('/session', { method: 'DELETE', environment: false }).catch(() => undefined);
    this.session = undefined;
  }

  private pickEnvironment(id: string): void {
    this.environment = id;
    useSession(this.session!.csrfToken ?? '', id);
    // Pages load on connect: re-render them for the new environment.
    const page = this.page;
    this.page = 'overview';
    void this.updateComplete.then(() => (this.page = page));
  }

  override render() {
    if (!this.checked) return html`<main><p>Loading…</p></main>`;
    if (this.session === undefined) return this.signInView();
    const s = this.session;
    return html`
      <header class="top">
        <p class="brand">Discovery Kit console</p>
        <p>${s.username} · ${s.tenant}${s.role === 'read' ? ' (read only)' : ''}</p>
        ${s.environments.length > 1
          ? html`<span class="environment"><label for="environment">Environment</label>
              <select id="environment" @change=${(e: Event) => this.pickEnvironment((e.target as HTMLSelectElement).value)}>
                ${s.environments.map((env) => html`<option value=${env.id} ?selected=${env.id === this.environment}>${env.name}</option>`)}
              </select></span>`
          : nothing}
        <button type="button" @click=${() => this.signOut()}>Sign out</button>
      </header>
      <nav aria-label="Console pages">
        <ul>${PAGES.map((p) => html`<li><a href="#${p.id}" aria-current=${p.id === this.page ? 'page' : 'false'}>${p.title}</a></li>`)}</ul>
      </nav>
      <main>${this.pageView()}</main>
    `;
  }

  private pageView() {
    switch (this.page) {
      case 'search':
        return html`<dk-search-page></dk-search-page>`;
      case 'widgets':
        return html`<dk-widgets-page></dk-widgets-page>`;
      case 'catalog':
        return html`<dk-catalog-page></dk-catalog-page>`;
      case 'keys':
        return html`<dk-keys-page></dk-keys-page>`;
      case 'experiments':
        return html`<dk-experiments-page></dk-experiments-page>`;
      default:
        return html`<dk-overview-page></dk-overview-page>`;
    }
  }

  private signInView() {
    return html`<main class="sign-in">
      <h1>Sign in to the Discovery Kit console</h1>
      <form @submit=${(e: SubmitEvent) => this.signIn(e)}>
        <label for="tenant">Shop (tenant id)</label><input id="tenant" name="tenant" autocomplete="organization" required />
        <label for="username">Username</label><input id="username" name="username" autocomplete="username" required />
        <label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required />
        <button type="submit">Sign in</button>
        ${this.signInError !== '' ? html`<p class="error" role="alert">${this.signInError}</p>` : nothing}
      </form>
    </main>`;
  }
}
