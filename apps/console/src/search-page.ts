/**
 * Search tuning: type a query and see the ranked results with their scores and why each matched;
 * pin, boost or bury a result with one click, or pin a product found by its title; see what learning
 * from shoppers moved (votes, lift, the text order beside it), reset it for a query or switch it off;
 * edit synonyms and redirects; and fix a query that finds nothing in one step, from the Fix panel of
 * the zero-result list.
 */
import { html, nothing } from 'lit';
import type { AdminSearchToken, LearnedItemView, QueryAnalyticsResponse, QueryAnalyticsRow, SearchConfigurationView, SearchExplanation, SearchTokenListResponse } from '@discovery-kit/protocol';
import { adminFetch } from './admin-client.js';
import { ConsolePage } from './console-page.js';
import { fixPanel, type FixRemedies } from './fix-panel.js';
import type { PickDetail } from './product-picker.js';
import { addRedirect, addSynonym, normalizeQuery, parseSynonyms, placeItem, redirectId, synonymsText, type Placement, type PlacementScope } from './search-config.js';
import { contextOf, firedText, ruleScopeText, whenOf, type ContextInputs } from './context-rules.js';

/** Where Pin, Boost and Bury apply: the query for everyone, the query for shoppers in the context, or every query for them. */
type Scope = 'query' | 'query-context' | 'context';

/** The days the query lists look back over. */
const QUERY_DAYS = 30;
const percent = (n: number) => `${(n * 100).toFixed(1)}%`;

export class SearchPage extends ConsolePage {
  protected readonly heading = 'Search tuning';
  static override properties = {
    ...ConsolePage.properties,
    tokens: { state: true },
    tokenIndex: { state: true },
    query: { state: true },
    explanation: { state: true },
    zeroResult: { state: true },
    topQueries: { state: true },
    fixing: { state: true },
    contextInputs: { state: true },
    scope: { state: true },
  };
  declare tokens: AdminSearchToken[];
  declare tokenIndex: number;
  declare query: string;
  declare explanation: SearchExplanation | undefined;
  declare zeroResult: QueryAnalyticsRow[];
  declare topQueries: QueryAnalyticsRow[];
  /** The zero-result query the Fix panel is open on. */
  declare fixing: string | undefined;
  /** What the shopper-context form holds, by variable name. */
  declare contextInputs: ContextInputs;
  declare scope: Scope;

  constructor() {
    super();
    this.tokens = [];
    this.tokenIndex = 0;
    this.query = '';
    this.zeroResult = [];
    this.topQueries = [];
    this.contextInputs = {};
    this.scope = 'query';
  }

  private get token(): AdminSearchToken | undefined {
    return this.tokens[this.tokenIndex];
  }

  private get configuration(): SearchConfigurationView | undefined {
    const token = this.token;
    if (token === undefined) return undefined;
    return token.configurations.find((c) => c.id === (token.defaultConfigurationId ?? token.configurations[0]?.id)) ?? token.configurations[0];
  }

  protected async load(): Promise<void> {
    const [tokens, queries] = await Promise.all([
      adminFetch<SearchTokenListResponse>('/search-tokens'),
      adminFetch<QueryAnalyticsResponse>(`/analytics/queries?days=${QUERY_DAYS}&limit=20`),
    ]);
    this.tokens = tokens.searchTokens;
    if (this.tokenIndex >= this.tokens.length) this.tokenIndex = 0;
    this.zeroResult = queries.zeroResult;
    this.topQueries = queries.top;
  }

  private async explain(): Promise<void> {
    const token = this.token;
    if (token === undefined || this.query.trim() === '') return;
    const params = new URLSearchParams({ q: this.query, configurationId: this.configuration!.id });
    const context = contextOf(this.configuration!.contextVariables, this.contextInputs);
    if (context !== undefined) params.set('context', JSON.stringify(context));
    await this.attempt(async () => void (this.explanation = await adminFetch<SearchExplanation>(`/search-tokens/${encodeURIComponent(token.token)}/explain?${params}`)));
  }

