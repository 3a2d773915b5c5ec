/**
 * Fills a widget's slots: runs its strategies in order, drops excluded and filtered items, applies
 * boosters, and tops up from popularity and then the catalog so that `minResults` is met whenever the
 * catalog can. Scores are tiers (earlier strategies rank above later ones) plus a share within the tier.
 */
import type { ActivityService } from '../tracking/activity-service.js';
import type { ProductView } from '../catalog/product-view.js';
import type { StrategyName, WidgetConfig } from '../../platform/config/schema.js';
import type { CatalogIndex, IndexedItem } from './catalog-index.js';
import type { ModelTrainer } from './model-trainer.js';
import { createStrategies, POPULARITY_OPTIONS, type Candidate, type TextSimilarity } from './strategies.js';
import { PopularLists } from './popular-lists.js';
import type { RecommendationAggregates } from './activity-aggregates.js';
import { compileFilters } from './widget-filters.js';
import type { Explanation } from './learned-ranker.js';

/** What a recommendation's `strategy` says when neither a configured strategy nor popularity could fill a slot. */
export const FALLBACK_STRATEGY = 'fallback';
export const POPULAR_FALLBACK_STRATEGY = 'fallback-popular';

export interface RecommendRequest {
  tenantId: string;
  widget: WidgetConfig;
  index: CatalogIndex | undefined;
  profileId: string | undefined;
  /** `$`-prefixed request variables. */
  variables: Record<string, unknown>;
  idsToBan: readonly string[];
  /** Attach the learned ranking's explanation to the items it placed (the admin preview). */
  explain?: boolean;
}

export interface RecommendedItem {
  itemId: string;
  strategy: string;
  score: number;
  product: ProductView;
  explanation?: Explanation;
}

export class RecommendationEngine {
  private readonly activities: ActivityService;
  private readonly textSimilarity: TextSimilarity | undefined;
  private readonly models: ModelTrainer | undefined;

  private readonly aggregates: RecommendationAggregates;
  private readonly popular = new PopularLists();
  private readonly strategies = createStrategies(this.popular);

  constructor(deps: { activities: ActivityService; aggregates: RecommendationAggregates; textSimilarity?: TextSimilarity; models?: ModelTrainer }) {
    this.activities = deps.activities;
    this.aggregates = deps.aggregates;
    this.textSimilarity = deps.textSimilarity;
    this.models = deps.models;
  }

  /**
   * Brings the popularity lists the widget's strategies and fallback read up to date in slices
   * (PopularLists.prepare), so that `recommend`, which runs at once, does not recompute one whole.
   */
  async prepare(request: { tenantId: string; widget: WidgetConfig }): Promise<void> {
    const names = new Set<StrategyName>(request.widget.strategies);
    if (fallbackOf(request.widget) !== 'none') names.add('popular');
    for (const name of names) {
      const options = POPULARITY_OPTIONS[name];
      // The strategies are asked for three times the widget's size (`recommend`).
      if (options !== undefined) await this.popular.prepare(request.tenantId, this.aggregates, options, request.widget.maxResults * 3);
    }
  }

  /** The widget's whole list (at most `maxResults` items), best first. */
  recommend(request: RecommendRequest): RecommendedItem[] {
    const { widget, index } = request;
    if (index === undefined) return [];
    const productIds = productIdsOf(request.variables);
    const filtered = widget.filters.length > 0;
    const context = filtered && productIds.length > 0 ? index.byId.get(productIds[0]!)?.view : undefined;
    const keep = compileFilters(widget.filters, request.variables, context);
    const excluded = new Set([...productIds, ...request.idsToBan]);
    if (request.profileId !== undefined && excludesPurchased(widget)) {
      const profileId = this.activities.canonicalProfileId(request.tenantId, request.profileId);
      for (const itemId of this.aggregates.interactions(request.tenantId).boughtBy(profileId)) excluded.add(itemId);
    }
    const model = this.models?.model(request.tenantId);
    const ranker = this.models?.ranker(request.tenantId);
    const chosen: RecommendedItem[] = [];
    const want = widget.maxResults;
    const cap = diversityCapOf(widget);
    /** Items of each family already in the list (the cap counts across tiers). */
    const families = new Map<string, number>();

    const tiers: Array<{ strategy: string; run: () => Iterable<Candidate> }> = widget.strategies.map((name: StrategyName) => ({
      strategy: name,
      run: () =>
        this.strategies[name]({ tenantId: request.tenantId, activities: this.activities, aggregates: this.aggregates, index, productIds, profileId: request.profileId, want: want * 3, textSimilarity: this.textSimilarity, model, ranker, widget, explain: request.explain }),
    }));
    const fallback = fallbackOf(widget);
    if (fallback !== 'none') {
      tiers.push({ strategy: POPULAR_FALLBACK_STRATEGY, run: () => this.strategies.popular({ tenantId: request.tenantId, activities: this.activities, aggregates: this.aggregates, index, productIds, profileId: undefined, want: want * 3 }) });
      tiers.push({ strategy: FALLBACK_STRATEGY, run: () => catalogOrder(index) });
    }

    for (const [tierNumber, tier] of tiers.entries()) {
      const isFallback = tierNumber >= widget.strategies.length;
      // Fallbacks only top up to minResults; configured strategies fill up to maxResults.
      const target = isFallback ? widget.minResults : want;
      if (chosen.length >= target) continue;
      const picked: Array<{ itemId: string; boosted: number; rank: number; entry: IndexedItem; view: ProductView | undefined; explanation?: Explanation }> = [];
      const needed = target - chosen.length;
      for (const candidate of tier.run()) {
        // Candidates come best first; a few spares leave room for boosters to reorder.
        if (picked.length >= needed * 3) break;
        if (excluded.has(candidate.itemId)) continue;
        const entry = index.byId.get(candidate.itemId);
        if (entry === undefined || !entry.recommended) continue;
        // Views are built for what filters must read and what is returned, not for every candidate.
        const view = filtered ? entry.view : undefined;
        if (view !== undefined && !keep(view)) continue;
        excluded.add(candidate.itemId);
        picked.push({ itemId: candidate.itemId, boosted: candidate.score * boostFactor(entry.booster), rank: picked.length, entry, view, explanation: candidate.explanation });
      }
      // Equal scores keep the strategy's order: it breaks ties by what it knows (bought-together by purchases).
      picked.sort((a, b) => b.boosted - a.boosted || a.rank - b.rank);
      const ordered = cap === undefined ? picked : capFamilies(picked, cap, families);
      // Items picked but not needed go back to the pool: a later tier may still want them.
      for (const unused of ordered.slice(needed)) excluded.delete(unused.itemId);
      const tierBase = tiers.length - tierNumber - 1;
      let ceiling = Infinity;
      for (const p of ordered.slice(0, needed)) {
        // An item the cap moved down scores no higher than the one before it: scores fall along the list.
        p.boosted = Math.min(p.boosted, ceiling);
        ceiling = p.boosted;
        const family = p.entry.family;
        if (cap !== undefined && family !== undefined) families.set(family, (families.get(family) ?? 0) + 1);
        chosen.push({ itemId: p.itemId, strategy: tier.strategy, score: round(tierBase + p.boosted / (p.boosted + 1)), product: p.view ?? p.entry.view, ...(p.explanation === undefined ? {} : { explanation: p.explanation }) });
      }
    }
    return chosen;
  }
}

