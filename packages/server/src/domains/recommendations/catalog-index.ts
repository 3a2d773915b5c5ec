/**
 * The active catalog of one environment as recommendations read it: product views by id and the
 * category and brand postings that content similarity walks. Built on first use and dropped when the
 * catalog changes, so a recommendation never scans the item store; built in slices (platform/sliced-work.ts),
 * so a rebuild after a write holds up only the recommendation requests waiting for it.
 */
import type { CatalogService } from '../catalog/catalog-service.js';
import { boosterOf, recommendedOf, toProductView, viewTitleOf, type ProductView, type ProductViewOptions } from '../catalog/product-view.js';
import type { StoredItem } from '../catalog/types.js';
import { runAtOnce, runInSlices } from '../../platform/sliced-work.js';
import { countEnding, familyOf, titleWords } from './ranker-features.js';

/** `catalogIndexBuilding` yields after every this many items plus one (a mask). */
const BUILD_STEP = 511;

/**
 * One recommendable item. Its product view is built when asked for and not kept: building all of them
 * took most of an index build (about 2 s and 100 MB at 100,000 items), and keeping each one built grew
 * the old generation by every product a request touched for the first time (the index is rebuilt
 * after any item write, so that never settles), whose collections were the p99 of `also-viewed` and
 * `similar`. A view costs some 10–20 µs, so the engine builds one only for the items it returns (and,
 * with filters, the candidates it checks); `recommended` and `booster` are read without one.
 */
export class IndexedItem {
  /** Position in `items`: content similarity scores into arrays indexed by it instead of maps keyed by id. */
  readonly ordinal: number;
  readonly item: StoredItem;
  private readonly options: ProductViewOptions;
  /** Family, price and title words, read from a view the first time one is asked (the ranking and the variety cap read them per candidate). */
  private traits: { family: string | undefined; price: number; words: string[] } | undefined;

  /** The catalog's count of title endings, filled while the index is built (`familyOf`). */
  private readonly endings: ReadonlyMap<string, number> | undefined;

  constructor(ordinal: number, item: StoredItem, options: ProductViewOptions, endings?: ReadonlyMap<string, number>) {
    this.ordinal = ordinal;
    this.item = item;
    this.options = options;
    this.endings = endings;
  }

  get view(): ProductView {
    return toProductView(this.item, this.options);
  }

  /** The product's family (ranker-features.ts `familyOf`): what the variety cap counts. */
  get family(): string | undefined {
    return this.traitsOf().family;
  }

  get price(): number {
    return this.traitsOf().price;
  }

  /** The distinct words of its title (ranker-features.ts `titleWords`): the learned ranking's "title words". */
  get words(): readonly string[] {
    return this.traitsOf().words;
  }

  private traitsOf(): { family: string | undefined; price: number; words: string[] } {
    if (this.traits === undefined) {
      const view = this.view;
      this.traits = { family: familyOf(view.title, view.categories, this.endings), price: view.price, words: titleWords(view.title) };
    }
    return this.traits;
  }

  get recommended(): boolean {
    return recommendedOf(this.item);
  }

  get booster(): number {
    return boosterOf(this.item);
  }
}

export interface CatalogIndex {
  tenantId: string;
  environmentId: string;
  version: number;
  /** Items in catalog order; variants are left out, a widget recommends products. */
  items: IndexedItem[];
  byId: Map<string, IndexedItem>;
  /** Ordinals of the items in each (lower-cased) category and brand. */
  byCategory: Map<string, number[]>;
  byBrand: Map<string, number[]>;
  /**
   * Per `SIMILAR_ATTRIBUTES` entry, each item's value as a small integer (0 when absent), so that
   * `similar` compares numbers in one array rather than strings on thousands of objects.
   */
  traitCodes: Int32Array[];
  /**
   * Text neighbours from the search index per item, with when they were asked (see `similar`). Carried
   * over when the index is rebuilt for the same catalog version after item writes, so that a shop
   * writing stock updates all day keeps its cache; entries are asked again after a while instead.
   */
  textNeighbours: Map<string, TextNeighbours>;
}

/**
 * One product's text neighbours, best first, as two arrays rather than an object per neighbour: up to
 * 20,000 products are kept, and a hundred small objects each made every cold `similar` call grow the
 * old generation the collector then had to walk.
 */
export interface TextNeighbours {
  at: number;
  ids: string[];
  scores: Float64Array;
}

/** Attributes besides category and brand that make two items alike when equal. */
export const SIMILAR_ATTRIBUTES = ['color', 'colour', 'material', 'gender'] as const;

export class CatalogIndexes {
  private readonly catalog: CatalogService;
  private readonly built = new Map<string, Promise<CatalogIndex | undefined>>();
  /** The last index built per environment, whose text neighbours a rebuild of the same version keeps. */
  private readonly last = new Map<string, CatalogIndex>();

  constructor(catalog: CatalogService) {
    this.catalog = catalog;
    // Any write to the active catalog or a promotion invalidates: the next request rebuilds from the store.
    catalog.onItemsChanged((change) => this.built.delete(key(change.scope.tenantId, change.scope.environmentId)));
    catalog.onActivate(async (tenantId, environmentId) => {
      this.built.delete(key(tenantId, environmentId));
    });
  }

