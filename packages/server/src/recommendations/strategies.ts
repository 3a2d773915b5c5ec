/**
 * Candidate generators, one per strategy: each returns item ids with a raw score (higher is better)
 * read from the live activity aggregates or the catalog index, so a new activity shows in the next call.
 */
import type { ActivityService } from '../activities/activity-service.js';
import type { StrategyName } from '../config/schema.js';
import { brandOf, type CatalogIndex, type IndexedItem } from './catalog-index.js';

export interface Candidate {
  itemId: string;
  score: number;
}

export interface StrategyInput {
  tenantId: string;
  activities: ActivityService;
  index: CatalogIndex;
  /** The `$productId` items, in the order given. */
  productIds: readonly string[];
  profileId: string | undefined;
  /** How many candidates are worth producing: later steps filter some out. */
  want: number;
  /** Title likeness from the search index (`SearchService.similarText`); `similar` uses content alone without it. */
  textSimilarity?: TextSimilarity;
}

export type TextSimilarity = (tenantId: string, environmentId: string, itemId: string, limit: number) => Array<{ id: string; score: number }>;

const BUY_VERBS = ['buy', 'purchase'];
const TRENDING_DAYS = 7;

export const strategies: Record<StrategyName, (input: StrategyInput) => Candidate[]> = {
  popular: (input) => popularity(input, {}),
  'top-sellers': (input) => popularity(input, { verbs: BUY_VERBS }),
  trending: (input) => popularity(input, { sinceDays: TRENDING_DAYS }),
  'also-viewed': (input) => related(input, input.productIds, 'visit'),
  'bought-together': (input) => related(input, input.productIds, 'order'),
  personalized: personalized,
  'recently-viewed': ({ tenantId, activities, profileId, want }) => {
    if (profileId === undefined) return [];
    const recent = activities.recentItems(tenantId, profileId, want).filter((r) => r.verb === 'view');
    return recent.map((r, rank) => ({ itemId: r.itemId, score: recent.length - rank }));
  },
  similar: similar,
};

/**
 * Popularity walks every item of every day in its window, far too slow per request on a large shop;
 * the answer is kept until the tenant's next activity (or the next minute, as days roll over).
 */
const popularityCaches = new WeakMap<ActivityService, Map<string, { revision: number; minute: number; depth: number; candidates: Candidate[] }>>();
const POPULARITY_DEPTH = 300;

function popularity(input: StrategyInput, options: { verbs?: readonly string[]; sinceDays?: number }): Candidate[] {
  const { tenantId, activities } = input;
  let cache = popularityCaches.get(activities);
  if (cache === undefined) popularityCaches.set(activities, (cache = new Map()));
  const key = `${tenantId}\u0000${options.verbs?.join(',') ?? '*'}\u0000${options.sinceDays ?? ''}`;
  const revision = activities.revision(tenantId);
  const minute = Math.floor(Date.now() / 60_000);
  const cached = cache.get(key);
  if (cached !== undefined && cached.revision === revision && cached.minute === minute && cached.depth >= input.want) return cached.candidates;
  const depth = Math.max(POPULARITY_DEPTH, input.want);
  const candidates = toCandidates(activities.popularity(tenantId, { ...options, limit: depth }));
  cache.set(key, { revision, minute, depth, candidates });
  return candidates;
}

function toCandidates(items: ReadonlyArray<{ itemId: string; score?: number; count?: number }>): Candidate[] {
  return items.map((i) => ({ itemId: i.itemId, score: i.score ?? i.count ?? 0 }));
}

/** Sums co-occurrence counts over several seed items, each seed weighted (recent seeds count more). */
function related(input: StrategyInput, seeds: readonly string[], kind: 'visit' | 'order', weights?: readonly number[]): Candidate[] {
  const scores = new Map<string, number>();
  seeds.forEach((seed, i) => {
    const weight = weights?.[i] ?? 1;
    for (const r of input.activities.coOccurring(input.tenantId, seed, kind, input.want)) {
      scores.set(r.itemId, (scores.get(r.itemId) ?? 0) + r.count * weight);
    }
  });
  return sorted(scores);
}

