/**
 * The relevance formula, and every weight in it, named once. An item's relevance to a query is
 *
 *     titleFactor × Σ over the query's words of
 *         max over the word's terms, the weighted fields and the word's positions in them of
 *             fieldWeight × termFactor × positionFactor × completionFactor
 *
 * - fieldWeight: the search configuration's `fields[].weight` (by default title 3, brand 2,
 *   categories 1.5, description 1): the shop's own setting, not a constant of the engine;
 * - termFactor: how a catalog term answers the typed word (query/query-plan.ts): AS_TYPED, OTHER_FORM,
 *   COMPOUND, SYNONYM, TYPO, TYPO_OVER_COMPLETION; another form of a synonym or a correction multiplies
 *   in OTHER_FORM as well;
 * - positionFactor: `termScore` below, from FlexSearch's position slot of the word in the field;
 * - completionFactor: 1 for a whole word; COMPLETION_LAST or COMPLETION_OTHER when the item only holds
 *   a longer word starting with it (`completionFactor`);
 * - titleFactor: EXACT_TITLE when the item's title is the query, TITLE_PHRASE when it holds the query
 *   as a phrase, 1 otherwise.
 *
 * query/matcher.ts computes it (its fast paths too); relaxation (query/relaxed-match.ts) runs a
 * shorter query through the same formula. What shoppers did then adds to it, among the matches only:
 *
 *     score = relevance + top × (learnedLift + personalGain)
 *
 * - top: the best relevance among the matches (1 for a browse request, whose matches all score 0);
 * - learnedLift (learning/learned-order.ts): 0 to impact/100, this query's weighted, decayed votes
 *   for the item, each click weighing its rank up to MAX_CLICK_WEIGHT (examination 1/rank), shrunk
 *   by shoppers / (shoppers + priorShoppers), nothing below minShoppers;
 * - personalGain (learning/shopper-affinities.ts): at most impact/100 × PERSONAL_SHARE, the shopper's
 *   affinities to the item's facet values.
 *
 * Around the score, order/ranking.ts puts merchandising tiers (boost, bury) and a requested sort
 * before it, pins before all, and the configuration's default sort after it: orders, not weights.
 * A requested sort switches the learned and personal terms off.
 *
 * docs/search.md's table of weights is SCORING_TABLE, checked by search-scoring.test.ts. A new
 * signal is a constant here, its row in SCORING_TABLE, and its factor in the formula above.
 */

/** A term equal to the typed word (or, while it is typed, starting with it). */
export const AS_TYPED = 1;
/** Another form of the word in the catalog ("mug" for "mugs"). */
export const OTHER_FORM = 0.95;
/** A compound is the same thing as its parts ("teacup", "tea cup"): it scores as typed. */
export const COMPOUND = 1;
/** A synonym answers the word less surely than its own forms: "tea cup" finds teacups before tea mugs. */
export const SYNONYM = 0.8;
/** A typo correction ("lantren" → "lantern"). */
export const TYPO = 0.5;
/** A correction of a finished word that also begins longer catalog words: above such a completion (COMPLETION_OTHER). */
export const TYPO_OVER_COMPLETION = 0.6;
/** A completion of the query's last word (likely still being typed). */
export const COMPLETION_LAST = 0.7;
/** A completion of an earlier word (finished, so less likely meant as the start of a longer one). */
export const COMPLETION_OTHER = 0.56;
/** FlexSearch's word-position slots: a word early in a field scores a little above a late one. */
export const RESOLUTION = 9;
/** Each later position slot (word further into the field) loses this share of the score. */
export const POSITION_STEP = 0.02;
/** A shopper typing a product's name expects that product first. */
export const EXACT_TITLE = 2;
/** Then titles holding the whole query as a phrase. */
export const TITLE_PHRASE = 1.5;

/** Learning's examination curve: a click at rank r weighs r (P(seen) = 1/r), clipped here to bound one deep click's weight. */
export const MAX_CLICK_WEIGHT = 10;
/** At personalisation impact 100, an item sharing every one of the shopper's affinities gains this share of the top score. */
export const PERSONAL_SHARE = 0.25;

/** A term's score in one FlexSearch list: a field's weight, the term's factor, the list's position slot. */
export function termScore(fieldWeight: number, termFactor: number, position: number): number {
  return fieldWeight * termFactor * (1 - POSITION_STEP * position);
}

/** The factor of an item holding only a longer word that starts with the query word. */
export function completionFactor(lastWord: boolean): number {
  return lastWord ? COMPLETION_LAST : COMPLETION_OTHER;
}

/** The weights as docs/search.md tabulates them, in the order of the formula. */
export const SCORING_TABLE: readonly { name: string; value: number; what: string }[] = [
  { name: 'AS_TYPED', value: AS_TYPED, what: 'term factor: the typed word, whole or (while typed) its start' },
  { name: 'OTHER_FORM', value: OTHER_FORM, what: 'term factor: another form of the word ("mug" for "mugs")' },
  { name: 'COMPOUND', value: COMPOUND, what: 'term factor: a compound of two query words ("doormat" for "door mat")' },
  { name: 'SYNONYM', value: SYNONYM, what: 'term factor: a configured synonym (its forms: × OTHER_FORM)' },
  { name: 'TYPO', value: TYPO, what: 'term factor: a typo correction' },
  { name: 'TYPO_OVER_COMPLETION', value: TYPO_OVER_COMPLETION, what: 'term factor: a correction of a word that only begins catalog words, another word following ("candel holders")' },
  { name: 'POSITION_STEP', value: POSITION_STEP, what: `position factor: 1 − POSITION_STEP × FlexSearch's position slot (0 to ${RESOLUTION - 1}) of the word in the field` },
  { name: 'COMPLETION_LAST', value: COMPLETION_LAST, what: 'completion factor: the item holds only a longer word starting with the last query word' },
  { name: 'COMPLETION_OTHER', value: COMPLETION_OTHER, what: 'completion factor: the same for an earlier query word' },
  { name: 'EXACT_TITLE', value: EXACT_TITLE, what: 'title factor: the title is the query' },
  { name: 'TITLE_PHRASE', value: TITLE_PHRASE, what: 'title factor: the title holds the query as a phrase' },
  { name: 'MAX_CLICK_WEIGHT', value: MAX_CLICK_WEIGHT, what: 'learned lift: a click at rank r counts min(r, MAX_CLICK_WEIGHT) clicks (examination 1/r)' },
  { name: 'PERSONAL_SHARE', value: PERSONAL_SHARE, what: 'personal gain: the most a shopper\'s affinities add, as a share of the top score, at impact 100' },
];
