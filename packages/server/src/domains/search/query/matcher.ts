/**
 * The query planner: which documents match a query and how well. FlexSearch answers, per field and per
 * word, which documents hold a word starting with it (and, from the all-text strict index, which hold
 * the whole word); this file adds what FlexSearch's own search cannot do here:
 *
 * - words matched in different fields: each word is looked up in every weighted field and the per-word
 *   results are intersected across words (FlexSearch intersects only within one field);
 * - one typo in long words: the vocabulary corrects a word before FlexSearch is asked for the correction;
 * - configured synonyms, and field weights per configuration (one index serves every configuration);
 * - relevance: whole words before completions before typos, a title equal to the query first, as
 *   ../scoring.ts writes it;
 * - cost: words are visited rarest first and only documents still matching are kept, in typed arrays
 *   reused across queries, so a very common word costs one pass over its list, not a sort or a Set.
 *
 * matchOneTerm is the fast path of the general path for one word answered by one term (below).
 */
import type { SearchConfiguration } from '../../../platform/config/schema.js';
import { words } from '../index/analyzer.js';
import type { PlannedWord } from './query-plan.js';
import type { MatchScratch } from './match-scratch.js';
import type { SearchIndex, Slots } from '../index/search-index.js';
import { containsPhrase, TITLE_PAIRS, TITLE_PAIRS_OVERFLOW, titleKey } from '../index/title-key.js';
import { COMPLETION_LAST, completionFactor, EXACT_TITLE, termScore, TITLE_PHRASE } from '../scoring.js';

/** A query's matches, in arrays reused by the next query on the same index: read (or copy) them first. */
export interface Matches {
  /** Matching slots, in no particular order. */
  docs: Int32Array;
  /** Score of each entry of `docs` (same positions). */
  scores: Float32Array;
  /** True when some matching item matched every word without typo correction (autocomplete reads it). */
  spelledRight: boolean;
}

interface Alternative {
  factor: number;
  typo: boolean;
  /**
   * Documents holding the whole word, when the word is both a catalog word and the start of longer ones
   * ("lamp", "lampshade"); otherwise every document in `fields` matched the same way and `allWhole` says how.
   */
  whole: Slots;
  allWhole: boolean;
  fields: { weight: number; slots: Slots; title: boolean }[];
  size: number;
  /** Only documents holding the whole word match (see PlannedTerm.prefix); `whole` then lists them. */
  wholeOnly: boolean;
}

/** How many documents a term's lists hold (a document in several lists counts in each). */
export function slotsSize(slots: Slots): number {
  let n = 0;
  for (const list of slots) if (list !== undefined) n += list.length;
  return n;
}

/** Folded query words, as the index folds its text. */
export function queryWords(query: string): string[] {
  return words(query);
}

function alternatives(index: SearchIndex, weights: readonly { field: number; weight: number }[], word: PlannedWord): Alternative[] {
  const out: Alternative[] = [];
  const titleField = index.fields.indexOf('title');
  for (const { term, factor, typo, prefix } of word.terms) {
    const isWord = index.vocabulary.frequency(term) > 0;
    // A whole-word-only term the catalog does not hold as a word matches nothing.
    if (!prefix && !isWord) continue;
    const fields = weights.map(({ field, weight }) => ({ weight, slots: index.fieldSlots(field, term), title: field === titleField }));
    const size = fields.reduce((n, f) => n + slotsSize(f.slots), 0);
    if (size === 0) continue;
    const mixed = isWord && index.vocabulary.hasCompletions(term);
    out.push({ factor, typo, whole: mixed ? index.wordSlots(term) : [], allWhole: isWord, fields, size, wholeOnly: !prefix && mixed });
  }
  return out;
}

/** How many items some term of `word` reaches (0: the word matches nothing, relaxation drops it first). */
export function wordReach(index: SearchIndex, config: SearchConfiguration, word: PlannedWord): number {
  return alternatives(index, weightsOf(index, config), word).reduce((n, alt) => n + alt.size, 0);
}

