/** What every strategy is given and returns (strategies.ts runs them; each lives in its own file when it is large). */
import type { ActivityService } from '../tracking/activity-service.js';
import type { WidgetConfig } from '../../platform/config/schema.js';
import type { RecommendationAggregates } from './activity-aggregates.js';
import type { CatalogIndex } from './catalog-index.js';
import type { ItemModel } from './item-model.js';
import type { Explanation, LearnedRanker } from './learned-ranker.js';

export interface Candidate {
  itemId: string;
  score: number;
  /** Why the learned ranking placed it (only when the request asks to explain). */
  explanation?: Explanation;
}

export interface StrategyInput {
  tenantId: string;
  /** Tracking: profiles' histories and merged profile ids. */
  activities: ActivityService;
  /** What recommendations folded from the activity log: popularity, co-occurrence, interactions. */
  aggregates: RecommendationAggregates;
  index: CatalogIndex;
  /** The `$productId` items, in the order given. */
  productIds: readonly string[];
  profileId: string | undefined;
  /** How many candidates are worth producing: later steps filter some out. */
  want: number;
  /** Title likeness from the search index (`SearchService.similarText`); `similar` uses content alone without it. */
  textSimilarity?: TextSimilarity;
  /** The tenant's trained item-to-item model, once there is one. */
  model?: ItemModel;
  /** The tenant's learned ranking stage, once trained and unless switched off. */
  ranker?: LearnedRanker;
  /** The widget asking, for its per-widget settings (popularity weight...). */
  widget?: WidgetConfig;
  /** Attach each candidate's explanation (the admin preview asks). */
  explain?: boolean;
}

export type TextSimilarity = (tenantId: string, environmentId: string, itemId: string, limit: number) => Array<{ id: string; score: number }>;

/**
 * One strategy: candidates for one request, best first, synchronously (per-instance scratch memory is
 * never shared between calls in flight). The engine stops reading once its slots are filled, so a
 * strategy with thousands of candidates may order them lazily.
 */
export type Strategy = (input: StrategyInput) => Iterable<Candidate>;
