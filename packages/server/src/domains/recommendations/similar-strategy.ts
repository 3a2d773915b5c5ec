/** The `similar` strategy: content likeness from the catalog index blended with title likeness from the search index. */
import { brandOf, type CatalogIndex, type IndexedItem, type TextNeighbours } from './catalog-index.js';
import { kthLargest } from './top-k.js';
import type { Candidate, Strategy, StrategyInput } from './strategy-input.js';
import { deleteOldest } from '../../platform/collections/oldest-first.js';

/**
 * `similar`: how alike each item is to each `$productId`, a blend of two scores each normalised to
 * [0, 1] for that seed:
 * - content: 2 points per shared category, 2 for the brand, 1 per equal `SIMILAR_ATTRIBUTES` value,
 *   over the most the seed could share (so an item sharing everything scores 1); only items sharing a
 *   category or the brand are scored, as before;
 * - text: the search index's title likeness (`similarText`), over the seed's best text match.
 * The blend is `CONTENT_WEIGHT * content + TEXT_WEIGHT * text`; text weighs more because a shared
 * category ("Bath & Body") says less about what a product *is* than shared title words ("hot water
 * bottle"). With several seeds the per-seed blends add up, so each seed's bonuses count once per seed
 * and an item like several seeds ranks above one like a single seed.
 */
export function createSimilar(): Strategy {
  const scratches: Scratches = new WeakMap();
  return (input) => similar(input, scratches);
}

function similar(input: StrategyInput, scratches: Scratches): Candidate[] {
  const { index } = input;
  const scratch = scratchFor(scratches, index);
  const touched: number[] = [];
  // A cart-sized list of seeds is plenty; a URL full of ids must not cost a search call per id.
  for (const productId of [...new Set(input.productIds)].slice(0, MAX_SEEDS)) {
    const source = index.byId.get(productId);
    if (source !== undefined) scoreAgainst(input, source, scratch, touched);
  }
  const keep = Math.max(input.want, 1) * 4;
  const best = topOrdinals(scratch, touched, keep).map((ordinal) => ({ itemId: index.items[ordinal]!.item.id, score: round6(scratch.total[ordinal]!) }));
  for (const ordinal of touched) scratch.total[ordinal] = 0;
  return best;
}

/** Weights of the two halves of `similar` (they sum to 1, so one seed's blend stays within [0, 1]). */
export const CONTENT_WEIGHT = 0.4;
export const TEXT_WEIGHT = 0.6;
/** Seeds `similar` scores against: the first ones of `$productId` (all of them are still never returned). */
export const MAX_SEEDS = 20;
/** How many text neighbours of a seed the search index is asked for. */
const TEXT_NEIGHBOURS = 100;
/** Text neighbours kept per catalog index (one entry per seed product asked about). */
const TEXT_CACHE_ENTRIES = 20_000;
/**
 * How long cached text neighbours are used. The cache outlives item writes to the same catalog
 * version, so a renamed product's neighbours may be this old; a promotion starts a new cache.
 */
const TEXT_CACHE_MS = 10 * 60_000;

interface Scratch {
  /** Content points of the seed being scored, by ordinal; zeroed again after each seed. */
  content: Float64Array;
  /** Blended score summed over seeds, by ordinal; zeroed after each request. */
  total: Float64Array;
  /** Room for the touched items' scores while the best are selected (no typed array per request). */
  selection: Float64Array;
}

/** Per catalog index (a promotion builds a new one, and the old one's scratch goes with it). */
type Scratches = WeakMap<CatalogIndex, Scratch>;

/** Reused per index: a request allocates no array the size of the catalog. Requests run one at a time (synchronously). */
function scratchFor(scratches: Scratches, index: CatalogIndex): Scratch {
  let scratch = scratches.get(index);
  if (scratch === undefined) {
    scratch = { content: new Float64Array(index.items.length), total: new Float64Array(index.items.length), selection: new Float64Array(index.items.length) };
    scratches.set(index, scratch);
  }
  return scratch;
}