  private async putConfiguration(next: SearchConfigurationView, done: string): Promise<boolean> {
    const token = this.token!;
    const ok = await this.save(() => adminFetch(`/search-tokens/${encodeURIComponent(token.token)}/configurations/${encodeURIComponent(next.id)}`, { method: 'PUT', json: next }), done);
    if (ok) {
      await this.reload();
      await this.explain();
    }
    return ok;
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

  private place(itemId: string, placement: Placement, title = itemId): Promise<boolean> {
    const verb = { pin: 'Pinned', boost: 'Boosted', bury: 'Buried', clear: 'Released' }[placement];
    const config = this.configuration!;
    const when = this.scope === 'query' ? undefined : whenOf(config.contextVariables, this.contextInputs);
    const scope: PlacementScope = { when, everyQuery: this.scope === 'context' };
    const where = ruleScopeText({ query: scope.everyQuery === true && when !== undefined ? undefined : normalizeQuery(this.query), when });
    return this.putConfiguration(placeItem(config, this.query, itemId, placement, scope), `${verb} ${title === itemId ? itemId : `${title} (${itemId})`} for ${where}.`);
  }

  private removeRule(index: number): void {
    const config = this.configuration!;
    void this.putConfiguration({ ...config, rules: config.rules.filter((_, i) => i !== index) }, `Rule for ${ruleScopeText(config.rules[index]!)} removed.`);
  }

  /** The declared context variables to fill in, and where placements apply; nothing when none is declared. */
  private contextView() {
    const declared = Object.entries(this.configuration?.contextVariables ?? {});
    if (declared.length === 0) return nothing;
    const kind = { string: 'text', stringList: 'comma separated', long: 'whole number', double: 'number', bool: 'true or false', date: 'date' } as const;
    return html`<fieldset class="context">
      <legend>Shopper context (context variables)</legend>
      ${declared.map(
        ([name, type]) => html`<label for="context-${name}">${name} <small>(${kind[type]})</small></label>
          <input id="context-${name}" data-variable=${name} type=${type === 'date' ? 'date' : type === 'long' || type === 'double' ? 'number' : 'text'}
            .value=${this.contextInputs[name] ?? ''} @input=${(e: Event) => (this.contextInputs = { ...this.contextInputs, [name]: (e.target as HTMLInputElement).value })} />`,
      )}
      <label for="rule-scope">Pin, boost and bury apply to</label>
      <select id="rule-scope" @change=${(e: Event) => (this.scope = (e.target as HTMLSelectElement).value as Scope)}>
        <option value="query" ?selected=${this.scope === 'query'}>this query, for every shopper</option>
        <option value="query-context" ?selected=${this.scope === 'query-context'}>this query, for shoppers in this context</option>
        <option value="context" ?selected=${this.scope === 'context'}>every query, for shoppers in this context</option>
      </select>
    </fieldset>`;
  }

  /** The rules with conditions on context variables, each removable. */
  private contextRulesView(config: SearchConfigurationView) {
    const conditioned = config.rules.flatMap((rule, index) => (rule.when === undefined ? [] : [{ rule, index }]));
    if (conditioned.length === 0) return nothing;
    return html`<section aria-labelledby="context-rules-heading">
      <h2 id="context-rules-heading">Rules for shoppers in a context</h2>
      <ul class="context-rules">
        ${conditioned.map(({ rule, index }) => {
          const what = [['pins', rule.pin], ['boosts', rule.boost], ['buries', rule.bury]].filter(([, ids]) => ids!.length > 0).map(([verb, ids]) => `${verb} ${(ids as string[]).join(', ')}`);
          return html`<li data-rule=${index}>Rule ${index + 1}: ${ruleScopeText(rule)} — ${[...what, ...(rule.filter === undefined ? [] : [`filters ${rule.filter}`])].join('; ')}
            <button type="button" @click=${() => this.removeRule(index)}>Remove rule ${index + 1}</button></li>`;
        })}
      </ul>
    </section>`;
  }

  /** The remedies of the Fix panel: each is one change, saved at once, after which the panel shows what the query finds now. */
  private readonly remedies: FixRemedies = {
    synonym: (words) => this.putConfiguration(addSynonym(this.configuration!, this.fixing!, words), `Synonym saved: “${this.fixing}” now also finds ${words.join(', ')}.`),
    redirect: (url) => this.putConfiguration(addRedirect(this.configuration!, this.fixing!, url), `Redirect saved: “${this.fixing}” goes to ${url}.`),
    pin: (pick) => this.place(pick.id, 'pin', pick.title),
    close: () => void (this.fixing = undefined),
  };

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

  /** From a zero-result query: open the Fix panel on it, with what it finds now. */
  private async fix(query: string): Promise<void> {
    this.fixing = query;
    this.query = query;
    await this.explain();
    await this.updateComplete;
    const panel = this.querySelector<HTMLElement>('#fix-panel');
    panel?.scrollIntoView({ block: 'nearest' });
    panel?.querySelector('input')?.focus();
  }

  protected body() {
    const config = this.configuration;
    return html`
      ${this.tokens.length > 1
        ? html`<p><label for="token">Search token</label>
            <select id="token" @change=${(e: Event) => ((this.tokenIndex = Number((e.target as HTMLSelectElement).value)), (this.explanation = undefined))}>
              ${this.tokens.map((t, i) => html`<option value=${i} ?selected=${i === this.tokenIndex}>${t.token}</option>`)}
            </select></p>`
        : nothing}
      <section aria-labelledby="zero-heading">
        <h2 id="zero-heading">Queries that find nothing, last ${QUERY_DAYS} days</h2>
        ${this.zeroResult.length === 0
          ? html`<p>No query found nothing in the last ${QUERY_DAYS} days.</p>`
          : html`<ul class="zero-results">
              ${this.zeroResult.map((q) => html`<li data-zero-query=${q.query}><span>“${q.query}” — ${q.searches} search${q.searches === 1 ? '' : 'es'}</span> <button type="button" aria-expanded=${this.fixing === q.query ? 'true' : 'false'} aria-controls="fix-panel" @click=${() => this.fix(q.query)}>Fix “${q.query}”</button></li>`)}
            </ul>`}
        ${this.fixing === undefined ? nothing : fixPanel(this.fixing, this.explanation, this.token?.token ?? '', this.remedies)}
      </section>
      <section aria-labelledby="try-heading">
        <h2 id="try-heading">Try a query</h2>
        <form @submit=${(e: SubmitEvent) => (e.preventDefault(), void this.explain())}>
          <label for="query">Query</label>
          <input id="query" type="search" .value=${this.query} @input=${(e: Event) => (this.query = (e.target as HTMLInputElement).value)} />
          <button type="submit">Search</button>
          ${this.contextView()}
        </form>
        ${this.resultsView()}
        ${this.explanation !== undefined
          ? html`<dk-product-picker label="Pin another product for this query" action="Pin product" .token=${this.token?.token ?? ''} @pick=${(e: CustomEvent<PickDetail>) => this.place(e.detail.id, 'pin', e.detail.title)}></dk-product-picker>`
          : nothing}
      </section>
      ${config === undefined
        ? nothing
        : html`${this.contextRulesView(config)}<section aria-labelledby="synonyms-heading">
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
        <h2 id="top-heading">Top queries, last ${QUERY_DAYS} days</h2>
        <div class="table-scroll" tabindex="0" role="region" aria-label="Top queries table, scrolls sideways">
          <table class="top-queries">
            <thead><tr><th scope="col">Query</th><th scope="col">Searches</th><th scope="col">Results now</th><th scope="col">Corrected</th><th scope="col">Clicks</th><th scope="col">Click-through</th><th scope="col">Conversion</th></tr></thead>
            <tbody>${this.topQueries.map(
              (q) => html`<tr data-query=${q.query}><th scope="row">${q.query}</th><td>${q.searches}</td><td>${q.lastResultCount}</td><td>${q.corrected}</td><td>${q.clicks}</td><td>${percent(q.clickThrough)}</td><td>${percent(q.conversionRate)}</td></tr>`,
            )}</tbody>
          </table>
        </div>
      </section>
    `;
  }

  private resultsView() {
    const e = this.explanation;
    if (e === undefined) return nothing;
    return html`
      <p class="summary" data-result-count=${e.count}>${e.count} result${e.count === 1 ? '' : 's'}${e.synonyms.length > 0 ? html`, with synonyms ${e.synonyms.map((g) => g.join(' = ')).join('; ')}` : nothing}${e.redirect !== undefined ? html`; redirects to ${e.redirect.url}` : nothing}.</p>
      ${e.fired.length > 0 && this.configuration !== undefined ? html`<ul class="fired">${firedText(e, this.configuration).map((line) => html`<li>${line}</li>`)}</ul>` : nothing}
      ${this.learningView()}
      <div class="table-scroll" tabindex="0" role="region" aria-label="Results table, scrolls sideways">
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
              <td data-learned>${hit.joined === true ? html`<strong>joined</strong> ` : nothing}${hit.learned === undefined ? '—' : learnedText(hit.learned)}</td>
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
      </div>
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
        ${learning === undefined ? nothing : html`Query key “${learning.key}”: ${learning.votes} vote${learning.votes === 1 ? '' : 's'} from ${learning.shoppers} shopper${learning.shoppers === 1 ? '' : 's'}; ${learning.items.length} item${learning.items.length === 1 ? '' : 's'} moved${learning.leads.length > 0 ? html`, ${learning.leads.length} joined (bought after searching this, though its words do not match)` : nothing}.`}
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
