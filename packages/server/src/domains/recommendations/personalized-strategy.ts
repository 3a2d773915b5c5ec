/**
 * `personalized`: the shopper's live row of touched items (purchases weigh most) through the trained
 * item-to-item weights, plus co-occurrence for items the model does not cover (new or rare ones, or
 * everything before the first training), blended with recent popularity. A shopper with no history
 * gets recent popularity alone. A brand-new visitor's first view already makes a row, so their first page
 * is seeded by the session; what they looked at in their latest visit and did not buy is left out (it is
 * on `recently-viewed`; here it took the slots of what goes with it). Whether bought items are left out
 * is the engine's call (per widget).
 */
import type { Candidate, Strategy, StrategyInput } from './strategy-input.js';
import { kthLargest } from './top-k.js';
import { ScoreBoard } from './item-model.js';
import { learnedOrder } from './learned-stage.js';
import { MINUTE_MS, type RowView } from './interactions.js';
import { VISIT_GAP_MS } from './co-occurrence.js';

/** The latest touched items that feed the model: bounds the work per request. */
const MAX_SEEDS = 300;
/** Seeds outside the model that are looked up in co-occurrence (each costs a sort of its pairs). */
const MAX_TAIL_SEEDS = 20;
/** Items of recent popularity considered for the blend. */
const POPULAR_POOL = 300;
export const DEFAULT_POPULARITY_WEIGHT = 0.6;

/** Weight of the co-occurrence scores of seeds outside the model, against the model's (each normalised to 1). */
const TAIL_WEIGHT = 0.3;

/** Score boards are reused across requests (no catalog-sized allocation per call), one set per tenant's interactions. */
type Boards = WeakMap<object, { model: ScoreBoard; tail: ScoreBoard; total: ScoreBoard; selection: { values: Float64Array } }>;

export function createPersonalized(): Strategy {
  const boards: Boards = new WeakMap();
  return (input) => personalized(input, boards);
}

function personalized(input: StrategyInput, boards: Boards): Iterable<Candidate> {
  const { activities, aggregates, tenantId } = input;
  const interactions = aggregates.interactions(tenantId);
  const popularityWeight = input.widget?.popularityWeight ?? DEFAULT_POPULARITY_WEIGHT;
  const profileId = input.profileId === undefined ? undefined : activities.canonicalProfileId(tenantId, input.profileId);
  const row = profileId === undefined ? undefined : interactions.row(profileId);
  let set = boards.get(interactions);
  if (set === undefined) boards.set(interactions, (set = { model: new ScoreBoard(), tail: new ScoreBoard(), total: new ScoreBoard(), selection: { values: new Float64Array(1024) } }));
  const { model: board, tail: tailBoard, total } = set;
  board.clear();
  tailBoard.clear();
  total.clear();

  if (row !== undefined) {
    const first = Math.max(0, row.items.length - MAX_SEEDS);
    let tail = 0;
    for (let i = row.items.length - 1; i >= first; i--) {
      const item = row.items[i]!;
      const weight = row.weights[i]!;
      if (input.model?.covers(item)) {
        input.model.accumulate(item, weight, board);
        continue;
      }
      if (tail++ >= MAX_TAIL_SEEDS) continue;
      addCoOccurring(input, interactions.itemIds[item]!, weight, tailBoard, (id) => interactions.numberOf(id));
    }
  }
  addNormalised(board, 1, total);
  addNormalised(tailBoard, total.items().length === 0 ? 1 : TAIL_WEIGHT, total);
  const popular = interactions.topRecent(POPULAR_POOL);
  if (popular.length > 0) {
    // Only the model's own candidates get the blend, plus the popular pool: a shopper with history sees their neighbourhood first.
    const scored = total.items().length;
    const weight = scored === 0 ? 1 : popularityWeight;
    for (let k = 0; k < scored; k++) {
      const item = total.items()[k]!;
      total.add(item, weight * interactions.recentRatio(item, popular[0]!));
    }
    // A popular item the model scored already has its share of the blend (board scores are never 0).
    for (const item of popular) if (total.get(item) === 0) total.add(item, weight * interactions.recentRatio(item, popular[0]!));
  }
  // Items the model and popularity together score at or below 0 are no recommendation (and not worth
  // sorting); the board keeps a sum of exactly 0 as the smallest double, which is no score either.
  const items: number[] = [];
  const scores: number[] = [];
  const justSeen = row === undefined ? undefined : latestVisitLooks(row);
  for (const item of total.items()) {
    const score = total.get(item);
    if (score <= Number.MIN_VALUE || justSeen?.has(item) === true) continue;
    items.push(item);
    scores.push(score);
  }
  if (input.ranker !== undefined && row !== undefined && input.widget?.learnedRanking !== false) {
    let best = 0;
    for (const item of board.items()) best = Math.max(best, board.get(item));
    const model = (item: number) => (best > 0 ? board.get(item) / best : 0);
    return learnedOrder(input.ranker, input.model, { items, scores, model }, row, interactions, input.index, input.explain === true, (k) => thresholdOf(scores, k, set.selection));
  }
  const first = input.want * 4;
  return bestFirst(items, scores, (item) => interactions.itemIds[item]!, thresholdOf(scores, first, set.selection));
}

