/**
 * The demo storefront: a small shop on the demo catalog (home, category, product, search results,
 * cart, checkout, newsletter preview) mounted under `/shop/` by the companion in demo mode.
 *
 * The shop renders its own pages from its own product data, as any shop does; everything about
 * discovery (search box, results, recommendations, e-mail block, activity tracking) comes from the one
 * script tag and the elements, so the pages show exactly what a shop's developer has to write.
 */
import Router from '@koa/router';
import { HttpError, StaticDirectory, singleParam, type ApiFactory } from '@discovery-kit/server';
import { fileURLToPath } from 'node:url';
import { html, jsonScript, type Markup } from './html.js';

/** One colour or pattern of a product family, e.g. StockCode 84029E under parent 84029. */
export interface StorefrontVariant {
  id: string;
  title: string;
  color?: string;
  /** Integer minor units (pence). */
  price: number;
}

/** A product as the shop shows it (the companion's demo catalog adds what only the catalog import reads). */
export interface StorefrontProduct {
  id: string;
  title: string;
  description: string;
  brand: string;
  categories: string[];
  color?: string;
  /** Integer minor units (pence); for a family, its lowest variant price. */
  price: number;
  currency: string;
  /** A `data:image/svg+xml` URL in the demo, so it needs no image files or network. */
  photo: string;
  /** Distinct orders that bought it in the source data. */
  popularity: number;
  inStock: boolean;
  variants?: StorefrontVariant[];
}

export interface StorefrontOptions {
  products: readonly StorefrontProduct[];
  trackerKey: string;
  searchToken: string;
  /** Path or URL of the embed script; default `/sdk/discovery.js` on the same server. */
  sdkUrl?: string;
  /** Widget ids the pages show. */
  widgets: { home: string[]; product: string[]; category?: string; afterPurchase: string; email: string; searchEmpty?: string; pickFirst?: string[] };
  /** Datasource and user of the newsletter preview's e-mail links. */
  emailDatasource: string;
  locale?: string;
  /** Other languages (ISO 639-1) the search page offers with `?lang=`: its `<html lang>`, which the elements send. */
  languages?: readonly string[];
  shopName?: string;
}

const PAGE_SIZE = 24;
const ASSETS_DIR = fileURLToPath(new URL('../public/', import.meta.url));

export function createStorefrontApi(options: StorefrontOptions): ApiFactory {
  return () => {
    const shop = new Storefront(options);
    const assets = new StaticDirectory(ASSETS_DIR, { cacheControl: 'public, max-age=60' });
    const router = new Router();
    const page = (ctx: { type: string; body: unknown; set(k: string, v: string): void }, markup: Markup) => {
      ctx.type = 'text/html; charset=utf-8';
      // The pages run only our own scripts and the embed; catalog text is escaped, and this says so to the browser too.
      ctx.set('Content-Security-Policy', "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'");
      ctx.set('Cache-Control', 'no-cache');
      ctx.body = markup.text;
    };
    // The router ignores a trailing slash when matching, so one route sees both /shop and /shop/.
    router.get('/shop', (ctx) => (ctx.path === '/shop' ? ctx.redirect('/shop/') : page(ctx, shop.home())));
    router.get('/shop/index.html', (ctx) => page(ctx, shop.home()));
    router.get('/shop/category.html', (ctx) => page(ctx, shop.category(single(ctx.query.c, 'c'), pageNumber(ctx.query.page))));
    router.get('/shop/product.html', (ctx) => page(ctx, shop.product(single(ctx.query.id, 'id'))));
    router.get('/shop/search.html', (ctx) => page(ctx, shop.search(single(ctx.query.lang, 'lang'))));
    router.get('/shop/cart.html', (ctx) => page(ctx, shop.cart()));
    router.get('/shop/checkout.html', (ctx) => page(ctx, shop.checkout()));
    router.get('/shop/newsletter.html', (ctx) => page(ctx, shop.newsletter(single(ctx.query.user, 'user') || 'u-1001')));
    router.get('/shop/assets/:file', async (ctx) => {
      if (!(await assets.serve(ctx, ctx.params.file!))) throw new HttpError(404, 'not_found', `No storefront asset named "${ctx.params.file}".`, { field: 'file' });
    });
    return { name: 'storefront', mount: 'base', router, public: false };
  };
}

function single(value: string | string[] | undefined, name: string): string {
  return singleParam(value, name) ?? '';
}

function pageNumber(value: string | string[] | undefined): number {
  const text = single(value, 'page');
  if (text === '') return 1;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > 10_000) throw new HttpError(400, 'invalid_parameter', '"page" must be a whole number from 1.', { field: 'page' });
  return n;
}

