/**
 * The learned ranking stage's features, computed by the same code when the worker builds training
 * examples (a shopper's history before their latest visit, items as they stood then) and when a request
 * ranks its candidates (the shopper's live history, items as of the last training). Each feature is
 * scaled to a few units so that one logistic regression weighs them; names are what the admin preview
 * shows beside each contribution.
 */

export const RANKER_FEATURES = [
  'blend rank',
  'model score',
  'model covers',
  'recent popularity',
  'popularity (60 days)',
  'shoppers',
  'item age',
  'family touches',
  'family recency',
  'price distance',
  'price ratio',
  'model × history',
  'popularity × history',
  'model × popularity',
  'popularity when last active',
  'model score, last visit',
  'new since last visit',
  'popularity × absence',
  'model × absence',
  'popularity when last active × absence',
  'buyer depth',
  'buyer depth gap',
  'title words',
] as const;
export const FEATURE_COUNT = RANKER_FEATURES.length;

/** Half-lives of the two item popularities (days): what sells this fortnight, and this season. */
export const SHORT_HALF_LIFE_DAYS = 10;
export const LONG_HALF_LIFE_DAYS = 60;
const MINUTES_PER_DAY = 1440;
/** Family contact older than this many days counts half as much. */
const FAMILY_HALF_LIFE_DAYS = 30;
/** Weeks of the item's weekly touches counted around the shopper's last activity lose half per this many weeks away. */
const ERA_HALF_LIFE_WEEKS = 2;
export const WEEK_MINUTES = 7 * 1440;
/** A log2 popularity ratio below this is as good as none. */
const RATIO_FLOOR = -20;

/**
 * Per item: log2 of the recency-weighted shoppers who touched it (weighted by touch, each shopper's
 * first touch; relative to one fixed reference minute, so only differences mean anything), how many
 * shoppers, and the minute it was first touched (0: never).
 */
export interface ItemStats {
  short: Float32Array;
  long: Float32Array;
  shoppers: Float32Array;
  born: Int32Array;
  /** Largest `short`, `long` and `shoppers`: the features are ratios to them. */
  maxShort: number;
  maxLong: number;
  maxShoppers: number;
  /** The minute the stats stand at. */
  at: number;
  /**
   * Per item, the weeks (minute / WEEK_MINUTES) in which shoppers first touched it and how many (CSR by
   * item number), and the touches of all items per week: what was popular when a shopper was last active.
   */
  weekOffsets: Int32Array;
  weeks: Int32Array;
  weekCounts: Float32Array;
  /** Week number → all first touches that week. */
  weekTotals: Map<number, number>;
  /**
   * Per item, the shoppers who bought it and the sum of their log1p(items in their history): items
   * bought by shoppers of long histories (wholesalers' staples) are not those shoppers of short ones
   * take up next, and the other way round.
   */
  buyers: Float32Array;
  buyerDepth: Float32Array;
  /** Title words (titleWords) and each one's inverse document frequency over the items' titles. */
  vocabulary: string[];
  idf: Float32Array;
}

/** What a shopper's history says, for every candidate of one request (or one training example). */
export interface ShopperFacts {
  historyLength: number;
  /** Family key → how many history items belong to it, and the latest minute one was touched. */
  familyTouches: Map<number | string, number>;
  familyLast: Map<number | string, number>;
  /** Median price of the history's priced items (NaN: none known). */
  medianPrice: number;
  at: number;
  /** The minute of the shopper's latest first touch (0: none). */
  lastActive: number;
  /** All items' touches around `lastActive`, once worked out for the first candidate (the same for every one). */
  eraTouches?: number;
  /** Word number (in `ItemStats.vocabulary`) → history items whose title holds it. */
  words: Map<number, number>;
}

export interface CandidateFacts {
  /** Position in the blend's order (0 = first). */
  rank: number;
  /** The model's score scaled so the best candidate's is 1 (0: the model says nothing). */
  model: number;
  /** Item number in `stats` (-1: unknown). */
  item: number;
  family: number | string | undefined;
  /** NaN when unknown. */
  price: number;
  /** The model's score from the shopper's last visit alone, scaled so the best candidate's is 1 (0: none). */
  lastVisit: number;
  /** Training only: the week this shopper first touched the candidate, whose touch is not counted as others' popularity. */
  ownWeek?: number;
  /** Word numbers of its title (in `ItemStats.vocabulary`; words not in it left out). */
  words?: ArrayLike<number>;
}

