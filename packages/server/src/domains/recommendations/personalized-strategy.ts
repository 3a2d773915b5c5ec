/**
 * `personalized`: the shopper's live row of touched items (purchases weigh most) through the trained
 * item-to-item weights, plus co-occurrence for items the model does not cover (new or rare ones, or
 * everything before the first training), blended with recent popularity. A shopper with no history
 * gets recent popularity alone. Whether bought items are left out is the engine's call (per widget).
 */
import type { Candidate, Strategy, StrategyInput } from './strategy-input.js';
import { ScoreBoard } from './item-model.js';

/** The latest touched items that feed the model: bounds the work per request. */
const MAX_SEEDS = 300;
/** Seeds outside the model that are looked up in co-occurrence (each costs a sort of its pairs). */
const MAX_TAIL_SEEDS = 20;
/** Items of recent popularity considered for the blend. */
const POPULAR_POOL = 300;
export const DEFAULT_POPULARITY_WEIGHT = 0.3;

/** Weight of the co-occurrence scores of seeds outside the model, against the model's (each normalised to 1). */
const TAIL_WEIGHT = 0.3;

/** Score boards are reused across requests (no catalog-sized allocation per call), one pair per tenant's interactions. */
type Boards = WeakMap<object, { model: ScoreBoard; tail: ScoreBoard }>;

export function createPersonalized(): Strategy {
  const boards: Boards = new WeakMap();
  return (input) => personalized(input, boards);
}

function personalized(input: StrategyInput, boards: Boards): Candidate[] {
  const { activities, aggregates, tenantId } = input;
  const interactions = aggregates.interactions(tenantId);
  const popularityWeight = input.widget?.popularityWeight ?? DEFAULT_POPULARITY_WEIGHT;
  const profileId = input.profileId === undefined ? undefined : activities.canonicalProfileId(tenantId, input.profileId);
  const row = profileId === undefined ? undefined : interactions.row(profileId);
  let pair = boards.get(interactions);
  if (pair === undefined) boards.set(interactions, (pair = { model: new ScoreBoard(), tail: new ScoreBoard() }));
  const { model: board, tail: tailBoard } = pair;
  board.clear();
  tailBoard.clear();

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
  const scores = new Map<number, number>();
  addNormalised(board, 1, scores);
  addNormalised(tailBoard, scores.size === 0 ? 1 : TAIL_WEIGHT, scores);
  const popular = interactions.topRecent(POPULAR_POOL);
  if (popular.length > 0) {
    // Only the model's own candidates get the blend, plus the popular pool: a shopper with history sees their neighbourhood first.
    const weight = scores.size === 0 ? 1 : popularityWeight;
    for (const item of [...scores.keys(), ...popular]) {
      scores.set(item, (scores.get(item) ?? 0) + weight * interactions.recentRatio(item, popular[0]!));
    }
  }
  // Items the model and popularity together score at or below 0 are no recommendation (and not worth sorting).
  const candidates: Candidate[] = [];
  for (const [item, score] of scores) if (score > 0) candidates.push({ itemId: interactions.itemIds[item]!, score });
  return candidates.sort((a, b) => b.score - a.score || a.itemId.localeCompare(b.itemId));
}

/** Scaled so the best is `weight`; negative sums (the model's weights may be negative) stay, and lower an item the popularity blend would lift. */
function addNormalised(board: ScoreBoard, weight: number, scores: Map<number, number>): void {
  let best = 0;
  for (const item of board.items()) best = Math.max(best, board.get(item));
  if (best <= 0) return;
  for (const item of board.items()) scores.set(item, (scores.get(item) ?? 0) + (weight * board.get(item)) / best);
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
