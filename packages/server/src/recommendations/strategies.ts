/**
 * Candidate generators, one per strategy: each returns item ids with a raw score (higher is better)
 * read from the live activity aggregates or the catalog index, so a new activity shows in the next call.
 */
import type { ActivityService } from '../activities/activity-service.js';
import type { StrategyName } from '../config/schema.js';
import type { CatalogIndex } from './catalog-index.js';
import { byScore } from '../activities/popularity.js';
import { similar } from './similar-strategy.js';

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
 * Popularity walks every item of every day in its window, far too slow per request on a large shop.
 * The top list is kept per tenant and options; after new activities only the items they touched are
 * scored again and merged in (an item outside the list can only enter by gaining, and gaining needs an
 * activity). A new minute (days roll over), a lost change log or a falling score (a verb with a
 * negative weight) recomputes it whole.
 */
const popularityCaches = new WeakMap<ActivityService, Map<string, { revision: number; minute: number; depth: number; candidates: Candidate[] }>>();
const POPULARITY_DEPTH = 300;
/** Past this many changed items a whole recomputation is as cheap as merging. */
const MAX_MERGED = 2_000;

function popularity(input: StrategyInput, options: { verbs?: readonly string[]; sinceDays?: number }): Candidate[] {
  const { tenantId, activities } = input;
  let cache = popularityCaches.get(activities);
  if (cache === undefined) popularityCaches.set(activities, (cache = new Map()));
  const key = `${tenantId}\u0000${options.verbs?.join(',') ?? '*'}\u0000${options.sinceDays ?? ''}`;
  const revision = activities.revision(tenantId);
  const minute = Math.floor(Date.now() / 60_000);
  const cached = cache.get(key);
  if (cached !== undefined && cached.minute === minute && cached.depth >= input.want) {
    if (cached.revision === revision) return cached.candidates;
    const merged = mergeChanges(activities, tenantId, options, cached);
    if (merged !== undefined) {
      cache.set(key, { revision, minute, depth: cached.depth, candidates: merged });
      return merged;
    }
  }
  const depth = Math.max(POPULARITY_DEPTH, input.want);
  const candidates = toCandidates(activities.popularity(tenantId, { ...options, limit: depth }));
  cache.set(key, { revision, minute, depth, candidates });
  return candidates;
}

/** The kept list with the changed items scored again, in `top`'s order; undefined when only a full pass is exact. */
function mergeChanges(activities: ActivityService, tenantId: string, options: { verbs?: readonly string[]; sinceDays?: number }, cached: { revision: number; depth: number; candidates: Candidate[] }): Candidate[] | undefined {
  const changed = activities.changedItemsSince(tenantId, cached.revision);
  if (changed === undefined || changed.length > MAX_MERGED) return undefined;
  const scores = activities.popularityOf(tenantId, [...new Set(changed)], options);
  const byId = new Map(cached.candidates.map((c) => [c.itemId, c.score]));
  for (const [itemId, score] of scores) {
    const before = byId.get(itemId);
    // A kept item that lost score may now rank below items the list never held.
    if (before !== undefined && score < before) return undefined;
    if (score > 0) byId.set(itemId, score);
  }
  return [...byId]
    .map(([itemId, score]) => ({ itemId, score }))
    .sort(byScore)
    .slice(0, cached.depth);
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

function sorted(scores: Map<string, number>): Candidate[] {
  return [...scores]
    .map(([itemId, score]) => ({ itemId, score }))
    .sort((a, b) => b.score - a.score || a.itemId.localeCompare(b.itemId));
}