/** Fills `out` (FEATURE_COUNT numbers) for one candidate. */
export function featuresOf(candidate: CandidateFacts, shopper: ShopperFacts, stats: ItemStats, out: Float64Array): void {
  const i = candidate.item;
  const known = i >= 0 && i < stats.born.length && stats.born[i]! > 0;
  const short = known ? ratio(stats.short[i]!, stats.maxShort) : 0;
  const long = known ? ratio(stats.long[i]!, stats.maxLong) : 0;
  const shoppers = known ? Math.log1p(stats.shoppers[i]!) / Math.log1p(Math.max(stats.maxShoppers, 1)) : 0;
  const ageDays = known ? Math.max(0, shopper.at - stats.born[i]!) / MINUTES_PER_DAY : 0;
  const history = Math.log1p(shopper.historyLength) / Math.log1p(300);
  const family = candidate.family === undefined ? 0 : (shopper.familyTouches.get(candidate.family) ?? 0);
  const familyLast = candidate.family === undefined ? undefined : shopper.familyLast.get(candidate.family);
  const priceRatio = candidate.price > 0 && shopper.medianPrice > 0 ? Math.max(-3, Math.min(3, Math.log(candidate.price / shopper.medianPrice))) : 0;
  out[0] = 1 / Math.log2(candidate.rank + 2);
  out[1] = candidate.model;
  out[2] = candidate.model === 0 ? 0 : 1;
  out[3] = short;
  out[4] = long;
  out[5] = shoppers;
  out[6] = Math.log1p(ageDays) / Math.log1p(365);
  out[7] = Math.log1p(family);
  out[8] = familyLast === undefined ? 0 : 2 ** (-Math.max(0, shopper.at - familyLast) / MINUTES_PER_DAY / FAMILY_HALF_LIFE_DAYS);
  out[9] = Math.abs(priceRatio);
  out[10] = priceRatio;
  out[11] = candidate.model * history;
  out[12] = short * history;
  out[13] = candidate.model * short;
  out[14] = known ? eraShare(i, shopper, stats, candidate.ownWeek) : 0;
  out[15] = candidate.lastVisit;
  // A shopper back after a long absence: what is new and in demand now counts more than what went with their old items.
  const absence = shopper.lastActive > 0 ? Math.log1p(Math.max(0, shopper.at - shopper.lastActive) / MINUTES_PER_DAY) / Math.log1p(365) : 0;
  out[16] = known && shopper.lastActive > 0 && stats.born[i]! > shopper.lastActive ? 1 : 0;
  out[17] = short * absence;
  out[18] = candidate.model * absence;
  out[19] = out[14] * absence;
  // Who buys it: the mean history length of its buyers (in training, those who had bought it by the example's cut), and how far that is from this shopper's.
  const buyers = known ? stats.buyers[i]! : 0;
  const depth = buyers > 0 ? stats.buyerDepth[i]! / buyers / Math.log1p(300) : 0;
  out[20] = depth;
  out[21] = buyers > 0 ? Math.abs(depth - history) : 0;
  out[22] = titleMatch(candidate.words, shopper.words, stats.idf);
}

/**
 * The share of the candidate's title words (weighted by idf) found in the titles of the shopper's
 * history: a word of one history item counts log(2) ≈ 0.69, of two or more 1. Product type ("lunch bag")
 * and design line ("red retrospot") both show in titles, where the family (the last two words) holds
 * only one of them.
 */
function titleMatch(words: ArrayLike<number> | undefined, history: Map<number, number>, idf: Float32Array): number {
  if (words === undefined || words.length === 0 || history.size === 0) return 0;
  let all = 0;
  let found = 0;
  for (let k = 0; k < words.length; k++) {
    const w = words[k]!;
    const weight = idf[w] ?? 0;
    all += weight;
    found += weight * Math.min(1, Math.log1p(history.get(w) ?? 0));
  }
  return all > 0 ? found / all : 0;
}

/** The distinct words of a title (lower case, runs of letters and digits), as `familyOf` reads them. */
export function titleWords(title: string | undefined): string[] {
  return [...new Set(wordsOf(title))];
}

/** A shopper's last visit: the items first touched within this many minutes of their latest first touch. */
export const VISIT_MINUTES = 12 * 60;

/**
 * The item's touches in the weeks around the shopper's last activity, as a share of all touches then
 * (log2, mapped to [0, 1]): shoppers come back for what was in demand when they were last here.
 */
