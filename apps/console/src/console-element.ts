/** Base of every console element: light DOM (one stylesheet for the whole console, plain selectors for tests and axe), and the saving/saved/failed state. */
import { html, LitElement, nothing, type TemplateResult } from 'lit';
import { AdminRequestError } from './admin-client.js';

export type SaveState = { kind: 'idle' } | { kind: 'saving' } | { kind: 'saved'; text: string } | { kind: 'failed'; text: string };

export class ConsoleElement extends LitElement {
  static override properties = { saveState: { state: true } };
  declare saveState: SaveState;

  constructor() {
    super();
    this.saveState = { kind: 'idle' };
  }

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  /** Runs a change, telling the user it is saving, then saved or why it failed. */
  protected async save(action: () => Promise<unknown>, done = 'Saved'): Promise<boolean> {
    this.saveState = { kind: 'saving' };
    try {
      await action();
      this.saveState = { kind: 'saved', text: done };
      return true;
    } catch (error) {
      const text = error instanceof AdminRequestError ? `${error.message}${error.field !== undefined && !error.message.includes(error.field) ? ` (${error.field})` : ''}` : 'The server could not be reached.';
      this.saveState = { kind: 'failed', text: `Not saved: ${text}` };
      return false;
    }
  }

  /** An always-present live region, so that screen readers announce each change of state. */
  protected statusView(): TemplateResult {
    const state = this.saveState;
    const text = state.kind === 'saving' ? 'Saving…' : state.kind === 'saved' || state.kind === 'failed' ? state.text : '';
    return html`<p class="status ${state.kind}" role="status" aria-live="polite" data-state=${state.kind}>${text || nothing}</p>`;
  }
}

export function errorText(error: unknown): string {
  return error instanceof AdminRequestError ? error.message : 'The server could not be reached.';
}
