/**
 * The recommendation service the API calls: resolves the catalog index, runs the engine, issues the
 * response's signed id (click-on-reco and `sourceId` refer to it; tracking/response-ids.ts),
 * and keeps the per-user lists behind e-mail photo and redirect links for the widget's `emailCacheMinutes`.
 */
import type { ActivityService } from '../tracking/activity-service.js';
import type { RecommendationAggregates } from './activity-aggregates.js';
import type { CatalogService } from '../catalog/catalog-service.js';
import type { Clock } from '../../platform/clock.js';
import type { EnvironmentRef } from '../../platform/config/registry.js';
import type { WidgetConfig } from '../../platform/config/schema.js';
import type { SearchService } from '../search/search-service.js';
import type { ProductView } from '../catalog/product-view.js';
import { localizeView } from '../catalog/localized.js';
import type { DocumentStore } from '../../platform/store/document-store.js';
import type { BlobStore } from '../../platform/blob-store/blob-store.js';
import { CatalogIndexes } from './catalog-index.js';
import { EmailLists } from './email-lists.js';
import { RecommendationEngine, type RecommendedItem } from './recommendation-engine.js';
import { ModelTrainer } from './model-trainer.js';
import type { Logger } from '../../platform/logger.js';
import type { DiscoveryConfig } from '../../platform/config/schema.js';
import type { ItemFacts } from './ranker-training.js';
import type { Experiments } from '../experiments/experiments.js';
import type { ExperimentStamp } from '@discovery-kit/protocol';

export interface RecommendationResponse {
  id: string;
  recommendations: Array<{ id: string; strategy: string; score: number; distribution: number; product: RecommendedItem['product']; explanation?: RecommendedItem['explanation'] }>;
  pagination: { total: number };
  widget: { title: string; attributes: WidgetConfig['attributes']; minResults: number };
  experiment?: ExperimentStamp;
}

export interface RecommendationQuery {
  ref: EnvironmentRef & { widget: WidgetConfig };
  profileId: string | undefined;
  variables: Record<string, unknown>;
  idsToBan: readonly string[];
  offset: number;
  limit: number | undefined;
  /** The id an experiment draws the variant for (the path's profile or user id); none: the control, uncounted. */
  shopperId?: string;
  /** The admin preview: each item the learned ranking placed says why. */
  explain?: boolean;
  /** The page's language (ISO 639-1, from `lang`): products' texts in it where the items have them (catalog/localized.ts). */
  language?: string;
}

/** What an e-mail's links read: the response id and the product at each 1-based position (index 0 is slot 1). */
export interface EmailSlots {
  id: string;
  slots: Array<ProductView | undefined>;
}

export class RecommendationService {
  readonly indexes: CatalogIndexes;
  /** Popularity, co-occurrence and interactions, folded from the activity log. */
  readonly aggregates: RecommendationAggregates;
  readonly engine: RecommendationEngine;
  private readonly clock: Clock;
  private readonly config: DiscoveryConfig;
  private readonly emailLists: EmailLists;
  private readonly activities: ActivityService;
  private readonly experiments: Experiments | undefined;
  /** Each tenant's trained item-to-item model: trained off the request path, persisted, swapped in whole. */
  readonly models: ModelTrainer;

  constructor(deps: { catalog: CatalogService; activities: ActivityService; aggregates: RecommendationAggregates; search: SearchService; store: DocumentStore; blobs: BlobStore; clock: Clock; logger: Logger; config: DiscoveryConfig; experiments?: Experiments; trains?: boolean }) {
    this.experiments = deps.experiments;
    this.aggregates = deps.aggregates;
    this.emailLists = new EmailLists(deps.store);
    this.activities = deps.activities;
    this.indexes = new CatalogIndexes(deps.catalog);
    this.models = new ModelTrainer({
      aggregates: deps.aggregates,
      blobs: deps.blobs,
      logger: deps.logger,
      clock: deps.clock,
      options: deps.config.recommendationModel,
      describe: (tenantId, itemIds) => this.describeItems(tenantId, itemIds),
      store: deps.store,
      trains: deps.trains,
    });
    // A promotion changes what may be recommended: a fresh model starts from the current activity.
    deps.catalog.onActivate(async (tenantId) => this.models.requestRetrain(tenantId, 'catalog promoted'));
    this.engine = new RecommendationEngine({
      activities: deps.activities,
      aggregates: deps.aggregates,
      textSimilarity: (tenantId, environmentId, itemId, limit) => deps.search.similarText(tenantId, environmentId, itemId, limit),
      models: this.models,
    });
    this.clock = deps.clock;
    this.config = deps.config;
  }

