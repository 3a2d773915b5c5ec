/**
 * The learned ranking stage offline, on the evaluation's split and without the server: the training
 * orders go into the same Interactions the server keeps, the item model and the ranker are trained by
 * the worker's own functions, and each held-out customer's next-order new items are scored against the
 * blend's top 10 (EASE + recent popularity, as `personalized` without the ranker) and the ranker's.
 * Minutes instead of the HTTP evaluation's quarter hour, for trying features.
 * Run: `npx tsx eval/offline-ranker.ts`; OFFLINE_SEEDS=13,7,1,2,3 (default; `all`: every held-out order),
 * OFFLINE_EXAMPLES=3000, OFFLINE_VISITS=1, OFFLINE_VALIDATE=1 (the split made again inside the training orders, for tuning),
 * OFFLINE_TREES='[{"depth":3,"rounds":100},{"onLR":true,"rounds":30}]' (gradient-boosted trees, eval/offline-trees.ts, fitted
 * on the regression's examples and scored beside it; `onLR`: on top of the regression's scores),
 * OFFLINE_FM='[{"k":4},{"k":8,"penalty":0.01}]' (factorisation machines on top of the regression, eval/offline-fm.ts).
 */
import { offlineSplit } from './offline-split.js';
import { shuffle } from './seeded-shuffle.js';
import { MINUTE_MS } from '../packages/server/src/domains/recommendations/interactions.js';
import { trainEase } from '../packages/server/src/domains/recommendations/ease.js';
import { DEFAULT_RANKER_OPTIONS, trainRanker } from '../packages/server/src/domains/recommendations/ranker-training.js';
import { DEFAULT_TREE_OPTIONS, fitTrees, treeContributions, treeScore, type TreeOptions } from './offline-trees.js';
import { DEFAULT_FM_OPTIONS, fitFm, fmInteraction, type FmOptions } from './offline-fm.js';
import { LearnedRanker } from '../packages/server/src/domains/recommendations/learned-ranker.js';
import { countEnding, FEATURE_COUNT, familyOf, featuresOf, type CandidateFacts, type ShopperFacts, shopperFacts, titleWords, VISIT_MINUTES } from '../packages/server/src/domains/recommendations/ranker-features.js';