function scoreAgainst(input: StrategyInput, source: IndexedItem, scratch: Scratch, touched: number[]): void {
  const { index } = input;
  const { content, total } = scratch;
  const seen: number[] = [];
  const view = source.view;
  const categories = new Set(view.categories.map((c) => c.toLowerCase()));
  const brand = brandOf(view);
  const postings: number[][] = [];
  for (const category of categories) postings.push(index.byCategory.get(category) ?? []);
  if (brand !== undefined) postings.push(index.byBrand.get(brand) ?? []);
  for (const posting of postings) {
    for (let k = 0; k < posting.length; k++) {
      const ordinal = posting[k]!;
      if (content[ordinal] === 0) seen.push(ordinal);
      content[ordinal] += 2;
    }
  }
  const traits = index.traitCodes.filter((codes) => codes[source.ordinal] !== 0);
  const most = 2 * categories.size + (brand === undefined ? 0 : 2) + traits.length;
  for (const codes of traits) {
    const wanted = codes[source.ordinal];
    for (let k = 0; k < seen.length; k++) if (codes[seen[k]!] === wanted) content[seen[k]!] += 1;
  }
  for (let k = 0; k < seen.length; k++) {
    const ordinal = seen[k]!;
    const points = content[ordinal]!;
    content[ordinal] = 0;
    if (ordinal === source.ordinal) continue;
    if (total[ordinal] === 0) touched.push(ordinal);
    total[ordinal] += (CONTENT_WEIGHT * points) / most;
  }
  const neighbours = textNeighbours(input, source);
  if (neighbours === undefined) return;
  const { ids, scores } = neighbours;
  const best = scores[0] ?? 0;
  if (best <= 0) return;
  for (let k = 0; k < ids.length; k++) {
    const entry = index.byId.get(ids[k]!);
    if (entry === undefined || entry.ordinal === source.ordinal || scores[k]! <= 0) continue;
    if (total[entry.ordinal] === 0) touched.push(entry.ordinal);
    total[entry.ordinal] += (TEXT_WEIGHT * scores[k]!) / best;
  }
}

function textNeighbours(input: StrategyInput, source: IndexedItem): TextNeighbours | undefined {
  const { index, textSimilarity } = input;
  if (textSimilarity === undefined) return undefined;
  const now = Date.now();
  const cached = index.textNeighbours.get(source.item.id);
  if (cached !== undefined && now - cached.at < TEXT_CACHE_MS) return cached;
  const found = textSimilarity(index.tenantId, index.environmentId, source.item.id, TEXT_NEIGHBOURS);
  // Nothing found may mean the search index is still being built: asked again next time.
  if (found.length === 0) return undefined;
  const entry: TextNeighbours = { at: now, ids: found.map((n) => n.id), scores: Float64Array.from(found, (n) => n.score) };
  index.textNeighbours.delete(source.item.id);
  if (index.textNeighbours.size >= TEXT_CACHE_ENTRIES) deleteOldest(index.textNeighbours);
  index.textNeighbours.set(source.item.id, entry);
  return entry;
}

/** The `keep` best ordinals, best first, ties in catalog order: a threshold by selection, then a small sort. */
function topOrdinals(scratch: Scratch, ordinals: readonly number[], keep: number): number[] {
  if (ordinals.length === 0) return [];
  const scores = scratch.total;
  let chosen = ordinals;
  if (ordinals.length > keep) {
    // A touched ordinal is listed once, so at most the catalog's size: the scratch always has room.
    for (let k = 0; k < ordinals.length; k++) scratch.selection[k] = scores[ordinals[k]!]!;
    const threshold = kthLargest(scratch.selection, ordinals.length, keep);
    chosen = ordinals.filter((o) => scores[o]! >= threshold);
  }
  return [...chosen].sort((a, b) => scores[b]! - scores[a]! || a - b).slice(0, keep);
}
function round6(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}