/** Field weights per index and configuration, made once (both weakly held: neither is kept alive by this). */
const fieldWeights = new WeakMap<SearchIndex, WeakMap<SearchConfiguration, readonly { field: number; weight: number }[]>>();

function weightsOf(index: SearchIndex, config: SearchConfiguration): readonly { field: number; weight: number }[] {
  let byConfig = fieldWeights.get(index);
  if (byConfig === undefined) fieldWeights.set(index, (byConfig = new WeakMap()));
  let weights = byConfig.get(config);
  if (weights === undefined) {
    weights = config.fields.flatMap(({ attribute, weight }) => {
      const field = index.fields.indexOf(attribute);
      return field < 0 ? [] : [{ field, weight }];
    });
    byConfig.set(config, weights);
  }
  return weights;
}

/**
 * `oneTerm: false` keeps a one-word, one-term query on the general path (accumulate, then scoreOneWord):
 * the tests compare matchOneTerm's answers with it.
 */
export function matchQuery(index: SearchIndex, config: SearchConfiguration, planned: readonly PlannedWord[], oneTerm = true): Matches {
  const weights = weightsOf(index, config);
  const queryText = planned.map((w) => w.word);
  const perWord = planned.map((word, i) => ({ alts: alternatives(index, weights, word), last: i === planned.length - 1 }));
  if (perWord.some((w) => w.alts.length === 0)) return { docs: new Int32Array(0), scores: new Float32Array(0), spelledRight: true };
  // The rarest word first: it decides the candidates, and every later word can only drop some.
  perWord.sort((a, b) => a.alts.reduce((n, x) => n + x.size, 0) - b.alts.reduce((n, x) => n + x.size, 0));

  const typos = perWord.some((w) => w.alts.some((alt) => alt.typo));
  // A phrase of several words can only be in a title if every one of them is a whole catalog word
  // (a prefix being typed, "leather ba", never is): then the title counts that find it are not kept,
  // and most queries skip the string search entirely.
  const phraseable = queryText.length > 1 && queryText.every((word) => index.vocabulary.frequency(word) > 0);
  const s = index.matchScratch();
  // One word answered by one term (most single-word queries: "the", "hoo"): scored as it is reached.
  if (oneTerm && perWord.length === 1 && !typos && perWord[0]!.alts.length === 1) return matchOneTerm(index, s, perWord[0]!.alts[0]!, queryText[0]!);
  // One generation per word and one per alternative (its whole-word marks).
  s.begin(perWord.reduce((n, w) => n + 1 + w.alts.length, 0));
  let current = s.listA;
  let spare = s.listB;
  let count = 0;
  let alive = -1;
  for (let w = 0; w < perWord.length; w++) {
    const { alts, last } = perWord[w]!;
    const completing = completionFactor(last);
    const generation = s.next();
    let touched = 0;
    // The documents this word reaches get their bit for the next word as they are reached.
    const nextBits = w < perWord.length - 1 ? s.nextBits : undefined;
    for (const alt of alts) {
      const whole = s.next();
      // A later word marks only the documents still alive: the others are never read again.
      for (const list of alt.whole) if (list !== undefined) markAll(s.mark, list, whole, w > 0 ? s.aliveBits : undefined);
      // Without a whole-word list, no document carries the mark and every one scores as `completion` says.
      const completion = alt.whole.length > 0 ? completing : alt.allWhole ? 1 : completing;
      for (const { weight, slots, title } of alt.fields) {
        for (let position = 0; position < slots.length; position++) {
          const list = slots[position];
          if (list === undefined) continue;
          const base = termScore(weight, alt.factor, position);
          const inTitle = title && phraseable;
          touched = accumulate(s, list, { base, completion, whole, marked: alt.whole.length > 0, wholeOnly: alt.wholeOnly, generation, alive: w === 0 ? -1 : alive, second: w === 1, typo: alt.typo ? 1 : 0, typos, inTitle, phrase: phraseable, nextBits }, spare, touched);
        }
      }
    }
    // The bits this word read were the previous word's documents (none before the second word).
    s.advance(current, w > 0 ? count : 0);
    [current, spare] = [spare, current];
    count = touched;
    alive = generation;
    if (count === 0) break;
  }

  const docs = s.docs.subarray(0, count);
  docs.set(current.subarray(0, count));
  const scores = s.scores.subarray(0, count);
  const phrase = queryText.join(' ');
  const phraseKey = titleKey(phrase);
  const { total, best, typo, titleWords, titleStamp } = s;
  const { keys, pairCounts } = index.titles;
  // Only a title of as many words as the phrase can equal it: the one-byte word-pair count rules out
  // most documents before their fingerprint (four bytes, rarely in cache) is read.
  const phraseWords = phrase.split(' ').length;
  const phrasePairCount = phraseWords - 1 > TITLE_PAIRS ? TITLE_PAIRS_OVERFLOW : phraseWords - 1;
  const words = phraseable ? queryText.length : 0;
  const phrasePairs = queryText.slice(1).map((word, i) => titleKey(`${queryText[i]} ${word}`));
  let spelledRight = false;
  if (perWord.length === 1 && !typos) {
    // One word, no typo corrections: every match is spelt right, and only the exact title counts.
    scoreOneWord(index, s.best, docs, scores, count, phrase, phraseKey, phrasePairCount);
    spelledRight = count > 0;
  } else {
    const single = perWord.length === 1;
    for (let i = 0; i < count; i++) {
      const doc = docs[i]!;
      // The last word's best is added here: earlier words' were added when the next word reached the item
      // (a one-word query has no total: its documents were only ever reached by that word).
      let score = single ? best[doc]! : total[doc]! + best[doc]!;
      // A shopper typing a product's name expects that product first, then titles holding the whole phrase.
      if (pairCounts[doc] === phrasePairCount && keys[doc] === phraseKey && index.docs[doc]!.title === phrase) score *= EXACT_TITLE;
      // Only a title holding every word can hold the phrase: most candidates skip the string search.
      else if (words > 0 && titleWords[doc]! + (titleStamp[doc] === alive ? 1 : 0) === words && index.titles.hasPairs(doc, phrasePairs) && containsPhrase(index.docs[doc]!.title, phrase)) score *= TITLE_PHRASE;
      scores[i] = score;
      // Without typo corrections every match is spelt right (its flags were not kept).
      if (!typos || typo[doc] === 0) spelledRight = true;
    }
  }
  return { docs, scores, spelledRight };
}

