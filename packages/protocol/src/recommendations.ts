/**
 * Wire types of the recommendation API (`{base_url}/widget/...`). Every JSON form answers the same
 * body: `GET /widget/{widgetId}/recommendations`, with a profile id (`/{profileId}`), with a user of
 * an identity repository or datasource (`/{source}/{userId}`), each optionally followed by a JSON
 * `/{variables}` segment; `/widget/multi/{widgetIds}/recommendations/{profileId}` answers one body per
 * widget. The e-mail forms (`.../photo.png`, `.../redirect.html`) answer an image or a redirect.
 */
import type { ProductView } from './public-apis.js';
import type { ExperimentStamp } from './experiments.js';

/** The query string every JSON form takes. */
export interface RecommendationQueryParams {
  /** JSON object of `$`-variables such as `{"$productId":"42"}`; also accepted as the trailing path segment. */
  variables?: string;
  /** 1 to 100; the widget's `maxResults` when absent. */
  limit?: number;
  /** Give `page` (with `limit`) or `offset`, not both. */
  page?: number;
  offset?: number;
  /** JSON array, or comma list, of product ids to leave out. */
  idsToBan?: string;
  /** Any value but `false` or `0` bypasses the answer cache. */
  nocache?: string;
  /** A json-mask of the body, in the syntax of search's `customResponseMask`. */
  fields?: string;
}

export interface Recommendation {
  id: string;
  /** The strategy that placed the product (`popular`, `similar`...). */
  strategy: string;
  score: number;
  distribution: number;
  product: ProductView;
  /**
   * Only in the admin preview asked with `explain=true`, on items `personalized`'s learned ranking
   * placed: its score (log-odds), each feature's value and contribution, and the blend's rank.
   */
  explanation?: RankingExplanation;
}

export interface RankingExplanation {
  score: number;
  features: Array<{ name: string; value: number; contribution: number }>;
  blendRank?: number;
}

/** `GET /widget/{widgetId}/recommendations[...]`. */
export interface RecommendationResponse {
  /** The recommendation id: `sourceId` of activities, `recommendationId` of click-on-reco. */
  id: string;
  recommendations: Recommendation[];
  pagination: { total: number };
  widget: { title: string; attributes: Record<string, string | number | boolean>; minResults: number };
  /** Only when a running experiment served this response: which one, and the shopper's variant. */
  experiment?: ExperimentStamp;
}

/** `GET /widget/multi/{widgetIds}/recommendations/{profileId}`: one response per widget id, keyed by it. */
export type MultiRecommendationResponse = Record<string, RecommendationResponse>;
