/**
 * What a shopper's words become before the index is asked: each query word gets the catalog terms
 * that answer it (as typed, its other forms, synonyms and their forms, a compound it makes with a
 * neighbour, typo corrections), a word glued from two catalog words is split ("teacup" → "tea cup"),
 * and the query as understood is written back for `metadata.correctedQuery`.
 *
 * Everything here reads the index's vocabulary only (maps, no FlexSearch calls), so a plan costs
 * microseconds; matcher.ts then asks FlexSearch for each term. Each term's factor is one of
 * ../scoring.ts's term factors.
 */
import type { SearchConfiguration } from '../../../platform/config/schema.js';
import { words } from '../index/analyzer.js';
import { inflectionBases, isStopWord } from '../index/language.js';
import type { TypoVocabulary } from '../index/typo-vocabulary.js';
import { AS_TYPED, COMPOUND, OTHER_FORM, SYNONYM, TYPO, TYPO_OVER_COMPLETION } from '../scoring.js';

/** Words of a query beyond this are ignored: 200 one-letter words must still answer in milliseconds. */
export const MAX_QUERY_WORDS = 12;

/** A word that begins catalog words is corrected only from this length on. */
const SAFE_FINISHED_TYPO = 5;

export interface PlannedTerm {
  term: string;
  factor: number;
  typo: boolean;
  /**
   * Whether catalog words merely starting with the term match too (as a completion): the typed word
   * does ("lant" finds "lantern"); another form, synonym or correction must be a whole word, or "organs"
   * would find "organic" through "organ".
   */
  prefix: boolean;
}

export interface PlannedWord {
  /** The word as the plan runs it (a split word's halves are two planned words). */
  word: string;
  terms: PlannedTerm[];
}

export interface QueryPlan {
  words: PlannedWord[];
  /** The query as run, words joined by spaces, when it differs from the folded typed words; otherwise undefined. */
  corrected: string | undefined;
  /** Some word was answered only through a typo correction or a split. */
  rewritten: boolean;
}

interface Context {
  vocabulary: TypoVocabulary;
  config: SearchConfiguration;
  keepApart: ReadonlySet<string>;
}

/**
 * Memos, not state: a configuration object is never modified (the admin API stores a new one), so what
 * is derived from it stays right, and the WeakMaps let it go with the configuration.
 */
const synonymGroups = new WeakMap<SearchConfiguration, string[][]>();

/** The configuration's synonym groups, folded as queries are, once per configuration. */
function foldedSynonyms(config: SearchConfiguration): string[][] {
  let groups = synonymGroups.get(config);
  if (groups === undefined) synonymGroups.set(config, (groups = config.synonyms.map((group) => group.map((s) => words(s).join(' ')))));
  return groups;
}

/** A memo keyed by the configuration, as synonymGroups above. */
const keepApartSets = new WeakMap<SearchConfiguration, ReadonlySet<string>>();

function keepApartOf(config: SearchConfiguration): ReadonlySet<string> {
  let set = keepApartSets.get(config);
  if (set === undefined) keepApartSets.set(config, (set = new Set(config.keepApart.flatMap((w) => words(w)))));
  return set;
}

/** Whether the catalog knows `word` as a whole word or through another form of it. */
function known(ctx: Context, word: string): boolean {
  return ctx.vocabulary.frequency(word) > 0 || ctx.vocabulary.forms(word, ctx.config.language, ctx.keepApart).length > 0;
}

/** One-letter words kept in a query at most: "t light" needs its "t", two hundred of them are noise that costs a pass each. */
const MAX_ONE_LETTER_WORDS = 2;

/**
 * The words worth running: stop words only when nothing else was typed (then the rarest one alone),
 * at most two one-letter words, at most MAX_QUERY_WORDS in all. The last word is kept as typed, since
 * it may be the start of a longer word ("a" becoming "apron").
 */
function wordsToRun(vocabulary: TypoVocabulary, config: SearchConfiguration, typed: readonly string[]): string[] {
  const last = typed.length - 1;
  const meaningful = typed.filter((word, i) => i === last ? word.length > 1 || !isStopWord(config.language, word) : !isStopWord(config.language, word));
  let kept: string[];
  if (meaningful.length > 0) kept = meaningful;
  else {
    // The rarest word the catalog has: one pass over its items instead of one per word.
    const present = typed.filter((word) => vocabulary.frequency(word) > 0);
    let rarest = present[0] ?? typed[0]!;
    for (const word of present) if (vocabulary.frequency(word) < vocabulary.frequency(rarest)) rarest = word;
    kept = [rarest];
  }
  // A letter alone is kept where the catalog writes it beside its neighbour ("t light"), or as the
  // last word (the start of a word being typed); elsewhere it is a pass over most of the catalog for nothing.
  let oneLetter = 0;
  kept = kept.filter((word, i) => {
    if (word.length > 1) return true;
    const useful = i === kept.length - 1 || vocabulary.hasShortPair(word, kept[i + 1] ?? '') || vocabulary.hasShortPair(kept[i - 1] ?? '', word);
    return useful && ++oneLetter <= MAX_ONE_LETTER_WORDS;
  });
  return kept.slice(0, MAX_QUERY_WORDS);
}

