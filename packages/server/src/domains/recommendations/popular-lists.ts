/**
 * The popularity strategies' kept lists (popular, top-sellers, trending): one top list per tenant and
 * options, merged after new activities and recomputed in slices, so no request walks a whole window.
 */
import type { RecommendationAggregates } from './activity-aggregates.js';
import { DAY_MS } from '../../platform/clock.js';
import { byScore } from './popularity.js';
import { runInSlices } from '../../platform/sliced-work.js';
import type { Candidate, StrategyInput } from './strategy-input.js';

/**
 * Popularity walks every item of every day in its window, far too slow per request on a large shop
 * (0.4-0.6 s over 1,000,000 activities). The top list is kept per tenant and options; after new
 * activities only the items they touched are scored again and merged in: an item outside the list can
 * only enter by gaining, and gaining needs an activity. A kept item that fell (a verb with a negative
 * weight, remove-from-cart) may let an item the list never held rank above it, so the list stays exact
 * only down to its depth less the falls merged since it was computed (`exact`). A new day of the
 * window, a lost change log, or more requested than is exact recomputes it whole. (Scores count whole
 * days: until 2026-11-27 every new minute recomputed it, a stall of the server each minute.)
 */
type PopularityCache = Map<string, { revision: number; day: number; exact: number; depth: number; candidates: Candidate[] }>;
const POPULARITY_DEPTH = 300;
/** Past this many changed items a whole recomputation is as cheap as merging. */
const MAX_MERGED = 2_000;

export type PopularityOptions = { verbs?: readonly string[]; sinceDays?: number };

/** The kept popularity lists of one engine, by tenant and options. */
export class PopularLists {
  private readonly cache: PopularityCache = new Map();
  /** Whole recomputations running in slices, by cache key: concurrent requests wait for the same one. */
  private readonly preparing = new Map<string, Promise<void>>();

  /** The list, kept, merged or (rarely, when `prepare` did not run or could not cover it) recomputed at once. */
  list(input: StrategyInput, options: PopularityOptions): Candidate[] {
    const { tenantId, aggregates } = input;
    const key = keyOf(tenantId, options);
    const revision = aggregates.revision(tenantId);
    // The window ends now, or at the newest activity when the data is older: a new day of either recomputes.
    const day = Math.floor(aggregates.windowEnd(tenantId) / DAY_MS);
    let cached = this.cache.get(key);
    if (cached !== undefined && cached.day === day && cached.revision !== revision) {
      const merged = mergeChanges(aggregates, tenantId, options, cached);
      cached = merged === undefined ? undefined : { ...cached, revision, candidates: merged.candidates, exact: cached.exact - merged.fell };
      if (cached !== undefined) this.cache.set(key, cached);
    }
    if (cached !== undefined && cached.day === day && cached.exact >= input.want) return cached.candidates;
    const depth = Math.max(POPULARITY_DEPTH, input.want);
    const candidates = toCandidates(aggregates.popularity(tenantId, { ...options, limit: depth }));
    this.cache.set(key, { revision, day, exact: depth, depth, candidates });
    return candidates;
  }

  /**
   * Makes the list `list` will read current without a whole recomputation at once: when it is missing,
   * of another day, or too far behind to merge, it is recomputed in slices (Popularity.ranking) while the
   * server keeps answering. On a busy shop's 30 days a whole pass walks millions of counts: at once it
   * held the event loop 8-36 ms per list on 1,000,000 activities, more on more. Activities counted while
   * it runs are merged by `list` afterwards (their items scored again, exactly), as after any activity.
   */
  async prepare(tenantId: string, aggregates: RecommendationAggregates, options: PopularityOptions, want: number): Promise<void> {
    const key = keyOf(tenantId, options);
    const day = Math.floor(aggregates.windowEnd(tenantId) / DAY_MS);
    const cached = this.cache.get(key);
    if (cached !== undefined && cached.day === day && cached.exact >= want) {
      // Counted, not listed: `list` lists them when it merges.
      const changed = aggregates.changedCountSince(tenantId, cached.revision);
      if (changed !== undefined && changed <= MAX_MERGED) return;
    }
    let pending = this.preparing.get(key);
    if (pending === undefined) {
      const depth = Math.max(POPULARITY_DEPTH, want);
      const revision = aggregates.revision(tenantId);
      pending = runInSlices(aggregates.popularityRanking(tenantId, { ...options, limit: depth }))
        .then((items) => {
          this.cache.set(key, { revision, day, exact: depth, depth, candidates: toCandidates(items) });
        })
        .finally(() => this.preparing.delete(key));
      this.preparing.set(key, pending);
    }
    await pending;
  }
}

function keyOf(tenantId: string, options: PopularityOptions): string {
  return `${tenantId}\u0000${options.verbs?.join(',') ?? '*'}\u0000${options.sinceDays ?? ''}`;
}

/**
 * The kept list with the changed items scored again, in `top`'s order, and how many kept items fell
 * (each may have let one item the list never held rank above it); undefined when only a full pass is
 * exact (the change log no longer reaches back, or too many items changed).
 */
function mergeChanges(
  aggregates: RecommendationAggregates,
  tenantId: string,
  options: PopularityOptions,
  cached: { revision: number; depth: number; candidates: Candidate[] },
): { candidates: Candidate[]; fell: number } | undefined {
  const changed = aggregates.changedItemsSince(tenantId, cached.revision);
  if (changed === undefined || changed.length > MAX_MERGED) return undefined;
  const scores = aggregates.popularityOf(tenantId, [...new Set(changed)], options);
  const byId = new Map(cached.candidates.map((c) => [c.itemId, c.score]));
  let fell = 0;
  for (const [itemId, score] of scores) {
    const before = byId.get(itemId);
    if (before !== undefined && score < before) fell++;
    if (score > 0) byId.set(itemId, score);
    else byId.delete(itemId);
  }
  const candidates = [...byId]
    .map(([itemId, score]) => ({ itemId, score }))
    .sort(byScore)
    .slice(0, cached.depth);
  return { candidates, fell };
}

function toCandidates(items: ReadonlyArray<{ itemId: string; score?: number; count?: number }>): Candidate[] {
  return items.map((i) => ({ itemId: i.itemId, score: i.score ?? i.count ?? 0 }));
}
