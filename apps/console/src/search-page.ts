/**
 * Search tuning: type a query and see the ranked results with their scores and why each matched;
 * pin, boost or bury a result with one click; see what learning from shoppers moved (votes, lift,
 * the text order beside it), reset it for a query or switch it off; edit synonyms and redirects; and
 * fix the queries that find nothing, from the list of zero-result queries.
 */
import { html, nothing } from 'lit';
import type { AdminSearchToken, LearnedItemView, QueryAnalyticsResponse, QueryAnalyticsRow, SearchConfigurationView, SearchExplanation, SearchTokenListResponse } from '@discovery-kit/protocol';
import { adminFetch } from './admin-client.js';
import { ConsoleElement, errorText } from './console-element.js';
import { normalizeQuery, parseSynonyms, placeItem, redirectId, synonymsText, type Placement } from './search-config.js';

export class SearchPage extends ConsoleElement {
  static override properties = {
    ...ConsoleElement.properties,
    tokens: { state: true },
    tokenIndex: { state: true },
    query: { state: true },
    explanation: { state: true },
    zeroResult: { state: true },
    topQueries: { state: true },
    error: { state: true },
  };
  declare tokens: AdminSearchToken[];
  declare tokenIndex: number;
  declare query: string;
  declare explanation: SearchExplanation | undefined;
  declare zeroResult: QueryAnalyticsRow[];
  declare topQueries: QueryAnalyticsRow[];
  declare error: string;