/**
 * Items of the row last touched in the shopper's latest visit (within 30 minutes of their newest touch,
 * the visit gap of also-viewed) and never bought: looked at, put in a cart, liked.
 */
function latestVisitLooks(row: RowView): Set<number> {
  let newest = -Infinity;
  for (let i = 0; i < row.last.length; i++) newest = Math.max(newest, row.last[i]!);
  const out = new Set<number>();
  for (let i = 0; i < row.items.length; i++) {
    if (row.buys[i]! === 0 && (newest - row.last[i]!) * MINUTE_MS < VISIT_GAP_MS) out.add(row.items[i]!);
  }
  return out;
}

/**
 * The score of the `first`-th best item (-Infinity when there are no more than `first`), selected in a
 * reused buffer: a fresh typed array per request is memory outside the heap that the collector counts
 * towards its next full collection.
 */
function thresholdOf(scores: readonly number[], first: number, selection: { values: Float64Array }): number {
  if (scores.length <= first) return -Infinity;
  if (selection.values.length < scores.length) selection.values = new Float64Array(scores.length * 2);
  for (let k = 0; k < scores.length; k++) selection.values[k] = scores[k]!;
  return kthLargest(selection.values, scores.length, first);
}

/**
 * The items best first (equal scores by id), sorting only those at or above `threshold` (the best `first`, see thresholdOf) unless the reader goes on:
 * a shopper's neighbourhood holds thousands of items, and sorting (and making a candidate of) every one
 * of them on each request made most of this strategy's garbage and its p99. Owns its arrays, so the
 * score boards can be reused while it is read.
 */
function* bestFirst(items: readonly number[], scores: readonly number[], idOf: (item: number) => string, threshold: number): Generator<Candidate> {
  const order = (a: number, b: number) => scores[b]! - scores[a]! || idOf(items[a]!).localeCompare(idOf(items[b]!));
  const head: number[] = [];
  for (let k = 0; k < scores.length; k++) if (scores[k]! >= threshold) head.push(k);
  for (const k of head.sort(order)) yield { itemId: idOf(items[k]!), score: scores[k]! };
  if (threshold === -Infinity) return;
  const rest: number[] = [];
  for (let k = 0; k < scores.length; k++) if (scores[k]! < threshold) rest.push(k);
  for (const k of rest.sort(order)) yield { itemId: idOf(items[k]!), score: scores[k]! };
}

/** Scaled so the best is `weight`; negative sums (the model's weights may be negative) stay, and lower an item the popularity blend would lift. */
function addNormalised(board: ScoreBoard, weight: number, scores: ScoreBoard): void {
  let best = 0;
  for (const item of board.items()) best = Math.max(best, board.get(item));
  if (best <= 0) return;
  for (const item of board.items()) scores.add(item, (weight * board.get(item)) / best);
}

/** Co-occurrence in orders (twice) and visits, normalised per seed so a busy seed does not drown the others. */
function addCoOccurring(input: StrategyInput, seed: string, weight: number, board: ScoreBoard, numberOf: (id: string) => number | undefined): void {
  for (const kind of ['order', 'visit'] as const) {
    const related = input.aggregates.coOccurring(input.tenantId, seed, kind, 50);
    const top = related[0]?.count ?? 0;
    if (top === 0) continue;
    const share = kind === 'order' ? 2 / 3 : 1 / 3;
    for (const r of related) {
      const n = numberOf(r.itemId);
      if (n !== undefined) board.add(n, (weight * share * r.count) / top);
    }
  }
}