const K = 10;
const { data, byCustomer, heldOut, training, interactions } = await offlineSplit();
const snapshot = interactions.snapshot();
let started = performance.now();
const ease = trainEase({ ...snapshot, itemCount: snapshot.itemIds.length }, { lambda: 300, maxItems: 2500, neighbours: 200, minShoppers: 2 });
console.log(`EASE ${Math.round(performance.now() - started)} ms`);
const endings = new Map<string, number>();
for (const p of data.products.values()) countEnding(endings, p.title);
const familyCodes = new Map<string, number>();
const families = Int32Array.from(snapshot.itemIds, (id) => {
  const family = familyOf(data.products.get(id)?.title, undefined, endings);
  if (family === undefined) return -1;
  if (!familyCodes.has(family)) familyCodes.set(family, familyCodes.size);
  return familyCodes.get(family)!;
});
const prices = Float32Array.from(snapshot.itemIds, (id) => data.products.get(id)?.price ?? 0);
// Title words as numbers, CSR by item, as the server's describeItems gives them.
const vocabulary = new Map<string, number>();
const titleOffsets = new Int32Array(snapshot.itemIds.length + 1);
const titleWordList: number[] = [];
snapshot.itemIds.forEach((id, i) => {
  for (const word of titleWords(data.products.get(id)?.title)) {
    if (!vocabulary.has(word)) vocabulary.set(word, vocabulary.size);
    titleWordList.push(vocabulary.get(word)!);
  }
  titleOffsets[i + 1] = titleWordList.length;
});
const titles = { offsets: titleOffsets, words: Int32Array.from(titleWordList), vocabulary: [...vocabulary.keys()] };
const wordsOf = (item: number) => (item + 1 < titleOffsets.length ? titles.words.subarray(titleOffsets[item]!, titleOffsets[item + 1]!) : undefined);
started = performance.now();
const options = { ...DEFAULT_RANKER_OPTIONS, candidates: Number(process.env.OFFLINE_CANDIDATES ?? DEFAULT_RANKER_OPTIONS.candidates), maxExamples: Number(process.env.OFFLINE_EXAMPLES ?? DEFAULT_RANKER_OPTIONS.maxExamples), visitsPerShopper: Number(process.env.OFFLINE_VISITS ?? DEFAULT_RANKER_OPTIONS.visitsPerShopper), keepExamples: true };
const { ranker, stats, examples } = trainRanker({ ...snapshot, itemCount: snapshot.itemIds.length }, (rows) => trainEase(rows, { lambda: 300, maxItems: 2500, neighbours: 200, minShoppers: 2 }), { families, prices, titles }, options);
console.log(`ranker ${Math.round(performance.now() - started)} ms`, ranker === undefined ? 'none' : { ...ranker, features: undefined, mean: undefined, scale: undefined, coef: Object.fromEntries(ranker.features.map((f, i) => [f, Math.round(ranker.coef[i]! * 1000) / 1000])) });
if (ranker === undefined || examples === undefined) process.exit(0);
const learned = new LearnedRanker({ tenantId: 't', trainedAt: 0, weights: ranker, itemIds: snapshot.itemIds, stats }, interactions.itemIds.length, (id) => interactions.numberOf(id));
const models: Array<{ name: string; score: (candidate: CandidateFacts, shopper: ShopperFacts) => number }> = [{ name: 'LR', score: (c, s) => learned.score(c, s) }];
const vector = new Float64Array(FEATURE_COUNT);
const lrOf = (v: Float64Array) => {
  let s = ranker.bias;
  for (let f = 0; f < FEATURE_COUNT; f++) s += (ranker.coef[f]! * (v[f]! - ranker.mean[f]!)) / ranker.scale[f]!;
  return s;
};
// OFFLINE_TREES: a JSON array of tree settings (each over DEFAULT_TREE_OPTIONS), fitted on the same examples and scored beside the regression.
const treeSettings = (JSON.parse(process.env.OFFLINE_TREES ?? '[]') as Array<Partial<TreeOptions> & { onLR?: boolean }>).map((o) => ({ ...DEFAULT_TREE_OPTIONS, ...o }));
// The regression's log-odds per example row, for trees fitted on top of it (`onLR`).
const lrScores = Float64Array.from({ length: examples.y.length }, (_, r) => lrOf(examples.x.subarray(r * FEATURE_COUNT, (r + 1) * FEATURE_COUNT)));
for (const settings of treeSettings) {
  started = performance.now();
  const trees = fitTrees(examples.x, examples.y, FEATURE_COUNT, settings, examples.groups, settings.onLR === true ? lrScores : undefined);
  const name = JSON.stringify(Object.fromEntries(Object.entries(settings).filter(([k, v]) => (DEFAULT_TREE_OPTIONS as unknown as Record<string, unknown>)[k] !== v)));
  const splits = new Array<number>(FEATURE_COUNT).fill(0);
  for (const t of trees.trees) for (const f of t.feature) if (f >= 0) splits[f]!++;
  // The explanation the admin preview would show (Saabas): the bias and the features' credits add up to the score.
  const credits = new Float64Array(FEATURE_COUNT);
  for (let r = 0; r < Math.min(1000, examples.y.length); r++) {
    const row = examples.x.subarray(r * FEATURE_COUNT, (r + 1) * FEATURE_COUNT);
    const sum = treeContributions(trees, row, credits) + credits.reduce((a, b) => a + b, 0);
    if (Math.abs(sum - treeScore(trees, row)) > 1e-9) throw new Error(`contributions ${sum} do not add up to ${treeScore(trees, row)}`);
  }
  console.log(`trees ${name} ${Math.round(performance.now() - started)} ms; splits per feature ${splits.join(' ')}`);
  models.push({
    name: `trees ${name}`,
    score: (c, s) => {
      featuresOf(c, { ...s, at: Math.max(s.at, stats.at) }, stats, vector);
      return (settings.onLR === true ? lrOf(vector) : 0) + treeScore(trees, vector);
    },
  });
}

// OFFLINE_FM: factorisation machines on top of the regression (its log-odds plus the features' pairwise interactions).
const fmSettings = (JSON.parse(process.env.OFFLINE_FM ?? '[]') as Array<Partial<FmOptions>>).map((o) => ({ ...DEFAULT_FM_OPTIONS, ...o }));
const standardised = (row: ArrayLike<number>, out: Float64Array) => {
  for (let f = 0; f < FEATURE_COUNT; f++) out[f] = (row[f]! - ranker.mean[f]!) / ranker.scale[f]!;
  return out;
};
const zs = fmSettings.length === 0 ? new Float64Array(0) : new Float64Array(examples.x.length);
for (let r = 0; fmSettings.length > 0 && r < examples.y.length; r++) standardised(examples.x.subarray(r * FEATURE_COUNT, (r + 1) * FEATURE_COUNT), zs.subarray(r * FEATURE_COUNT, (r + 1) * FEATURE_COUNT));
for (const settings of fmSettings) {
  started = performance.now();
  const fm = fitFm(zs, examples.y, FEATURE_COUNT, lrScores, settings);
  const name = `fm ${JSON.stringify(settings)}`;
  console.log(`${name} ${Math.round(performance.now() - started)} ms`);
  const z = new Float64Array(FEATURE_COUNT);
  models.push({
    name,
    score: (c, s) => {
      featuresOf(c, { ...s, at: Math.max(s.at, stats.at) }, stats, vector);
      return lrOf(vector) + fmInteraction(fm, standardised(vector, z));
    },
  });
}