/**
 * Fast path of matchQuery's general path (accumulate, then scoreOneWord): must equal it (search-one-term.test.ts).
 *
 * A one-word query with one term and no typo correction, in one pass and without `best`: the term's
 * lists are walked from the highest score to the lowest, so the first list reaching a document gives
 * its best score, written straight into the answer. A document's whole-word mark changes its score by a
 * factor that is the same in every list, so the order holds for marked terms too. The general path
 * (accumulate, then scoreOneWord) wrote a best score per document, kept the higher on every later list
 * and read them all back: for a word in most items, a catalog-sized array written and read at random.
 */
function matchOneTerm(index: SearchIndex, s: MatchScratch, alt: Alternative, word: string): Matches {
  s.begin(2);
  const generation = s.next();
  const whole = s.next();
  const { stamp, mark, docs, scores } = s;
  for (const list of alt.whole) if (list !== undefined) markAll(mark, list, whole, undefined);
  const marked = alt.whole.length > 0;
  const completion = marked ? COMPLETION_LAST : alt.allWhole ? 1 : COMPLETION_LAST;
  const lists: { base: number; list: readonly number[] }[] = [];
  let fields = 0;
  for (const { weight, slots } of alt.fields) {
    const before = lists.length;
    for (let position = 0; position < slots.length; position++) {
      const list = slots[position];
      if (list !== undefined && list.length > 0) lists.push({ base: termScore(weight, alt.factor, position), list });
    }
    if (lists.length > before) fields++;
  }
  // FlexSearch lists a document once per term in a field's index, so only a second field can list it
  // again: a term found in one field needs no stamps ("the" in every description).
  const once = fields === 1;
  lists.sort((a, b) => b.base - a.base);
  // Only a title of one word can equal the query: its pair count (one byte) rules out the others.
  const { keys, pairCounts } = index.titles;
  const wordKey = titleKey(word);
  let n = 0;
  for (const { base, list } of lists) {
    const partial = base * completion;
    if (!marked && once) {
      for (let i = 0; i < list.length; i++) {
        const doc = list[i]!;
        docs[n] = doc;
        scores[n++] = pairCounts[doc] === 0 && keys[doc] === wordKey && index.docs[doc]!.title === word ? EXACT_TITLE * partial : partial;
      }
      continue;
    }
    if (!marked) {
      // The usual term (no word both whole and the start of longer ones): one score for the whole list.
      for (let i = 0; i < list.length; i++) {
        const doc = list[i]!;
        if (stamp[doc] === generation) continue;
        stamp[doc] = generation;
        docs[n] = doc;
        scores[n++] = pairCounts[doc] === 0 && keys[doc] === wordKey && index.docs[doc]!.title === word ? EXACT_TITLE * partial : partial;
      }
      continue;
    }
    for (let i = 0; i < list.length; i++) {
      const doc = list[i]!;
      if (stamp[doc] === generation) continue;
      const isWhole = mark[doc] === whole;
      if (alt.wholeOnly && !isWhole) continue;
      stamp[doc] = generation;
      const score = isWhole ? base : partial;
      docs[n] = doc;
      // A shopper typing a product's name expects that product first.
      scores[n++] = pairCounts[doc] === 0 && keys[doc] === wordKey && index.docs[doc]!.title === word ? EXACT_TITLE * score : score;
    }
  }
  return { docs: docs.subarray(0, n), scores: scores.subarray(0, n), spelledRight: n > 0 };
}

