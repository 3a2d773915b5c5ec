/** Turns retail rows into the demo catalog: the most bought real products, with letter-suffixed StockCodes grouped into families. */
import type { DemoProduct, DemoVariant } from '../../src/demo-data.js';
import { photoFor } from './product-photo.js';
import { brandFor, categoriesFor, describe, findColour, stableHash, toTitleCase, withoutColours } from './product-text.js';
import { type RetailRow, isProductSale, isShopDescription } from './retail-rows.js';

interface CodeStats {
  code: string;
  invoices: Set<string>;
  descriptions: Map<string, number>;
  pricesInPence: Map<number, number>;
}

/** Where a source StockCode lives in the catalog: its product, and its variant when it belongs to a family. */
export interface CatalogEntry {
  product: string;
  variant?: string;
}

export interface BuiltCatalog {
  products: DemoProduct[];
  entries: Map<string, CatalogEntry>;
}

function count<K>(map: Map<K, number>, key: K): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

/** The most frequent key; ties go to the smallest, so the result never depends on row order. */
function mode<K extends string | number>(map: Map<K, number>): K | undefined {
  let best: K | undefined;
  let bestCount = 0;
  for (const [key, n] of map) {
    if (n > bestCount || (n === bestCount && best !== undefined && key < best)) {
      best = key;
      bestCount = n;
    }
  }
  return best;
}

function collectStats(rows: RetailRow[]): Map<string, CodeStats> {
  const stats = new Map<string, CodeStats>();
  for (const row of rows) {
    if (!isProductSale(row)) continue;
    let entry = stats.get(row.stockCode);
    if (!entry) {
      entry = { code: row.stockCode, invoices: new Set(), descriptions: new Map(), pricesInPence: new Map() };
      stats.set(row.stockCode, entry);
    }
    entry.invoices.add(row.invoice);
    if (isShopDescription(row.description)) count(entry.descriptions, row.description);
    count(entry.pricesInPence, Math.round(row.unitPrice * 100));
  }
  return stats;
}

interface Member {
  code: string;
  title: string;
  colour?: string;
  price: number;
  invoices: Set<string>;
}

function toMember(stats: CodeStats): Member {
  const title = toTitleCase(mode(stats.descriptions) ?? stats.code);
  return { code: stats.code, title, colour: findColour(title), price: mode(stats.pricesInPence) ?? 0, invoices: stats.invoices };
}

/** The words every member's title shares ("Jumbo Bag"), else the best seller's title without its colour. */
function familyTitle(members: Member[]): string {
  const wordSets = members.map((m) => new Set(m.title.toLowerCase().split(/[^a-z0-9'-]+/)));
  const common = members[0].title.split(' ').filter((word) => {
    const key = word.toLowerCase().replace(/[^a-z0-9'-]/g, '');
    return key !== '' && wordSets.every((set) => set.has(key));
  });
  const title = common.length >= 2 ? common.join(' ') : withoutColours(members[0].title) || members[0].title;
  return title.replace(/[ ,.:;/+&-]+$/, '');
}

function makeProduct(id: string, title: string, members: Member[], family: boolean): DemoProduct {
  const top = members[0];
  let categories = categoriesFor(title);
  if (categories[0] === 'Gifts') categories = categoriesFor(top.title);
  const brand = brandFor(title, id);
  const colours = members.map((m) => m.colour).filter((c): c is string => c !== undefined);
  const colour = family ? (colours.length === members.length && new Set(colours).size === 1 ? colours[0] : undefined) : top.colour;
  const invoices = new Set(members.flatMap((m) => [...m.invoices]));
  const product: DemoProduct = {
    id,
    title,
    description: describe({ id, title, brand, category: categories[0], variantColours: family ? colours : undefined }),
    brand,
    categories,
    ...(colour ? { color: colour } : {}),
    price: Math.min(...members.map((m) => m.price)),
    currency: 'GBP',
    url: `/shop/product.html?id=${encodeURIComponent(id)}`,
    photo: photoFor(title, categories[0], colour ?? top.colour),
    popularity: invoices.size,
    // About 3% out of stock, chosen by hash so the demo can show availability filters.
    inStock: stableHash(`stock:${id}`) % 100 >= 3,
    recommended: true,
    booster: 0,
  };
  if (family) {
    product.variants = [...members]
      .sort((a, b) => (a.code < b.code ? -1 : 1))
      .map((m): DemoVariant => ({ id: m.code, title: m.title, ...(m.colour ? { color: m.colour } : {}), price: m.price }));
  }
  return product;
}

export interface BuildCatalogOptions {
  /** How many of the most bought StockCodes to keep before families are merged. */
  maxStockCodes?: number;
}

export function buildCatalog(rows: RetailRow[], options: BuildCatalogOptions = {}): BuiltCatalog {
  const byPopularity = (a: Member, b: Member) => b.invoices.size - a.invoices.size || (a.code < b.code ? -1 : 1);
  const members = [...collectStats(rows).values()]
    .filter((s) => s.descriptions.size > 0)
    .map(toMember)
    .sort(byPopularity)
    .slice(0, options.maxStockCodes ?? 3000);
  const codes = new Set(members.map((m) => m.code));

  // Codes that share a five-digit stem and differ by a letter suffix (84029E, 84029G) are one product.
  const stems = new Map<string, Member[]>();
  for (const member of members) {
    if (member.code.length === 5) continue;
    const stem = member.code.slice(0, 5);
    stems.set(stem, [...(stems.get(stem) ?? []), member]);
  }
  const products: DemoProduct[] = [];
  const entries = new Map<string, CatalogEntry>();
  for (const member of members) {
    const stem = member.code.slice(0, 5);
    const family = member.code.length > 5 ? (stems.get(stem) ?? []) : [];
    if (family.length < 2) {
      products.push(makeProduct(member.code, member.title, [member], false));
      entries.set(member.code, { product: member.code });
    } else if (family[0] === member) {
      // The parent takes the stem as its id, unless the bare stem is itself a product (47566 beside 47566B).
      const id = codes.has(stem) ? `${stem}-family` : stem;
      products.push(makeProduct(id, familyTitle(family), family, true));
      for (const variant of family) entries.set(variant.code, { product: id, variant: variant.code });
    }
  }
  products.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { products, entries };
}