// The blend as `personalized` computes it (model rows of the latest 300 items, recent popularity × 0.6).
const rowOf = new Int32Array(interactions.itemIds.length).fill(-1);
ease.rowItems.forEach((item, r) => (rowOf[item] = r));
const now = Math.floor(training.at(-1)!.at / MINUTE_MS);
const popular = interactions.topRecent(300);
function lists(customer: string): { blend: number[]; ranked: number[][]; pool: number[] } {
  const row = interactions.row(customer)!;
  const board = new Map<number, number>();
  const first = Math.max(0, row.items.length - 300);
  for (let k = first; k < row.items.length; k++) {
    const r = rowOf[row.items[k]!]!;
    if (r < 0) continue;
    for (let j = ease.rowOffsets[r]!; j < ease.rowOffsets[r + 1]!; j++) board.set(ease.columns[j]!, (board.get(ease.columns[j]!) ?? 0) + row.weights[k]! * ease.values[j]!);
  }
  const best = Math.max(0, ...board.values());
  const blend = new Map<number, { model: number; score: number }>();
  const weight = best > 0 ? options.popularityWeight : 1;
  if (best > 0) for (const [item, v] of board) blend.set(item, { model: v / best, score: v / best + weight * interactions.recentRatio(item, popular[0]!) });
  for (const item of popular) if (!blend.has(item)) blend.set(item, { model: 0, score: weight * interactions.recentRatio(item, popular[0]!) });
  const bought = new Set(row.items);
  const candidates = [...blend].filter(([item, b]) => b.score > 0 && !bought.has(item)).sort((a, b) => b[1].score - a[1].score || a[0] - b[0]).slice(0, options.candidates);
  let latest = 0;
  for (const m of row.first) latest = Math.max(latest, m);
  const recent = new Map<number, number>();
  for (let k = 0; k < row.items.length; k++) {
    const r = rowOf[row.items[k]!]!;
    if (r < 0 || row.first[k]! < latest - VISIT_MINUTES) continue;
    for (let j = ease.rowOffsets[r]!; j < ease.rowOffsets[r + 1]!; j++) recent.set(ease.columns[j]!, (recent.get(ease.columns[j]!) ?? 0) + row.weights[k]! * ease.values[j]!);
  }
  const recentBest = Math.max(0, ...recent.values());
  const seeds = { count: row.items.length - first, item: (k: number) => row.items[first + k]!, last: (k: number) => row.first[first + k]! };
  const shopper = shopperFacts(seeds, (item) => (families[item] ?? -1) < 0 ? undefined : families[item], (item) => prices[item] ?? 0, now, wordsOf);
  const ranked = models.map(({ score }) => {
    const scored = candidates.map(([item, b], rank) => ({ item, s: score({ rank, model: b.model, lastVisit: recentBest > 0 ? (recent.get(item) ?? 0) / recentBest : 0, item, family: (families[item] ?? -1) < 0 ? undefined : families[item], price: prices[item] ?? 0, words: wordsOf(item) }, shopper) }));
    scored.sort((a, b) => b.s - a.s || a.item - b.item);
    return scored.slice(0, K).map((c) => c.item);
  });
  return { blend: candidates.slice(0, K).map(([item]) => item), ranked, pool: candidates.map(([item]) => item) };
}

// `all` scores every held-out order (with OFFLINE_VALIDATE=1: the validation split's).
for (const seed of String(process.env.OFFLINE_SEEDS ?? (Number(process.env.OFFLINE_VALIDATE ?? 0) > 0 ? 'all' : '13,7,1,2,3')).split(',')) {
  const sample = seed === 'all' ? [...heldOut] : shuffle([...heldOut], Number(seed)).slice(0, 600);
  let cases = 0;
  let blendHits = 0;
  const rankedHits = models.map(() => 0);
  let poolHits = 0;
  for (const order of sample) {
    const before = new Set(byCustomer.get(order.customer)!.filter((o) => o !== order).flatMap((o) => o.items));
    const fresh = new Set(order.items.filter((i) => !before.has(i)).map((i) => interactions.numberOf(i) ?? -1));
    if (fresh.size === 0) continue;
    cases++;
    const { blend, ranked, pool } = lists(order.customer);
    if (pool.some((i) => fresh.has(i))) poolHits++;
    if (blend.some((i) => fresh.has(i))) blendHits++;
    ranked.forEach((list, m) => (rankedHits[m]! += list.some((i) => fresh.has(i)) ? 1 : 0));
  }
  console.log(`seed ${seed}: ${cases} cases, blend HR@10 ${(blendHits / cases).toFixed(3)}, any candidate ${(poolHits / cases).toFixed(3)}`);
  models.forEach((m, k) => console.log(`  ${m.name}: ${(rankedHits[k]! / cases).toFixed(3)} (${rankedHits[k]} hits)`));
}
