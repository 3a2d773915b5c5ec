/**
 * `personalized`'s last step when a learned ranking stage is trained (and not switched off): the blend's
 * best candidates, the shopper's bought items left out as in training, are ordered by the ranker's
 * score; the rest follow in the blend's order, below them. With `explain`, each ranked candidate carries
 * its features and their contributions.
 */
import type { Candidate } from './strategy-input.js';
import type { CatalogIndex } from './catalog-index.js';
import type { Interactions, RowView } from './interactions.js';
import { BOUGHT } from './interactions.js';
import type { LearnedRanker } from './learned-ranker.js';
import { shopperFacts, VISIT_MINUTES } from './ranker-features.js';
import type { ItemModel } from './item-model.js';
import { DEFAULT_RANKER_OPTIONS } from './ranker-training.js';

/** The latest history items the shopper's facts read, as the model's seeds. */
const SEEDS = 300;

export interface BlendScores {
  items: readonly number[];
  scores: readonly number[];
  /** The model's share of an item's blend score, scaled so the best is 1 (0: none). */
  model: (item: number) => number;
}

export function* learnedOrder(
  ranker: LearnedRanker,
  model: ItemModel | undefined,
  blend: BlendScores,
  row: RowView,
  interactions: Interactions,
  index: CatalogIndex,
  explain: boolean,
  threshold: (k: number) => number,
): Generator<Candidate> {
  const bought = new Set<number>();
  for (let k = 0; k < row.items.length; k++) if (row.weights[k]! >= BOUGHT) bought.add(row.items[k]!);
  // Only the best (candidates + bought) are sorted: a shopper's neighbourhood holds thousands of items.
  const floor = threshold(DEFAULT_RANKER_OPTIONS.candidates + bought.size);
  const byBlend = (a: number, b: number) => blend.scores[b]! - blend.scores[a]! || blend.items[a]! - blend.items[b]!;
  const order: number[] = [];
  for (let k = 0; k < blend.items.length; k++) if (blend.scores[k]! >= floor && !bought.has(blend.items[k]!)) order.push(k);
  order.sort(byBlend);
  const head = order.slice(0, DEFAULT_RANKER_OPTIONS.candidates);
  const entryOf = (item: number) => index.byId.get(interactions.itemIds[item]!);
  const first = Math.max(0, row.items.length - SEEDS);
  const shopper = shopperFacts(
    { count: row.items.length - first, item: (k) => row.items[first + k]!, last: (k) => row.first[first + k]! },
    (item) => entryOf(item)?.family,
    (item) => entryOf(item)?.price ?? 0,
    0,
    (item) => ranker.wordsOf(entryOf(item)?.words),
  );
  const lastVisit = lastVisitScores(model, row);
  const ranked = head.map((k, rank) => {
    const item = blend.items[k]!;
    const entry = entryOf(item);
    const facts = { rank, model: blend.model(item), lastVisit: lastVisit(item), item, family: entry?.family, price: entry?.price ?? 0, words: ranker.wordsOf(entry?.words) };
    const score = ranker.score(facts, shopper);
    return { item, score, explanation: explain ? { ...ranker.explain(facts, shopper), blendRank: rank + 1 } : undefined };
  });
  ranked.sort((a, b) => b.score - a.score || a.item - b.item);
  let last = 1;
  for (const r of ranked) {
    last = 1 / (1 + Math.exp(-r.score));
    yield { itemId: interactions.itemIds[r.item]!, score: last, ...(r.explanation === undefined ? {} : { explanation: r.explanation }) };
  }
  // The rest (only if the engine reads on) keep the blend's order, scaled under the last ranked candidate.
  const inHead = new Set(head);
  const rest: number[] = [];
  for (let k = 0; k < blend.items.length; k++) if (!inHead.has(k) && !bought.has(blend.items[k]!)) rest.push(k);
  rest.sort(byBlend);
  const top = rest.length === 0 ? 1 : blend.scores[rest[0]!]!;
  for (const k of rest) yield { itemId: interactions.itemIds[blend.items[k]!]!, score: (last * blend.scores[k]!) / top / 2 };
}

/** The model's scores from the items of the shopper's last visit alone, scaled so the best is 1. */
function lastVisitScores(model: ItemModel | undefined, row: RowView): (item: number) => number {
  if (model === undefined || row.items.length === 0) return () => 0;
  let latest = 0;
  for (let k = 0; k < row.first.length; k++) latest = Math.max(latest, row.first[k]!);
  const scores = new Map<number, number>();
  const board = { add: (item: number, value: number) => scores.set(item, (scores.get(item) ?? 0) + value) };
  for (let k = 0; k < row.items.length; k++) if (row.first[k]! >= latest - VISIT_MINUTES) model.accumulate(row.items[k]!, row.weights[k]!, board);
  let best = 0;
  for (const v of scores.values()) best = Math.max(best, v);
  return (item) => (best > 0 ? (scores.get(item) ?? 0) / best : 0);
}
