/** The widget call of `<discovery-recommendations>`: its URL from the element's inputs, and its answer read defensively. */
import type { Recommendation, RecommendationResponse } from '@discovery-kit/protocol';
import { asArray, asText, asWire } from '../api.js';
import { apiUrl } from '../config.js';
import { toProductCard } from '../product-card.js';
import type { ProductCard } from '../product-card.js';

export interface RecommendationsInput {
  apiBase?: string | null;
  widgetId: string;
  /** One product id, or several joined by commas (sent as an array). */
  productId?: string | null;
  category?: string | null;
  limit?: number | null;
  /** The shopper's profile id from the tracker's cookie; anonymous when absent. */
  profileId?: string;
  /** Products to leave out: those other widgets on the page already show. */
  idsToBan?: readonly string[];
  /** The page's language (`lang`): a shop with translations answers in it. */
  lang?: string;
}

export interface RecommendedCard extends ProductCard {
  recommendationId: string;
}

export interface RecommendationsAnswer {
  id: string;
  title: string;
  minResults: number;
  cards: RecommendedCard[];
}

export function recommendationsUrl(input: RecommendationsInput): string {
  let path = `/widget/${encodeURIComponent(input.widgetId)}/recommendations`;
  if (input.profileId) path += `/${encodeURIComponent(input.profileId)}`;
  const variables: Record<string, string | string[]> = {};
  const ids = (input.productId ?? '').split(',').map((id) => id.trim()).filter(Boolean);
  if (ids.length > 0) variables.$productId = ids.length === 1 ? ids[0]! : ids;
  if (input.category) variables.$category = input.category;
  const query = new URLSearchParams();
  if (Object.keys(variables).length > 0) query.set('variables', JSON.stringify(variables));
  if (input.limit && input.limit > 0) query.set('limit', String(Math.floor(input.limit)));
  if (input.idsToBan && input.idsToBan.length > 0) query.set('idsToBan', JSON.stringify(input.idsToBan));
  if (input.lang) query.set('lang', input.lang);
  const search = query.toString();
  return apiUrl(input.apiBase, search ? `${path}?${search}` : path);
}

export function readRecommendations(body: unknown): RecommendationsAnswer {
  const answer = asWire<RecommendationResponse>(body);
  const widget = asWire<RecommendationResponse['widget']>(answer.widget);
  const cards: RecommendedCard[] = [];
  for (const entry of asArray(answer.recommendations)) {
    const recommendation = asWire<Recommendation>(entry);
    const card = toProductCard(recommendation.product);
    if (card) cards.push({ ...card, recommendationId: asText(recommendation.id) });
  }
  const minResults = typeof widget.minResults === 'number' ? widget.minResults : 0;
  return { id: asText(answer.id), title: asText(widget.title), minResults, cards };
}
