/**
 * The recommendation service the API calls: resolves the catalog index, runs the engine, registers the
 * response id in the activity log (click-on-reco and `sourceId` refer to it), and keeps the per-user
 * lists behind e-mail photo and redirect links stable for the widget's `emailCacheMinutes`.
 */
import { randomBytes } from 'node:crypto';
import type { ActivityService } from '../activities/activity-service.js';
import type { CatalogService } from '../catalog/catalog-service.js';
import type { Clock } from '../clock.js';
import type { EnvironmentRef } from '../config/registry.js';
import type { WidgetConfig } from '../config/schema.js';
import type { SearchService } from '../search/search-service.js';
import { CatalogIndexes } from './catalog-index.js';
import { RecommendationEngine, type RecommendedItem } from './recommendation-engine.js';

export interface RecommendationResponse {
  id: string;
  recommendations: Array<{ id: string; strategy: string; score: number; distribution: number; product: RecommendedItem['product'] }>;
  pagination: { total: number };
  widget: { title: string; attributes: WidgetConfig['attributes']; minResults: number };
}

export interface RecommendationQuery {
  ref: EnvironmentRef & { widget: WidgetConfig };
  profileId: string | undefined;
  variables: Record<string, unknown>;
  idsToBan: readonly string[];
  offset: number;
  limit: number | undefined;
}

interface CachedList {
  expiresAt: number;
  response: RecommendationResponse;
}

/** Bounds the e-mail cache: one entry per (widget, user) opened in a mail. */
const MAX_EMAIL_ENTRIES = 100_000;

export class RecommendationService {
  readonly indexes: CatalogIndexes;
  readonly engine: RecommendationEngine;
  private readonly activities: ActivityService;
  private readonly clock: Clock;
  private readonly emailLists = new Map<string, CachedList>();
  private readonly idPrefix = randomBytes(6).toString('base64url');
  private sequence = 0;

  constructor(deps: { catalog: CatalogService; activities: ActivityService; search: SearchService; clock: Clock }) {
    this.indexes = new CatalogIndexes(deps.catalog);
    this.engine = new RecommendationEngine({
      activities: deps.activities,
      textSimilarity: (tenantId, environmentId, itemId, limit) => deps.search.similarText(tenantId, environmentId, itemId, limit),
    });
    this.activities = deps.activities;
    this.clock = deps.clock;
  }

  async recommend(query: RecommendationQuery): Promise<RecommendationResponse> {
    const { tenant, environment, widget } = query.ref;
    const index = await this.indexes.active(tenant.id, environment.id);
    const list = this.engine.recommend({ tenantId: tenant.id, widget, index, profileId: query.profileId, variables: query.variables, idsToBan: query.idsToBan });
    const id = `r_${this.idPrefix}${(this.sequence++).toString(36)}`;
    const page = list.slice(query.offset, query.offset + (query.limit ?? widget.maxResults));
    // Distribution is over the page returned, so a carousel showing the page can size or weight its slots.
    const pageTotal = page.reduce((sum, r) => sum + r.score, 0);
    await this.activities.registerRecommendation(tenant.id, id, {
      widgetId: widget.id,
      ...(query.profileId === undefined ? {} : { profileId: query.profileId }),
      itemIds: page.map((r) => r.itemId),
    });
    return {
      id,
      recommendations: page.map((r, i) => ({ id: `${id}-${query.offset + i + 1}`, strategy: r.strategy, score: r.score, distribution: distribution(r.score, pageTotal), product: r.product })),
      pagination: { total: list.length },
      widget: { title: widget.title, attributes: widget.attributes, minResults: widget.minResults },
    };
  }

  /** The list behind an e-mail: the same for photo.png and redirect.html until it expires (or `nocache`). */
  async emailList(query: RecommendationQuery & { userKey: string; nocache: boolean }): Promise<RecommendationResponse> {
    const key = `${query.ref.tenant.id}\u0000${query.ref.widget.id}\u0000${query.userKey}`;
    const now = this.clock.now();
    const cached = this.emailLists.get(key);
    if (!query.nocache && cached !== undefined && cached.expiresAt > now) return cached.response;
    const response = await this.recommend(query);
    this.emailLists.delete(key);
    if (this.emailLists.size >= MAX_EMAIL_ENTRIES) this.emailLists.delete(this.emailLists.keys().next().value!);
    this.emailLists.set(key, { expiresAt: now + query.ref.widget.emailCacheMinutes * 60_000, response });
    return response;
  }
}

/** Each item's share of the page's total score, rounded to 6 places (the shares sum to 1 within rounding). */
function distribution(score: number, total: number): number {
  return total === 0 ? 0 : Math.round((score / total) * 1e6) / 1e6;
}