  /**
   * Family codes, prices and title words of items, read from the active catalog of the tenant's first environment
   * (the model is per tenant; environments of one shop share its products): the ranker's training facts.
   */
  private async describeItems(tenantId: string, itemIds: readonly string[]): Promise<ItemFacts> {
    const families = new Int32Array(itemIds.length).fill(-1);
    const prices = new Float32Array(itemIds.length);
    const environment = this.config.tenants.find((t) => t.id === tenantId)?.environments[0];
    const index = environment === undefined ? undefined : await this.indexes.active(tenantId, environment.id);
    if (index === undefined) return { families, prices };
    const codes = new Map<string, number>();
    const wordNumbers = new Map<string, number>();
    const titleOffsets = new Int32Array(itemIds.length + 1);
    const words: number[] = [];
    itemIds.forEach((id, i) => {
      const entry = index.byId.get(id);
      titleOffsets[i + 1] = titleOffsets[i]!;
      if (entry === undefined) return;
      for (const word of entry.words) {
        if (!wordNumbers.has(word)) wordNumbers.set(word, wordNumbers.size);
        words.push(wordNumbers.get(word)!);
      }
      titleOffsets[i + 1] = words.length;
      const family = entry.family;
      if (family !== undefined) {
        if (!codes.has(family)) codes.set(family, codes.size);
        families[i] = codes.get(family)!;
      }
      prices[i] = entry.price;
    });
    return { families, prices, titles: { offsets: titleOffsets, words: Int32Array.from(words), vocabulary: [...wordNumbers.keys()] } };
  }

  async recommend(query: RecommendationQuery): Promise<RecommendationResponse> {
    const { tenant, environment } = query.ref;
    const touched = this.experiments?.forWidget(tenant.id, environment.id, query.ref.widget, query.shopperId, query.profileId);
    const widget = touched?.settings ?? query.ref.widget;
    const index = await this.indexes.active(tenant.id, environment.id);
    await this.engine.prepare({ tenantId: tenant.id, widget });
    // A returning shopper whose history left memory gets it back from the log before strategies read it.
    if (query.profileId !== undefined && widget.strategies.includes('recently-viewed')) await this.activities.readBackHistory(tenant.id, query.profileId);
    const list = this.engine.recommend({ tenantId: tenant.id, widget, index, profileId: query.profileId, variables: query.variables, idsToBan: query.idsToBan, explain: query.explain });
    const id = await this.activities.responseIds.issue(tenant.id, 'r');
    touched?.expose(id);
    const page = list.slice(query.offset, query.offset + (query.limit ?? widget.maxResults));
    // Distribution is over the page returned, so a carousel showing the page can size or weight its slots.
    const pageTotal = page.reduce((sum, r) => sum + r.score, 0);
    const localized = (r: (typeof page)[number]) => {
      const item = query.language === undefined ? undefined : index?.byId.get(r.itemId)?.item;
      return item === undefined ? r.product : localizeView(r.product, item, query.language);
    };
    return {
      id,
      recommendations: page.map((r, i) => ({
        id: `${id}-${query.offset + i + 1}`,
        strategy: r.strategy,
        score: r.score,
        distribution: distribution(r.score, pageTotal),
        product: localized(r),
        ...(r.explanation === undefined ? {} : { explanation: r.explanation }),
      })),
      pagination: { total: list.length },
      widget: { title: widget.title, attributes: widget.attributes, minResults: widget.minResults },
      ...(touched === undefined ? {} : { experiment: touched.stamp }),
    };
  }

  /**
   * The list behind an e-mail: the same for photo.png and redirect.html until it expires (or `nocache`),
   * across restarts. A slot whose item has left the active catalog since is empty.
   */
  async emailList(query: RecommendationQuery & { userKey: string; nocache: boolean }): Promise<EmailSlots> {
    const { tenant, environment, widget } = query.ref;
    const key = `${environment.id}/${widget.id}/${query.userKey}`;
    const now = this.clock.now();
    const cached = query.nocache ? undefined : await this.emailLists.get(tenant.id, key, now);
    if (cached !== undefined) {
      const index = await this.indexes.active(tenant.id, environment.id);
      return { id: cached.id, slots: cached.items.map((item) => index?.byId.get(item.itemId)?.view) };
    }
    const response = await this.recommend(query);
    if (widget.emailCacheMinutes > 0) {
      const items = response.recommendations.map((r) => ({ itemId: r.product._id.original_id, strategy: r.strategy, score: r.score, distribution: r.distribution }));
      await this.emailLists.put(tenant.id, key, { id: response.id, expiresAt: now + widget.emailCacheMinutes * 60_000, items, total: response.pagination.total }, now);
    }
    return { id: response.id, slots: response.recommendations.map((r) => r.product) };
  }
}

/** Each item's share of the page's total score, rounded to 6 places (the shares sum to 1 within rounding). */
function distribution(score: number, total: number): number {
  return total === 0 ? 0 : Math.round((score / total) * 1e6) / 1e6;
}
