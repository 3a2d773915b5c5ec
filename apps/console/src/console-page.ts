/**
 * Base of every console page (the elements the navigation shows): it loads its data when it is
 * shown, keeps the load's error, and lays the page out as heading, error, save status, then its body.
 * A page only names its heading, says how to `load()`, and renders `body()`; see docs/console.md.
 */
import { html, nothing } from 'lit';
import { ConsoleElement, errorText } from './console-element.js';

export abstract class ConsolePage extends ConsoleElement {
  static override properties = { ...ConsoleElement.properties, error: { state: true } };
  /** Why the page's data could not be loaded or looked up, shown as an alert; empty when all is well. */
  declare error: string;
  /** The page's `<h1>`. */
  protected abstract readonly heading: string;

  constructor() {
    super();
    this.error = '';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.reload();
  }

  /** Fetches what the page shows; a failure becomes the page's error. */
  protected abstract load(): Promise<void>;

  /** Runs `load()` (again), clearing or setting the error. */
  async reload(): Promise<void> {
    await this.attempt(() => this.load());
  }

  /** Runs a read the page depends on (a lookup, a preview): its failure is shown as the page's error. */
  protected async attempt(read: () => Promise<void>): Promise<boolean> {
    try {
      await read();
      this.error = '';
      return true;
    } catch (error) {
      this.error = errorText(error);
      return false;
    }
  }

  /** The page's own content, under the heading, the error and the save status. */
  protected abstract body(): unknown;

  override render() {
    return html`<h1>${this.heading}</h1>
      ${this.error !== '' ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${this.statusView()}
      ${this.body()}`;
  }
}
