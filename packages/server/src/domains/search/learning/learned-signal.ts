/**
 * The learned signal in the search pipeline: after text relevance and the boost/bury tiers, before
 * pins. Each learned item's score gains its lift times the best text score among the matches, so a
 * lift of 1 ranks an item level with the best text match, and a query nobody acted on costs one map
 * lookup. It reorders only what the query (or a browse request's filters) matched: nothing is added.
 */
import type { SearchConfiguration } from '../../../platform/config/schema.js';
import type { SearchIndex } from '../index/search-index.js';
import { browseKey, textKey } from './query-key.js';
import type { LearningSettings } from './learned-order.js';

/** Where the pipeline reads learned lifts and the products a query leads to (search-learning.ts). */
export interface LearnedSource {
  lifts(tenantId: string, key: string, settings: LearningSettings, since?: number): ReadonlyMap<string, number> | undefined;
  leads(tenantId: string, key: string, settings: LearningSettings, since?: number, clicks?: boolean): ReadonlyMap<string, number> | undefined;
}

/** The key a search is learned under: its text as analysed (with the engine's correction), or its browse selections. */
export function learningKeyOf(config: SearchConfiguration, query: string, request: { facets: readonly { id: string; values: readonly string[] }[]; filter: string | undefined }): string {
  return query === '' ? browseKey(request.facets, request.filter) : textKey(query, config.language);
}

/** When `key` was last reset in `config` (ms), or 0: votes received before are not used. */
export function resetOf(config: SearchConfiguration, key: string): number {
  let resets = resetKeys.get(config);
  if (resets === undefined) resetKeys.set(config, (resets = new Map(config.learning.resets.map((reset) => [reset.key, reset.at]))));
  return resets.get(key) ?? 0;
}

/** Reset times per configuration object (configurations are replaced, never modified, so the memo stays right). */
const resetKeys = new WeakMap<SearchConfiguration, Map<string, number>>();

/** A lift per document slot, zero except while one search applies its lifts (one per index, reused). */
const scratchOf = new WeakMap<SearchIndex, Float32Array>();

/** Adds the learned lifts to the scores of the first `length` matches; the number of matches moved. */
export function applyLifts(index: SearchIndex, lifts: ReadonlyMap<string, number>, docs: Int32Array, scores: Float32Array, length: number): number {
  let scratch = scratchOf.get(index);
  if (scratch === undefined || scratch.length < index.docs.length) scratchOf.set(index, (scratch = new Float32Array(Math.max(index.docs.length, 16))));
  const touched: number[] = [];
  for (const [id, lift] of lifts) {
    const doc = index.docOf(id);
    if (doc === undefined) continue;
    scratch[doc] = lift;
    touched.push(doc);
  }
  let top = 0;
  for (let i = 0; i < length; i++) if (scores[i]! > top) top = scores[i]!;
  // A browse request's matches all score 0: a lift then counts on its own.
  if (top <= 0) top = 1;
  let moved = 0;
  for (let i = 0; i < length; i++) {
    const lift = scratch[docs[i]!]!;
    if (lift === 0) continue;
    scores[i] = scores[i]! + lift * top;
    moved++;
  }
  for (const doc of touched) scratch[doc] = 0;
  return moved;
}

/**
 * Adds the products a query leads to (query-leads.ts) that it did not match to the match arrays, each
 * scored its lift times the best text score (as `applyLifts` lifts a match); filters and facets then
 * apply to them as to any match. Returns the new arrays and the documents that joined.
 */
export function joinLeads(index: SearchIndex, leads: ReadonlyMap<string, number>, docs: Int32Array, scores: Float32Array, length: number): { docs: Int32Array; scores: Float32Array; length: number; joined: ReadonlySet<number> } {
  const wanted = new Map<number, number>();
  for (const [id, lift] of leads) {
    const doc = index.docOf(id);
    if (doc !== undefined && lift > 0) wanted.set(doc, lift);
  }
  let top = 0;
  for (let i = 0; i < length; i++) {
    if (scores[i]! > top) top = scores[i]!;
    // Matched already: the learned order moves it, it does not join.
    wanted.delete(docs[i]!);
  }
  if (wanted.size === 0) return { docs, scores, length, joined: new Set() };
  if (top <= 0) top = 1;
  const outDocs = new Int32Array(length + wanted.size);
  const outScores = new Float32Array(length + wanted.size);
  outDocs.set(docs.subarray(0, length));
  outScores.set(scores.subarray(0, length));
  let n = length;
  for (const [doc, lift] of wanted) {
    outDocs[n] = doc;
    outScores[n] = lift * top;
    n++;
  }
  return { docs: outDocs, scores: outScores, length: n, joined: new Set(wanted.keys()) };
}