/** The profile's recent items through the item-to-item model; a purchase together counts twice a view together. */
function personalized(input: StrategyInput): Candidate[] {
  if (input.profileId === undefined) return [];
  const recent = input.activities.recentItems(input.tenantId, input.profileId, 10);
  const seeds = recent.map((r) => r.itemId);
  const weights = recent.map((_, rank) => 1 / (rank + 1));
  const scores = new Map<string, number>();
  for (const c of related(input, seeds, 'visit', weights)) scores.set(c.itemId, c.score);
  for (const c of related(input, seeds, 'order', weights)) scores.set(c.itemId, (scores.get(c.itemId) ?? 0) + 2 * c.score);
  // What the shopper already touched is "recently viewed", not a discovery.
  for (const seed of seeds) scores.delete(seed);
  return sorted(scores);
}

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
function similar(input: StrategyInput): Candidate[] {
  const { index } = input;
  const scratch = scratchFor(index);
  const touched: number[] = [];
  for (const productId of new Set(input.productIds)) {
    const source = index.byId.get(productId);
    if (source !== undefined) scoreAgainst(input, source, scratch, touched);
  }
  const keep = Math.max(input.want, 1) * 4;
  const best = topOrdinals(scratch.total, touched, keep).map((ordinal) => ({ itemId: index.items[ordinal]!.item.id, score: round6(scratch.total[ordinal]!) }));
  for (const ordinal of touched) scratch.total[ordinal] = 0;
  return best;
}

/** Weights of the two halves of `similar` (they sum to 1, so one seed's blend stays within [0, 1]). */
export const CONTENT_WEIGHT = 0.4;
export const TEXT_WEIGHT = 0.6;
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
}

const scratches = new WeakMap<CatalogIndex, Scratch>();

/** Reused per index: a request allocates no array the size of the catalog. Requests run one at a time (synchronously). */
function scratchFor(index: CatalogIndex): Scratch {
  let scratch = scratches.get(index);
  if (scratch === undefined) {
    scratch = { content: new Float64Array(index.items.length), total: new Float64Array(index.items.length) };
    scratches.set(index, scratch);
  }
  return scratch;
}

function scoreAgainst(input: StrategyInput, source: IndexedItem, scratch: Scratch, touched: number[]): void {
  const { index } = input;
  const { content, total } = scratch;
  const seen: number[] = [];
  const categories = new Set(source.view.categories.map((c) => c.toLowerCase()));
  const brand = brandOf(source.view);
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
  const best = neighbours[0]?.score ?? 0;
  if (best <= 0) return;
  for (const neighbour of neighbours) {
    const entry = index.byId.get(neighbour.id);
    if (entry === undefined || entry.ordinal === source.ordinal || neighbour.score <= 0) continue;
    if (total[entry.ordinal] === 0) touched.push(entry.ordinal);
    total[entry.ordinal] += (TEXT_WEIGHT * neighbour.score) / best;
  }
}

function textNeighbours(input: StrategyInput, source: IndexedItem): Array<{ id: string; score: number }> {
  const { index, textSimilarity } = input;
  if (textSimilarity === undefined) return [];
  const now = Date.now();
  const cached = index.textNeighbours.get(source.item.id);
  if (cached !== undefined && now - cached.at < TEXT_CACHE_MS) return cached.neighbours;
  const found = textSimilarity(index.tenantId, index.environmentId, source.item.id, TEXT_NEIGHBOURS);
  // Nothing found may mean the search index is still being built: asked again next time.
  if (found.length === 0) return found;
  index.textNeighbours.delete(source.item.id);
  if (index.textNeighbours.size >= TEXT_CACHE_ENTRIES) index.textNeighbours.delete(index.textNeighbours.keys().next().value!);
  index.textNeighbours.set(source.item.id, { at: now, neighbours: found });
  return found;
}

/** The `keep` best ordinals, best first, ties in catalog order: a threshold from a numeric sort, then a small sort. */
function topOrdinals(scores: Float64Array, ordinals: readonly number[], keep: number): number[] {
  if (ordinals.length === 0) return [];
  let chosen = ordinals;
  if (ordinals.length > keep) {
    const values = new Float64Array(ordinals.length);
    for (let k = 0; k < ordinals.length; k++) values[k] = scores[ordinals[k]!]!;
    values.sort();
    const threshold = values[values.length - keep]!;
    chosen = ordinals.filter((o) => scores[o]! >= threshold);
  }
  return [...chosen].sort((a, b) => scores[b]! - scores[a]! || a - b).slice(0, keep);
}
function round6(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}

function sorted(scores: Map<string, number>): Candidate[] {
  return [...scores]
    .map(([itemId, score]) => ({ itemId, score }))
    .sort((a, b) => b.score - a.score || a.itemId.localeCompare(b.itemId));
}
