/**
 * The shopper's own interests: the facet values (category, brand, colour: the attributes a
 * configuration names) of the products they viewed, carted and bought lately, decayed, lift the
 * matches that share them, among comparably relevant items only. A known shopper is named by the
 * request's `context.session` (the published client's shape; the toolkit sends its cookie's profile
 * id the same way); an anonymous shopper, or one without history, gets the order everyone gets.
 */
import { DAY_MS } from '../../../platform/clock.js';
import type { SearchConfiguration } from '../../../platform/config/schema.js';
import { fold } from '../index/analyzer.js';
import type { SearchIndex } from '../index/search-index.js';
import { PERSONAL_SHARE } from '../scoring.js';

/** One product activity of the shopper's, newest first (tracking's in-memory history). */
export interface ShopperEvent {
  itemId: string;
  verb: string;
  receivedAt: number;
}

/** The newest activities read: a shopper's recent interests, at a bounded cost per search. */
export const EVENTS_READ = 100;
const WEIGHT: Readonly<Record<string, number>> = { view: 1, click: 1, 'add-to-cart': 2, purchase: 4, buy: 4 };

/** The attributes whose values make affinities: the configuration's own, else its value facets'. */
export function affinityAttributes(config: SearchConfiguration): string[] {
  const named = config.personalization.attributes;
  return named.length > 0 ? named : config.facets.filter((facet) => facet.type === 'value').map((facet) => facet.attribute);
}

/** Per attribute, each folded value's affinity from 0 to 1 (1: the shopper's strongest in that attribute). */
export type Affinities = Map<string, Map<string, number>>;

export function affinitiesOf(index: SearchIndex, events: readonly ShopperEvent[], attributes: readonly string[], halfLifeDays: number, now: number): Affinities {
  const out: Affinities = new Map(attributes.map((attribute) => [attribute, new Map<string, number>()]));
  for (const event of events.slice(0, EVENTS_READ)) {
    const weight = WEIGHT[event.verb];
    const doc = index.docOf(event.itemId);
    if (weight === undefined || doc === undefined) continue;
    const item = index.docs[doc]!.item;
    const value = weight * 0.5 ** (Math.max(0, now - event.receivedAt) / DAY_MS / halfLifeDays);
    for (const attribute of attributes) {
      const values = out.get(attribute)!;
      for (const v of valuesOf(item.attributes[attribute])) values.set(v, (values.get(v) ?? 0) + value);
    }
  }
  for (const [attribute, values] of out) {
    const strongest = Math.max(0, ...values.values());
    if (strongest === 0) out.delete(attribute);
    else for (const [v, weight] of values) values.set(v, weight / strongest);
  }
  return out;
}

/** Adds each match's affinity (the mean over attributes of its best value's) times the impact's share of the top score; the matches moved. */
export function applyAffinities(index: SearchIndex, affinities: Affinities, impact: number, docs: Int32Array, scores: Float32Array, length: number): number {
  if (affinities.size === 0 || impact <= 0) return 0;
  let top = 0;
  for (let i = 0; i < length; i++) if (scores[i]! > top) top = scores[i]!;
  if (top <= 0) top = 1;
  const gain = (impact / 100) * PERSONAL_SHARE * top;
  const columns = [...affinities].map(([attribute, values]) => ({ column: index.values(attribute), values }));
  // A catalog repeats its few category and brand values: each is folded once per search.
  const folded = new Map<string, string>();
  const foldOnce = (value: string): string => {
    let out = folded.get(value);
    if (out === undefined) folded.set(value, (out = fold(value)));
    return out;
  };
  let moved = 0;
  for (let i = 0; i < length; i++) {
    let sum = 0;
    for (const { column, values } of columns) {
      let best = 0;
      for (const value of column[docs[i]!] ?? []) if (typeof value === 'string') best = Math.max(best, values.get(foldOnce(value)) ?? 0);
      sum += best;
    }
    if (sum === 0) continue;
    scores[i] = scores[i]! + (gain * sum) / columns.length;
    moved++;
  }
  return moved;
}

function valuesOf(value: unknown): string[] {
  if (typeof value === 'string') return [fold(value)];
  if (Array.isArray(value)) return value.flatMap(valuesOf);
  return [];
}