  /**
   * The index of the active catalog plus the older item API's items (version 0), or undefined when the
   * environment has neither.
   */
  async active(tenantId: string, environmentId: string): Promise<CatalogIndex | undefined> {
    const record = await this.catalog.catalogs.active(tenantId, environmentId);
    const version = record?.version ?? NO_CATALOG;
    const k = key(tenantId, environmentId);
    let index = this.built.get(k);
    const current = index === undefined ? undefined : await index;
    if (index !== undefined && (current === undefined || current.version === version) && this.built.get(k) === index) return current;
    index = this.build(tenantId, environmentId, version);
    this.built.set(k, index);
    return index;
  }

  private async build(tenantId: string, environmentId: string, version: number): Promise<CatalogIndex | undefined> {
    const stored = version === NO_CATALOG ? [] : await this.catalog.allItems(tenantId, environmentId, version);
    // The older API serves its live version (0 unless another was activated; the others build the next catalog).
    const { version: legacyVersion, items: legacy } = await this.catalog.liveLegacyItems(tenantId, environmentId);
    if (version === NO_CATALOG && legacy.length === 0) return undefined;
    const index = await runInSlices(catalogIndexBuilding(stored, { tenantId, environmentId, version }, legacy, legacyVersion));
    const k = key(tenantId, environmentId);
    const previous = this.last.get(k);
    if (previous !== undefined && previous.version === version) index.textNeighbours = previous.textNeighbours;
    this.last.set(k, index);
    return index;
  }
}

/** The index version when only older-API items exist. */
const NO_CATALOG = -1;

/**
 * `legacy` are older-item-API items: recommended alongside the catalog's, with their live version in their view.
 * An id the catalog already has (or an earlier legacy item in another context) keeps the first item.
 */
export function buildCatalogIndex(
  stored: readonly StoredItem[],
  options: { tenantId: string; environmentId: string; version: number },
  legacy: readonly StoredItem[] = [],
  legacyVersion = 0,
): CatalogIndex {
  return runAtOnce(catalogIndexBuilding(stored, options, legacy, legacyVersion));
}

/**
 * `buildCatalogIndex` in steps of a few hundred items, for `CatalogIndexes` to run in slices: at
 * once, 100,000 items held the event loop 170-300 ms, and the index is rebuilt after every write to
 * the active catalog (at the next recommendation request).
 */
export function* catalogIndexBuilding(
  stored: readonly StoredItem[],
  options: { tenantId: string; environmentId: string; version: number },
  legacy: readonly StoredItem[] = [],
  legacyVersion = 0,
): Generator<unknown, CatalogIndex> {
  const seen = new Set<string>();
  const products: Array<{ item: StoredItem; version: number }> = [];
  let steps = 0;
  for (const [items, version] of [[stored, options.version], [legacy, legacyVersion]] as const) {
    for (const item of items) {
      if ((++steps & BUILD_STEP) === 0) yield;
      if (item.parentId !== undefined || seen.has(item.id)) continue;
      seen.add(item.id);
      products.push({ item, version });
    }
  }
  const traitCodes = SIMILAR_ATTRIBUTES.map(() => new Int32Array(products.length));
  const codes = SIMILAR_ATTRIBUTES.map(() => new Map<string, number>());
  const index: CatalogIndex = { ...options, items: [], byId: new Map(), byCategory: new Map(), byBrand: new Map(), traitCodes, textNeighbours: new Map() };
  // Read by the items' families only once the index is built (their traits are worked out when first asked).
  const endings = new Map<string, number>();
  for (const { item, version } of products) {
    if ((++steps & BUILD_STEP) === 0) yield;
    const entry = new IndexedItem(index.items.length, item, { tenantId: options.tenantId, version }, endings);
    countEnding(endings, viewTitleOf(item));
    const attributes = item.attributes;
    SIMILAR_ATTRIBUTES.forEach((name, position) => {
      const value = traitOf(attributes[name]);
      if (value === '') return;
      const known = codes[position]!;
      let code = known.get(value);
      if (code === undefined) known.set(value, (code = known.size + 1));
      traitCodes[position]![entry.ordinal] = code;
    });
    index.items.push(entry);
    index.byId.set(item.id, entry);
    // A category listed twice on one item must not count twice.
    for (const category of new Set(categoriesOf(item).map((c) => c.toLowerCase()))) post(index.byCategory, category, entry.ordinal);
    const brand = brandOf(attributes);
    if (brand !== undefined) post(index.byBrand, brand, entry.ordinal);
  }
  return index;
}

function traitOf(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value).trim().toLowerCase() : '';
}

/** The brand of a product view or of an item's attributes (the view copies plain attributes as they are). */
export function brandOf(attributes: Record<string, unknown>): string | undefined {
  const brand = plain(attributes.brand) ?? plain(attributes.brand_name);
  return typeof brand === 'string' && brand !== '' ? brand.toLowerCase() : undefined;
}

function plain(value: unknown): unknown {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : undefined;
}

/**
 * The item's categories as its product view lists them (`toProductView`): the older API's tags, else a
 * `categories` (or `category`) list or comma-joined text. Read here so that no view is built for it;
 * a test compares the two on every item of the fixture catalogs.
 */
export function categoriesOf(item: StoredItem): string[] {
  if (item.tags !== undefined) return item.tags;
  const value = item.attributes.categories ?? item.attributes.category;
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  if (typeof value !== 'string') return [];
  return value.split(',').map((c) => c.trim()).filter((c) => c !== '');
}

function post(map: Map<string, number[]>, term: string, ordinal: number): void {
  const list = map.get(term);
  if (list === undefined) map.set(term, [ordinal]);
  else list.push(ordinal);
}

function key(tenantId: string, environmentId: string): string {
  return `${tenantId}\u0000${environmentId}`;
}
