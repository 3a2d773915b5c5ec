/**
 * The Fix panel of a query that finds nothing: its three remedies side by side (search it as other
 * words too, send its shoppers to a page, show a chosen product), each one step and saved at once,
 * and what the query finds now.
 */
import { html, nothing } from 'lit';
import type { SearchExplanation } from '@discovery-kit/protocol';
import type { PickDetail } from './product-picker.js';

export interface FixRemedies {
  synonym: (words: string[]) => Promise<boolean>;
  redirect: (url: string) => Promise<boolean>;
  pin: (pick: PickDetail) => Promise<boolean>;
  close: () => void;
}

function submitted(event: SubmitEvent, name: string): { form: HTMLFormElement; value: string } {
  event.preventDefault();
  const form = event.target as HTMLFormElement;
  return { form, value: String(new FormData(form).get(name) ?? '').trim() };
}

async function clearWhenSaved(form: HTMLFormElement, saving: Promise<boolean>): Promise<void> {
  if (await saving) form.reset();
}

/** What the query finds now: its count, its redirect, and the first products. */
function outcome(query: string, e: SearchExplanation | undefined) {
  if (e === undefined || e.query !== query) return nothing;
  const found = e.count === 0 ? 'still finds nothing' : `now finds ${e.count} product${e.count === 1 ? '' : 's'}`;
  return html`<div class="fix-outcome" data-fix-result=${e.count}>
    <p><strong>“${query}” ${found}</strong>${e.redirect !== undefined ? html` and sends shoppers to <a href=${e.redirect.url.startsWith('http') ? e.redirect.url : '#'}>${e.redirect.url}</a>` : nothing}.</p>
    ${e.hits.length > 0
      ? html`<ol class="fix-hits">${e.hits.slice(0, 4).map((hit) => html`<li>${hit.photo !== '' ? html`<img src=${hit.photo} alt="" width="48" height="48" />` : nothing}<span>${hit.title || hit.id}</span></li>`)}</ol>`
      : nothing}
  </div>`;
}

export function fixPanel(query: string, explanation: SearchExplanation | undefined, token: string, remedies: FixRemedies) {
  return html`<div id="fix-panel" class="fix-panel" role="region" aria-labelledby="fix-heading">
    <h3 id="fix-heading">Fix “${query}”: pick one remedy</h3>
    <div class="remedies">
      <form data-remedy="synonym" @submit=${(e: SubmitEvent) => {
        const { form, value } = submitted(e, 'words');
        const words = value.split(',').map((w) => w.trim()).filter((w) => w !== '');
        if (words.length > 0) void clearWhenSaved(form, remedies.synonym(words));
      }}>
        <label for="fix-words">Synonym: search “${query}” as these words too</label>
        <p class="hint">For example “bag, tote”. Shoppers who type “${query}” see what those words find.</p>
        <input id="fix-words" name="words" required placeholder="bag, tote" />
        <button type="submit">Add synonym</button>
      </form>
      <form data-remedy="redirect" @submit=${(e: SubmitEvent) => {
        const { form, value } = submitted(e, 'url');
        void clearWhenSaved(form, remedies.redirect(value));
      }}>
        <label for="fix-url">Redirect: send shoppers who search “${query}” to a page</label>
        <p class="hint">For example your gift-voucher or delivery page.</p>
        <input id="fix-url" name="url" type="url" required placeholder="https://" />
        <button type="submit">Add redirect</button>
      </form>
      <div data-remedy="pin">
        <dk-product-picker label=${`Pin: show a product for “${query}”`} action="Pin product" .token=${token} @pick=${(e: CustomEvent<PickDetail>) => void remedies.pin(e.detail)}></dk-product-picker>
      </div>
    </div>
    ${outcome(query, explanation)}
    <button type="button" class="secondary" @click=${remedies.close}>Close</button>
  </div>`;
}