  constructor() {
    super();
    this.tokens = [];
    this.tokenIndex = 0;
    this.query = '';
    this.zeroResult = [];
    this.topQueries = [];
    this.error = '';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private get token(): AdminSearchToken | undefined {
    return this.tokens[this.tokenIndex];
  }

  private get configuration(): SearchConfigurationView | undefined {
    const token = this.token;
    if (token === undefined) return undefined;
    return token.configurations.find((c) => c.id === (token.defaultConfigurationId ?? token.configurations[0]?.id)) ?? token.configurations[0];
  }

  async load(): Promise<void> {
    try {
      const [tokens, queries] = await Promise.all([
        adminFetch<SearchTokenListResponse>('/search-tokens'),
        adminFetch<QueryAnalyticsResponse>('/analytics/queries?days=30&limit=20'),
      ]);
      this.tokens = tokens.searchTokens;
      if (this.tokenIndex >= this.tokens.length) this.tokenIndex = 0;
      this.zeroResult = queries.zeroResult;
      this.topQueries = queries.top;
      this.error = '';
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private async explain(): Promise<void> {
    const token = this.token;
    if (token === undefined || this.query.trim() === '') return;
    try {
      const params = new URLSearchParams({ q: this.query, configurationId: this.configuration!.id });
      this.explanation = await adminFetch<SearchExplanation>(`/search-tokens/${encodeURIComponent(token.token)}/explain?${params}`);
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private async putConfiguration(next: SearchConfigurationView, done: string): Promise<void> {
    const token = this.token!;
    const ok = await this.save(() => adminFetch(`/search-tokens/${encodeURIComponent(token.token)}/configurations/${encodeURIComponent(next.id)}`, { method: 'PUT', json: next }), done);
    if (ok) {
      await this.load();
      await this.explain();
    }
  }

  /** Learning's votes for the query tried stop counting (the configuration keeps when). */
  private async resetLearning(): Promise<void> {
    const token = this.token!;
    const key = this.explanation?.learning?.key;
    if (key === undefined) return;
    const ok = await this.save(() => adminFetch(`/search-tokens/${encodeURIComponent(token.token)}/learning/reset`, { method: 'POST', json: { configurationId: this.configuration!.id, key } }), `Learning reset for “${normalizeQuery(this.query)}”.`);
    if (ok) {
      await this.load();
      await this.explain();
    }
  }

  private switchLearning(enabled: boolean): void {
    const config = this.configuration!;
    void this.putConfiguration({ ...config, learning: { ...config.learning, enabled } }, `Learning ${enabled ? 'on' : 'off'} for configuration ${config.id}.`);
  }

  private place(itemId: string, placement: Placement): void {
    const verb = { pin: 'Pinned', boost: 'Boosted', bury: 'Buried', clear: 'Released' }[placement];
    void this.putConfiguration(placeItem(this.configuration!, this.query, itemId, placement), `${verb} ${itemId} for “${normalizeQuery(this.query)}”.`);
  }

  private pinById(event: SubmitEvent): void {
    event.preventDefault();
    const input = this.querySelector('#pin-id') as HTMLInputElement;
    const id = input.value.trim();
    if (id !== '') this.place(id, 'pin');
    input.value = '';
  }

  private saveSynonyms(event: SubmitEvent): void {
    event.preventDefault();
    const text = (this.querySelector('#synonyms') as HTMLTextAreaElement).value;
    void this.putConfiguration({ ...this.configuration!, synonyms: parseSynonyms(text) }, 'Synonyms saved.');
  }

  private addRedirect(event: SubmitEvent): void {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const data = new FormData(form);
    const config = this.configuration!;
    const name = String(data.get('name') ?? '').trim() || String(data.get('queries') ?? '').trim();
    const redirect = { id: redirectId(name, config.redirects), name, url: String(data.get('url') ?? '').trim(), queries: String(data.get('queries') ?? '').split(',').map((q) => q.trim()).filter((q) => q !== '') };
    void this.putConfiguration({ ...config, redirects: [...config.redirects, redirect] }, `Redirect “${name}” saved.`).then(() => {
      if (this.saveState.kind === 'saved') form.reset();
    });
  }

  private removeRedirect(id: string): void {
    const config = this.configuration!;
    void this.putConfiguration({ ...config, redirects: config.redirects.filter((r) => r.id !== id) }, 'Redirect removed.');
  }

  /** From a zero-result query: try it, and put it at the start of a new synonym line to complete. */
  private fix(query: string): void {
    this.query = query;
    void this.explain();
    const area = this.querySelector('#synonyms') as HTMLTextAreaElement;
    area.value = `${area.value.trim() === '' ? '' : `${area.value.trimEnd()}\n`}${query}, `;
    (this.querySelector('#redirect-queries') as HTMLInputElement).value = query;
    area.focus();
    area.setSelectionRange(area.value.length, area.value.length);
  }

  override render() {
    const config = this.configuration;
    return html`
      <h1>Search tuning</h1>
      ${this.error !== '' ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${this.tokens.length > 1
        ? html`<p><label for="token">Search token</label>
            <select id="token" @change=${(e: Event) => ((this.tokenIndex = Number((e.target as HTMLSelectElement).value)), (this.explanation = undefined))}>
              ${this.tokens.map((t, i) => html`<option value=${i} ?selected=${i === this.tokenIndex}>${t.token}</option>`)}
            </select></p>`
        : nothing}
      ${this.statusView()}
      <section aria-labelledby="try-heading">
        <h2 id="try-heading">Try a query</h2>
        <form @submit=${(e: SubmitEvent) => (e.preventDefault(), void this.explain())}>
          <label for="query">Query</label>
          <input id="query" type="search" .value=${this.query} @input=${(e: Event) => (this.query = (e.target as HTMLInputElement).value)} />
          <button type="submit">Search</button>
        </form>
        ${this.resultsView()}
        ${this.explanation !== undefined
          ? html`<form class="inline" @submit=${(e: SubmitEvent) => this.pinById(e)}>
              <label for="pin-id">Pin another item for this query (item id)</label>
              <input id="pin-id" name="itemId" required />
              <button type="submit">Pin item</button>
            </form>`
          : nothing}
      </section>
      <section aria-labelledby="zero-heading">
        <h2 id="zero-heading">Queries that find nothing</h2>
        ${this.zeroResult.length === 0
          ? html`<p>No query found nothing in the last 30 days.</p>`
          : html`<ul class="zero-results">
              ${this.zeroResult.map((q) => html`<li data-zero-query=${q.query}><span>“${q.query}” — ${q.searches} search${q.searches === 1 ? '' : 'es'}</span> <button type="button" @click=${() => this.fix(q.query)}>Fix “${q.query}”</button></li>`)}
            </ul>`}
      </section>
      ${config === undefined
        ? nothing
        : html`<section aria-labelledby="synonyms-heading">
              <h2 id="synonyms-heading">Synonyms</h2>
              <form @submit=${(e: SubmitEvent) => this.saveSynonyms(e)}>
                <label for="synonyms">One group per line, words separated by commas (for example: sneakers, trainers, shoes)</label>
                <textarea id="synonyms" rows="5" .value=${synonymsText(config.synonyms)}></textarea>
                <button type="submit">Save synonyms</button>
              </form>
            </section>
            <section aria-labelledby="redirects-heading">
              <h2 id="redirects-heading">Redirects</h2>
              <ul>
                ${config.redirects.map((r) => html`<li>${r.name}: ${r.queries.join(', ')} → <a href=${r.url.startsWith('http') ? r.url : '#'}>${r.url}</a> <button type="button" @click=${() => this.removeRedirect(r.id)}>Remove redirect ${r.name}</button></li>`)}
              </ul>
              <form class="inline" @submit=${(e: SubmitEvent) => this.addRedirect(e)}>
                <label for="redirect-queries">Queries (comma separated)</label><input id="redirect-queries" name="queries" required />
                <label for="redirect-url">Go to URL</label><input id="redirect-url" name="url" type="url" required placeholder="https://" />
                <label for="redirect-name">Name</label><input id="redirect-name" name="name" />
                <button type="submit">Add redirect</button>
              </form>
            </section>`}
      <section aria-labelledby="top-heading">
        <h2 id="top-heading">Top queries, last 30 days</h2>
        <table>
          <thead><tr><th scope="col">Query</th><th scope="col">Searches</th><th scope="col">Clicks</th><th scope="col">Click-through</th></tr></thead>
          <tbody>${this.topQueries.map((q) => html`<tr><th scope="row">${q.query}</th><td>${q.searches}</td><td>${q.clicks}</td><td>${(q.clickThrough * 100).toFixed(1)}%</td></tr>`)}</tbody>
        </table>
      </section>
    `;
  }

  private resultsView() {
    const e = this.explanation;
    if (e === undefined) return nothing;
    return html`
      <p class="summary" data-result-count=${e.count}>${e.count} result${e.count === 1 ? '' : 's'}${e.synonyms.length > 0 ? html`, with synonyms ${e.synonyms.map((g) => g.join(' = ')).join('; ')}` : nothing}${e.redirect !== undefined ? html`; redirects to ${e.redirect.url}` : nothing}.</p>
      ${this.learningView()}
      <table class="results">
        <thead><tr><th scope="col">#</th><th scope="col">Text order</th><th scope="col">Item</th><th scope="col">Score</th><th scope="col">Why it matched</th><th scope="col">Learned</th><th scope="col">Placement</th></tr></thead>
        <tbody>
          ${e.hits.map(
            (hit) => html`<tr data-hit=${hit.id}>
              <td>${hit.position}</td>
              <td data-text-position>${hit.textPosition ?? '—'}</td>
              <th scope="row">${hit.title || hit.id} <small>${hit.id}</small></th>
              <td>${hit.score}</td>
              <td>${hit.rule !== undefined ? html`<strong>${hit.rule}</strong> ` : nothing}${hit.matchedFields.map((f) => `${f.attribute} ×${f.weight} (${f.words.join(', ')})`).join('; ') || '—'}</td>
              <td data-learned>${hit.learned === undefined ? '—' : learnedText(hit.learned)}</td>
              <td class="actions">
                <button type="button" aria-label="Pin ${hit.id}" @click=${() => this.place(hit.id, 'pin')} ?disabled=${hit.rule === 'pinned'}>Pin</button>
                <button type="button" aria-label="Boost ${hit.id}" @click=${() => this.place(hit.id, 'boost')} ?disabled=${hit.rule === 'boosted'}>Boost</button>
                <button type="button" aria-label="Bury ${hit.id}" @click=${() => this.place(hit.id, 'bury')} ?disabled=${hit.rule === 'buried'}>Bury</button>
                ${hit.rule !== undefined ? html`<button type="button" aria-label="Release ${hit.id}" @click=${() => this.place(hit.id, 'clear')}>Release</button>` : nothing}
              </td>
            </tr>`,
          )}
        </tbody>
      </table>
    `;
  }

  /** What learning holds for the query tried, and its switches. */
  private learningView() {
    const learning = this.explanation?.learning;
    const config = this.configuration;
    if (config === undefined) return nothing;
    const enabled = config.learning.enabled;
    return html`<div class="learning" data-learning=${enabled ? 'on' : 'off'}>
      <p>
        Learning from shoppers is <strong>${enabled ? 'on' : 'off'}</strong> for configuration ${config.id}.
        ${learning === undefined ? nothing : html`Query key “${learning.key}”: ${learning.votes} vote${learning.votes === 1 ? '' : 's'} from ${learning.shoppers} shopper${learning.shoppers === 1 ? '' : 's'}; ${learning.items.length} item${learning.items.length === 1 ? '' : 's'} moved.`}
      </p>
      ${learning !== undefined && learning.votes > 0 ? html`<button type="button" @click=${() => void this.resetLearning()}>Reset learning for this query</button>` : nothing}
      <button type="button" @click=${() => this.switchLearning(!enabled)}>${enabled ? 'Switch learning off' : 'Switch learning on'}</button>
    </div>`;
  }
}

/** "4 shoppers: 4 clicks, 1 purchase; lift 38%". */
function learnedText(item: LearnedItemView): string {
  const actions = [
    [item.clicks, 'click', 'clicks'],
    [item.addToCarts, 'add-to-cart', 'add-to-carts'],
    [item.purchases, 'purchase', 'purchases'],
  ]
    .filter(([count]) => (count as number) > 0)
    .map(([count, one, many]) => `${count} ${count === 1 ? one : many}`);
  return `${item.shoppers} shoppers: ${actions.join(', ')}; lift ${Math.round(item.lift * 100)}%`;
}
