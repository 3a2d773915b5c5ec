/** Entry of the console bundle (/console/console.js): the stylesheet, then every element. The only file with side effects. */
import { CatalogPage } from './catalog-page.js';
import { ExperimentsPage } from './experiments-page.js';
import { ConsoleApp } from './console-app.js';
import { CONSOLE_CSS } from './console-styles.js';
import { KeysPage } from './keys-page.js';
import { OverviewPage } from './overview-page.js';
import { ProductPicker } from './product-picker.js';
import { SearchPage } from './search-page.js';
import { WidgetsPage } from './widgets-page.js';

const sheet = new CSSStyleSheet();
sheet.replaceSync(CONSOLE_CSS);
document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];

customElements.define('dk-product-picker', ProductPicker);
customElements.define('dk-overview-page', OverviewPage);
customElements.define('dk-search-page', SearchPage);
customElements.define('dk-widgets-page', WidgetsPage);
customElements.define('dk-catalog-page', CatalogPage);
customElements.define('dk-keys-page', KeysPage);
customElements.define('dk-experiments-page', ExperimentsPage);
customElements.define('dk-console', ConsoleApp);

declare global {
  interface HTMLElementTagNameMap {
    'dk-console': ConsoleApp;
    'dk-overview-page': OverviewPage;
    'dk-search-page': SearchPage;
    'dk-widgets-page': WidgetsPage;
    'dk-catalog-page': CatalogPage;
    'dk-keys-page': KeysPage;
    'dk-experiments-page': ExperimentsPage;
    'dk-product-picker': ProductPicker;
  }
}