export class Storefront {
  private readonly byId = new Map<string, StorefrontProduct>();
  private readonly categories: { name: string; count: number }[];
  private readonly byPopularity: StorefrontProduct[];
  private readonly formatters = new Map<string, Intl.NumberFormat>();

  constructor(private readonly options: StorefrontOptions) {
    for (const product of options.products) this.byId.set(product.id, product);
    const counts = new Map<string, number>();
    for (const product of options.products) for (const c of product.categories) counts.set(c, (counts.get(c) ?? 0) + 1);
    this.categories = [...counts].map(([name, count]) => ({ name, count })).sort((a, b) => a.name.localeCompare(b.name));
    this.byPopularity = [...options.products].sort((a, b) => b.popularity - a.popularity || a.id.localeCompare(b.id));
  }

  private price(minor: number, currency: string): string {
    let formatter = this.formatters.get(currency);
    if (formatter === undefined) {
      try {
        formatter = new Intl.NumberFormat(this.options.locale ?? 'en-GB', { style: 'currency', currency });
      } catch {
        formatter = new Intl.NumberFormat(this.options.locale ?? 'en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
      }
      this.formatters.set(currency, formatter);
    }
    return formatter.format(minor / 100);
  }

  private layout(title: string, body: Markup, head?: Markup, lang?: string): Markup {
    const o = this.options;
    const name = o.shopName ?? 'Dotcom Gift Shop';
    return html`<!doctype html>
<html lang="${lang ?? o.locale ?? 'en-GB'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · ${name}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/shop/assets/shop.css">
${head}
<script src="${o.sdkUrl ?? '/sdk/discovery.js'}" data-tracker-key="${o.trackerKey}" data-search-token="${o.searchToken}" data-currency="${o.products[0]?.currency ?? 'EUR'}" data-locale="${o.locale ?? 'en-GB'}" async></script>
<script src="/shop/assets/shop.js" defer></script>
</head>
<body>
<header class="top">
  <a class="logo" href="/shop/">${name}</a>
  <discovery-search-box action="/shop/search.html" param="q" placeholder="Search gifts, candles, bags…"></discovery-search-box>
  <a class="cart-link" href="/shop/cart.html">Basket (<span data-cart-count>0</span>)</a>
</header>
<nav class="categories" aria-label="Categories">
  ${this.categories.map((c) => html`<a href="/shop/category.html?c=${encodeURIComponent(c.name)}">${c.name}</a>`)}
</nav>
<main>
${body}
</main>
<footer>
  Demo shop on the UCI "Online Retail" data set (CC BY 4.0). Prices, photos and descriptions are generated.
  <a href="/shop/newsletter.html">Newsletter preview</a>
</footer>
</body>
</html>
`;
  }

  private card(product: StorefrontProduct): Markup {
    return html`<li class="card">
  <a href="/shop/product.html?id=${encodeURIComponent(product.id)}">
    <img src="${product.photo}" alt="" width="160" height="160" loading="lazy">
    <span class="title">${product.title}</span>
  </a>
  <span class="price">${this.price(product.price, product.currency)}</span>
</li>`;
  }

  private widgets(ids: readonly string[], attributes: { productId?: string; category?: string } = {}): Markup {
    return html`${ids.map(
      (id) =>
        html`<discovery-recommendations widget-id="${id}" product-id="${attributes.productId}" category="${attributes.category}" priority="${this.options.widgets.pickFirst?.includes(id) ? 1 : 0}"></discovery-recommendations>`,
    )}`;
  }

  home(): Markup {
    return this.layout(
      'Home',
      html`<section class="hero">
  <h1>Little things that make a home</h1>
  <p>Search above, browse a category, or start with what other shoppers love.</p>
</section>
${this.widgets(this.options.widgets.home)}
<section>
  <h2>Shop by category</h2>
  <ul class="category-grid">${this.categories.map((c) => html`<li><a href="/shop/category.html?c=${encodeURIComponent(c.name)}">${c.name}</a> <small>${c.count} items</small></li>`)}</ul>
</section>`,
    );
  }

  category(name: string, page: number): Markup {
    const products = this.byPopularity.filter((p) => p.categories.includes(name));
    if (products.length === 0) throw new HttpError(404, 'not_found', `No category named "${name}".`, { field: 'c' });
    const pages = Math.ceil(products.length / PAGE_SIZE);
    const shown = products.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
    const link = (n: number) => `/shop/category.html?c=${encodeURIComponent(name)}&page=${n}`;
    return this.layout(
      name,
      html`<h1>${name}</h1>
<p>${products.length} items, most popular first.</p>
<ul class="grid">${shown.map((p) => this.card(p))}</ul>
<nav class="pages" aria-label="Pages">
  ${page > 1 ? html`<a rel="prev" href="${link(page - 1)}">Previous</a>` : ''}
  <span>Page ${page} of ${pages}</span>
  ${page < pages ? html`<a rel="next" href="${link(page + 1)}">Next</a>` : ''}
</nav>
${this.options.widgets.category === undefined ? '' : this.widgets([this.options.widgets.category], { category: name })}`,
    );
  }

  product(id: string): Markup {
    const product = this.byId.get(id);
    if (product === undefined) throw new HttpError(404, 'not_found', `No product with id "${id}".`, { field: 'id' });
    const price = this.price(product.price, product.currency);
    const structured = {
      '@context': 'https://schema.org',
      '@type': 'Product',
      sku: product.id,
      name: product.title,
      description: product.description,
      brand: { '@type': 'Brand', name: product.brand },
      category: product.categories.join(', '),
      offers: { '@type': 'Offer', price: (product.price / 100).toFixed(2), priceCurrency: product.currency, availability: `https://schema.org/${product.inStock ? 'InStock' : 'OutOfStock'}` },
    };
    return this.layout(
      product.title,
      html`<article class="product" data-discovery-page="product" data-discovery-product-id="${product.id}">
  <img src="${product.photo}" alt="${product.title}" width="320" height="320">
  <div>
    <p class="crumbs">${product.categories.map((c) => html`<a href="/shop/category.html?c=${encodeURIComponent(c)}">${c}</a> `)}</p>
    <h1>${product.title}</h1>
    <p class="brand">by ${product.brand}</p>
    <p class="price">${price}</p>
    <p>${product.description}</p>
    ${product.variants !== undefined && product.variants.length > 0
      ? html`<p>Also in: ${product.variants.map((v) => html`<span class="variant">${v.color ?? v.title}</span> `)}</p>`
      : ''}
    ${product.inStock
      ? html`<button type="button" class="buy" data-discovery-add-to-cart="${product.id}" data-discovery-price="${(product.price / 100).toFixed(2)}" data-cart-title="${product.title}" data-cart-photo="${product.photo}">Add to basket</button>`
      : html`<p class="out">Out of stock</p>`}
    <p class="added" role="status" hidden>Added to your basket.</p>
  </div>
</article>
${this.widgets(this.options.widgets.product, { productId: product.id, category: product.categories[0] })}`,
      html`<script type="application/ld+json">${jsonScript(structured)}</script>`,
    );
  }

  /** `lang`: one of the shop's other languages, else the shop's own (an unknown one is not an error). */
  search(lang?: string): Markup {
    const offered = lang !== undefined && (this.options.languages ?? []).includes(lang) ? lang : undefined;
    return this.layout(
      'Search',
      html`<h1 class="search-title">Search results</h1>
<discovery-search-results param="q" page-size="24" empty-widget-id="${this.options.widgets.searchEmpty}"></discovery-search-results>`,
      undefined,
      offered,
    );
  }

  cart(): Markup {
    return this.layout(
      'Basket',
      html`<h1>Your basket</h1>
<div data-cart-view><p class="empty">Your basket is empty.</p></div>
<p class="basket-actions"><a href="/shop/">Continue shopping</a> <a class="button" href="/shop/checkout.html" data-cart-checkout hidden>Checkout</a></p>
${this.widgets([this.options.widgets.afterPurchase])}`,
    );
  }

  checkout(): Markup {
    return this.layout(
      'Checkout',
      html`<h1>Checkout</h1>
<form data-checkout-form>
  <div data-cart-view><p class="empty">Your basket is empty.</p></div>
  <label>Name <input name="name" autocomplete="name" required></label>
  <label>E-mail <input name="email" type="email" autocomplete="email" required></label>
  <p class="note">Demo only: nothing is charged and the form is not sent anywhere; placing the order records one purchase per product.</p>
  <button type="submit" data-cart-submit disabled>Place order</button>
</form>
<section data-order-done hidden>
  <h2>Thank you: order <span data-order-id></span> is placed.</h2>
  <div data-after-order-widget="${this.options.widgets.afterPurchase}"></div>
</section>`,
    );
  }

  newsletter(user: string): Markup {
    return this.layout(
      'Newsletter preview',
      html`<h1>Newsletter preview</h1>
<p>The block below is made for e-mail: images and links point at this server, so the picks are made when the e-mail is opened, and a click is recorded for the reader.</p>
<discovery-email-recommendations widget-id="${this.options.widgets.email}" datasource-id="${this.options.emailDatasource}" user-id="${user}" count="4"></discovery-email-recommendations>`,
    );
  }
}