/**
 * The scores of a one-word query without typo corrections: each match's best, doubled when its title is
 * the word. Kept apart from the general loop, whose phrase and typo work a word in most items would
 * otherwise test at every one of its matches.
 */
function scoreOneWord(index: SearchIndex, best: Float32Array, docs: Int32Array, scores: Float32Array, count: number, phrase: string, phraseKey: number, phrasePairCount: number): void {
  const { keys, pairCounts } = index.titles;
  for (let i = 0; i < count; i++) {
    const doc = docs[i]!;
    const score = best[doc]!;
    scores[i] = pairCounts[doc] === phrasePairCount && keys[doc] === phraseKey && index.docs[doc]!.title === phrase ? EXACT_TITLE * score : score;
  }
}

function markAll(mark: Uint16Array, list: readonly number[], value: number, alive: Uint32Array | undefined): void {
  if (alive === undefined) {
    for (let i = 0; i < list.length; i++) mark[list[i]!] = value;
    return;
  }
  // A bit test in a few kilobytes instead of a write to a random place in a catalog-sized array.
  for (let i = 0; i < list.length; i++) {
    const doc = list[i]!;
    if ((alive[doc >>> 5]! & (1 << (doc & 31))) !== 0) mark[doc] = value;
  }
}

interface Pass {
  base: number;
  completion: number;
  whole: number;
  /** Some documents carry the `whole` mark; otherwise every one scores `base * completion` without reading marks. */
  marked: boolean;
  /** Documents without the `whole` mark do not match at all (a completion of a form, synonym or correction). */
  wholeOnly: boolean;
  generation: number;
  /** The previous word's generation: only documents it left alive may match (-1 for the first word). */
  alive: number;
  /** The second word: the first word's documents have no total yet (it is their first word's best). */
  second: boolean;
  typo: number;
  /** Some alternative of some word of the query is a typo correction: otherwise typo flags are not kept. */
  typos: boolean;
  /** The list is the title field's, and the query could be a title's phrase: remember it for the phrase check. */
  inTitle: boolean;
  /** The query could be a title's phrase (several words, all whole catalog words): title counts are kept. */
  phrase: boolean;
  /** The next word's alive bits, set for each document this word reaches first (none for the last word). */
  nextBits: Uint32Array | undefined;
}