function eraShare(item: number, shopper: ShopperFacts, stats: ItemStats, ownWeek: number | undefined): number {
  if (shopper.lastActive <= 0) return 0;
  const week = Math.floor(shopper.lastActive / WEEK_MINUTES);
  let mine = 0;
  for (let k = stats.weekOffsets[item]!; k < stats.weekOffsets[item + 1]!; k++) {
    const count = stats.weekCounts[k]! - (stats.weeks[k] === ownWeek ? 1 : 0);
    mine += count * 2 ** (-Math.abs(stats.weeks[k]! - week) / ERA_HALF_LIFE_WEEKS);
  }
  if (mine <= 0) return 0;
  if (shopper.eraTouches === undefined) {
    let all = 0;
    for (const [w, count] of stats.weekTotals) all += count * 2 ** (-Math.abs(w - week) / ERA_HALF_LIFE_WEEKS);
    shopper.eraTouches = all;
  }
  return ratio(Math.log2(mine), Math.log2(shopper.eraTouches) - 6);
}

/** log2(value / max) mapped to [0, 1]: 1 for the most popular, 0 at a millionth of it or none. */
function ratio(log: number, maxLog: number): number {
  if (!(log > -Infinity)) return 0;
  return Math.max(RATIO_FLOOR, log - maxLog) / -RATIO_FLOOR + 1;
}

/**
 * The family of a product for the ranking's "family" features and the widgets' variety cap: the last
 * two words of its title (lower case, letters and digits only: "Knitted Union Flag Hot Water Bottle"
 * is a "water bottle"), its one word, or else its first category; undefined when it has none. With the
 * catalog's `endings` (`countEnding`), the rightmost two words that end at least `COMMON_ENDING` titles
 * come first, so that a title naming its kind before its design ("Hot Water Bottle Keep Calm") joins
 * the titles that end with the kind.
 */
export function familyOf(title: string | undefined, categories: readonly string[] | undefined, endings?: ReadonlyMap<string, number>): string | undefined {
  const words = wordsOf(title);
  if (endings !== undefined) {
    for (let k = words.length - 2; k >= 0; k--) {
      const pair = `${words[k]} ${words[k + 1]}`;
      if ((endings.get(pair) ?? 0) >= COMMON_ENDING) return pair;
    }
  }
  if (words.length > 0) return words.slice(-2).join(' ');
  const category = categories?.[0];
  return category === undefined || category === '' ? undefined : category.toLowerCase();
}

/** How many titles must end with two words for them to name a family wherever they stand in a title. */
export const COMMON_ENDING = 5;

/** Adds a title's last two words to the catalog's count of title endings (`familyOf`). */
export function countEnding(endings: Map<string, number>, title: string | undefined): void {
  const words = wordsOf(title);
  if (words.length < 2) return;
  const pair = words.slice(-2).join(' ');
  endings.set(pair, (endings.get(pair) ?? 0) + 1);
}

/** A title's words in order: lower case, runs of letters and digits. */
function wordsOf(title: string | undefined): string[] {
  return (title ?? '').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Shopper facts from their history entries (item numbers, first and last minutes), families and prices. */
export function shopperFacts(
  entries: { count: number; item: (k: number) => number; last: (k: number) => number },
  familyOfItem: (item: number) => number | string | undefined,
  priceOfItem: (item: number) => number,
  at: number,
  wordsOfItem: (item: number) => ArrayLike<number> | undefined = () => undefined,
): ShopperFacts {
  const words = new Map<number, number>();
  const familyTouches = new Map<number | string, number>();
  const familyLast = new Map<number | string, number>();
  const prices: number[] = [];
  for (let k = 0; k < entries.count; k++) {
    const item = entries.item(k);
    const family = familyOfItem(item);
    if (family !== undefined) {
      familyTouches.set(family, (familyTouches.get(family) ?? 0) + 1);
      const last = entries.last(k);
      if (last > (familyLast.get(family) ?? -Infinity)) familyLast.set(family, last);
    }
    const price = priceOfItem(item);
    if (price > 0) prices.push(price);
    const own = wordsOfItem(item);
    if (own !== undefined) for (let w = 0; w < own.length; w++) words.set(own[w]!, (words.get(own[w]!) ?? 0) + 1);
  }
  prices.sort((a, b) => a - b);
  const medianPrice = prices.length === 0 ? NaN : prices[prices.length >> 1]!;
  let lastActive = 0;
  for (let k = 0; k < entries.count; k++) lastActive = Math.max(lastActive, entries.last(k));
  return { historyLength: entries.count, familyTouches, familyLast, medianPrice, at, lastActive, words };
}

/** log2(2^a + 2^b), without leaving the logarithms. */
export function log2Add(a: number, b: number): number {
  const high = Math.max(a, b);
  if (high === -Infinity) return high;
  return high + Math.log2(1 + 2 ** (Math.min(a, b) - high));
}

export const DAY_MINUTES = MINUTES_PER_DAY;