export interface PlanOptions {
  /** `false`: the words as typed, no typo correction and no split (the shopper chose "Search instead for …"). */
  correct?: boolean;
}

export function planQuery(vocabulary: TypoVocabulary, config: SearchConfiguration, typed: readonly string[], options: PlanOptions = {}): QueryPlan {
  const correct = options.correct !== false;
  const ctx: Context = { vocabulary, config, keepApart: keepApartOf(config) };
  const input = typed.length === 0 ? [] : wordsToRun(vocabulary, config, typed);
  let rewritten = false;
  // Splits first: a word the catalog does not know but two of its words make ("teacup" → "tea cup").
  const split: string[] = [];
  for (let i = 0; i < input.length; i++) {
    const word = input[i]!;
    const last = i === input.length - 1;
    const halves = !correct || known(ctx, word) || (last && vocabulary.hasCompletions(word)) ? undefined : splitOf(ctx, word);
    if (halves === undefined) split.push(word);
    else {
      split.push(...halves);
      rewritten = true;
    }
  }
  const shown = [...split];
  const planned: PlannedWord[] = split.map((word, i) => {
    const last = i === split.length - 1;
    const terms: PlannedTerm[] = [];
    const seen = new Set<string>();
    const add = (term: string, factor: number, typo: boolean, prefix: boolean): void => {
      if (term === '' || seen.has(term)) return;
      seen.add(term);
      terms.push({ term, factor, typo, prefix });
    };
    const withForms = (term: string, factor: number, typo: boolean, prefix = false): void => {
      add(term, factor, typo, prefix);
      for (const form of vocabulary.forms(term, config.language, ctx.keepApart)) add(form, factor * OTHER_FORM, typo, false);
    };
    withForms(word, AS_TYPED, false, true);
    // Synonyms of the word or of any of its forms ("mugs" → "cup", "cups").
    const own = new Set(terms.map((t) => t.term));
    for (const folded of foldedSynonyms(config)) {
      if (!folded.some((s) => own.has(s))) continue;
      for (const other of folded) if (!own.has(other) && !other.includes(' ')) withForms(other, SYNONYM, false);
    }
    // A compound with a neighbour ("door mat" → "doormat"): the joined word answers both words.
    for (const joined of [i > 0 ? split[i - 1]! + word : '', !last ? word + split[i + 1]! : '']) {
      if (joined === '') continue;
      const joinedLast = last || i + 1 === split.length - 1;
      if (known(ctx, joined)) withForms(joined, COMPOUND, false);
      // "door ma": the joined word is still being typed.
      else if (joinedLast && joined.endsWith(split[split.length - 1]!) && vocabulary.hasCompletions(joined)) withForms(joined, COMPOUND, false, true);
    }
    // Typo corrections only for a word the catalog does not know: "candle" must not also bring "handle".
    // A word that only begins catalog words may be being typed: from five letters on its corrections
    // come too, below its completions, or above them once the shopper went on to the next word
    // ("candel holders" is more likely candle holders than a candelabra, which still comes, lower).
    const completes = vocabulary.hasCompletions(word);
    if (correct && !known(ctx, word) && (!completes || word.length >= SAFE_FINISHED_TYPO)) {
      const corrections = correctionsOf(ctx, word);
      for (const correction of corrections) withForms(correction, completes && !last ? TYPO_OVER_COMPLETION : TYPO, true);
      if (corrections.length > 0 && !completes) {
        shown[i] = corrections[0]!;
        rewritten = true;
      }
    }
    return { word, terms };
  });
  // Words left out (stop words, noise) are not a correction: compare with what was run.
  const before = input.join(' ');
  const after = shown.join(' ');
  return { words: planned, corrected: after !== before ? after : undefined, rewritten };
}

/** Catalog words one edit from `word`, or from a form it may be an inflection of ("cushoins"), the commonest first. */
function correctionsOf(ctx: Context, word: string): string[] {
  const { vocabulary } = ctx;
  let found = vocabulary.corrections(word);
  if (found.length === 0) found = [...new Set(inflectionBases(vocabulary.stemKeys, ctx.config.language, word).flatMap((base) => vocabulary.corrections(base)))];
  return found.sort((a, b) => vocabulary.frequency(b) - vocabulary.frequency(a) || (a < b ? -1 : 1));
}

/** Two catalog words that make `word`, the most balanced split first; undefined when none does. */
function splitOf(ctx: Context, word: string): [string, string] | undefined {
  let best: [string, string] | undefined;
  let bestScore = 0;
  for (let at = 1; at < word.length; at++) {
    const a = word.slice(0, at);
    const b = word.slice(at);
    if (!known(ctx, a) || !known(ctx, b)) continue;
    // A one- or two-letter half only where a title writes the pair ("t light"), never "h art" for "hart".
    if ((a.length <= 2 || b.length <= 2) && !ctx.vocabulary.hasShortPair(a, b)) continue;
    const score = Math.min(a.length, b.length);
    if (score > bestScore) {
      best = [a, b];
      bestScore = score;
    }
  }
  return best;
}