/**
 * Folds one FlexSearch slot list into the current word's best score per document; returns the new
 * touched count. When a later word first reaches a document, the previous word's best (final by then)
 * joins its total: a document a later word never reaches is dropped without that work.
 */
function accumulate(s: MatchScratch, list: readonly number[], pass: Pass, touchedList: Int32Array, touched: number): number {
  const { stamp, mark, best, typo, total, titleStamp, titleWords } = s;
  const { base, completion, whole, marked, wholeOnly, generation, alive, second, typo: isTypo, inTitle, nextBits } = pass;
  const partial = base * completion;
  if (alive === -1 && !marked && !inTitle && !pass.typos) {
    // The first word's common case, kept apart because it is the tightest loop of a query (12% faster
    // than the general one below on a word in most items): no whole-word marks, no phrase check, no
    // typo flags to keep, so one score for every document of the list.
    for (let i = 0; i < list.length; i++) {
      const doc = list[i]!;
      if (stamp[doc] !== generation) {
        stamp[doc] = generation;
        touchedList[touched++] = doc;
        best[doc] = partial;
        if (nextBits !== undefined) nextBits[doc >>> 5]! |= 1 << (doc & 31);
      } else if (partial > best[doc]!) best[doc] = partial;
    }
    return touched;
  }
  if (alive === -1) {
    // The first word otherwise: every document of the list is a candidate. `marked`, `inTitle` and
    // `typos` hold for the whole list, so each test below skips the same work for every document.
    const keepTypos = pass.typos;
    for (let i = 0; i < list.length; i++) {
      const doc = list[i]!;
      if (wholeOnly && mark[doc] !== whole) continue;
      const score = marked && mark[doc] === whole ? base : partial;
      if (inTitle) titleStamp[doc] = generation;
      if (stamp[doc] !== generation) {
        stamp[doc] = generation;
        touchedList[touched++] = doc;
        best[doc] = score;
        if (keepTypos) typo[doc] = isTypo;
        if (nextBits !== undefined) nextBits[doc >>> 5]! |= 1 << (doc & 31);
      } else if (score > best[doc]!) {
        best[doc] = score;
        if (keepTypos) typo[doc] = isTypo;
      }
    }
    return touched;
  }
  // A later word: most of a common word's documents were dropped by rarer words, so test that first,
  // on the alive bits (see MatchScratch.aliveBits). Title counts and typo flags are kept only when
  // the query could be a title's phrase and has a typo correction (the scoring reads them only then).
  const bits = s.aliveBits;
  const { phrase, typos: keepTypos } = pass;
  for (let i = 0; i < list.length; i++) {
    const doc = list[i]!;
    if ((bits[doc >>> 5]! & (1 << (doc & 31))) === 0) continue;
    if (wholeOnly && mark[doc] !== whole) continue;
    const seen = stamp[doc]!;
    if (seen === alive) {
      // The first word's documents start their total and title count here, when the second word reaches them.
      total[doc] = second ? best[doc]! : total[doc]! + best[doc]!;
      if (phrase) titleWords[doc] = (second ? 0 : titleWords[doc]!) + (titleStamp[doc] === alive ? 1 : 0);
      // Bit 2: some earlier word of this item needed a typo correction; bit 1: this word's best did.
      if (keepTypos) typo[doc] = (typo[doc] !== 0 ? 2 : 0) | isTypo;
      if (inTitle) titleStamp[doc] = generation;
      stamp[doc] = generation;
      touchedList[touched++] = doc;
      best[doc] = mark[doc] === whole ? base : partial;
      if (nextBits !== undefined) nextBits[doc >>> 5]! |= 1 << (doc & 31);
    } else if (seen === generation) {
      if (inTitle) titleStamp[doc] = generation;
      const score = mark[doc] === whole ? base : partial;
      if (score > best[doc]!) {
        best[doc] = score;
        if (keepTypos) typo[doc] = (typo[doc]! & 2) | isTypo;
      }
    }
  }
  return touched;
}