/** Left out by default where a shop expects discoveries: a widget with `personalized` and without `buy-again` (see docs/recommendations.md). */
export function excludesPurchased(widget: WidgetConfig): boolean {
  return widget.excludePurchased ?? (widget.strategies.includes('personalized') && !widget.strategies.includes('buy-again'));
}

/**
 * What tops a widget up to `minResults`: popularity then catalog order, except for a widget of
 * `recently-viewed` or `buy-again` alone, which shows only the shopper's own items unless its
 * configuration says otherwise.
 */
export function fallbackOf(widget: WidgetConfig): 'popular' | 'none' {
  return widget.fallback ?? (widget.strategies.every((s) => OWN_ITEMS.has(s)) ? 'none' : 'popular');
}

const OWN_ITEMS = new Set<StrategyName>(['recently-viewed', 'buy-again']);

/** The widget's variety cap: its own, or 3 for widgets of `personalized`, `similar` or `bought-together`. */
export function diversityCapOf(widget: WidgetConfig): number | undefined {
  if (widget.diversityCap !== undefined) return widget.diversityCap < widget.maxResults ? widget.diversityCap : undefined;
  return widget.strategies.some((s) => CAPPED_BY_DEFAULT.has(s)) ? DEFAULT_DIVERSITY_CAP : undefined;
}

const DEFAULT_DIVERSITY_CAP = 3;
const CAPPED_BY_DEFAULT = new Set<StrategyName>(['personalized', 'similar', 'bought-together']);

/**
 * The candidates best first, but no more than `cap` of one family (counting those already chosen):
 * the others move below every candidate that fits, in their own order, so they still fill the list when
 * nothing else can. A re-rank, not a filter: the best-scoring item of each family keeps its place.
 */
function capFamilies<T extends { entry: IndexedItem }>(candidates: readonly T[], cap: number, chosen: ReadonlyMap<string, number>): T[] {
  const counts = new Map(chosen);
  const fits: T[] = [];
  const over: T[] = [];
  for (const candidate of candidates) {
    const family = candidate.entry.family;
    const count = family === undefined ? 0 : (counts.get(family) ?? 0);
    if (count >= cap) {
      over.push(candidate);
      continue;
    }
    if (family !== undefined) counts.set(family, count + 1);
    fits.push(candidate);
  }
  return [...fits, ...over];
}

/** A booster of 1 doubles an item's score within its strategy; negative boosters lower it, never below a tenth. */
function boostFactor(booster: number): number {
  return Math.max(0.1, 1 + booster);
}

/** Lazy, so that a widget whose filters reject most of a large catalog still stops at the first fits. */
function* catalogOrder(index: CatalogIndex): Iterable<{ itemId: string; score: number }> {
  for (const [rank, entry] of index.items.entries()) yield { itemId: entry.item.id, score: 1 / (rank + 1) };
}

/** `$productId` may be one id or an array of ids; anything else is ignored. */
export function productIdsOf(variables: Record<string, unknown>): string[] {
  const value = variables.$productId;
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return list.filter((v): v is string | number => typeof v === 'string' || typeof v === 'number').map(String);
}

function round(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}
