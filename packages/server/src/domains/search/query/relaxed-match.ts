/**
 * The first step of the query pipeline: which items a query's words match, relaxed when no item has
 * them all, and what that says about the query's spelling (autocomplete) and highlighting.
 */
import type { SearchConfiguration } from '../../../platform/config/schema.js';
import type { QuerySpelling } from '../analytics/search-queries.js';
import type { HighlightTerms } from '../response/highlight.js';
import { matchQuery, wordReach, type Matches } from './matcher.js';
import { TYPO } from '../scoring.js';
import { planQuery, type PlannedWord, type PlanOptions, type QueryPlan } from './query-plan.js';
import type { SearchIndex } from '../index/search-index.js';

export interface MatchRun {
  plan: QueryPlan;
  /** The planned words that were run (fewer than the plan's when relaxed). */
  words: readonly PlannedWord[];
  matches: Matches;
  relaxed: boolean;
}

/** Leaving one word out at a time is tried up to this many words; longer queries keep their rarest word. */
const RELAX_ONE_BY_ONE = 6;

/**
 * Matches every word when some item has them all; otherwise serves a looser match rather than nothing:
 * words matching no item are left out, then (three to six words) the one word whose absence finds the
 * most, then the rarest word alone (of two words, the more specific one is what the shopper is after);
 * when no word matches at all, the longest start of each word the catalog has.
 */
export function relaxedMatch(index: SearchIndex, config: SearchConfiguration, queryText: string[], options: PlanOptions = {}): MatchRun {
  const plan = planQuery(index.vocabulary, config, queryText, options);
  const full = matchQuery(index, config, plan.words);
  if (full.docs.length > 0) return { plan, words: plan.words, matches: full, relaxed: false };
  const found = plan.words.filter((word) => wordReach(index, config, word) > 0);
  if (plan.words.length >= 2 && found.length > 0) {
    if (found.length < plan.words.length) {
      const matches = matchQuery(index, config, found);
      if (matches.docs.length > 0) return { plan, words: found, matches, relaxed: true };
    }
    if (found.length >= 3 && found.length <= RELAX_ONE_BY_ONE) {
      let bestWords: PlannedWord[] | undefined;
      let bestCount = 0;
      for (let leave = 0; leave < found.length; leave++) {
        const rest = found.filter((_, i) => i !== leave);
        const count = matchQuery(index, config, rest).docs.length;
        if (count > bestCount) {
          bestCount = count;
          bestWords = rest;
        }
      }
      if (bestWords !== undefined) return { plan, words: bestWords, matches: matchQuery(index, config, bestWords), relaxed: true };
    }
    let rarest = found[0]!;
    for (const word of found) if (wordReach(index, config, word) < wordReach(index, config, rarest)) rarest = word;
    return { plan, words: [rarest], matches: matchQuery(index, config, [rarest]), relaxed: true };
  }
  // No word matched anything, not even corrected ("cushoinz"): the longest start of each that the
  // catalog has ("cush") rather than nothing.
  const starts = plan.words.flatMap((word): PlannedWord[] => {
    const start = knownStart(index, word.word);
    return start === undefined ? [] : [{ word: start, terms: [{ term: start, factor: TYPO, typo: true, prefix: true }] }];
  });
  const tries = starts.length > 1 ? [starts, ...starts.map((start) => [start])] : [starts];
  for (const words of tries) {
    if (words.length === 0) continue;
    const matches = matchQuery(index, config, words);
    if (matches.docs.length > 0) return { plan, words, matches, relaxed: true };
  }
  // Nothing at all: `full` is an empty view, which later queries' scratch writes cannot change.
  return { plan, words: plan.words, matches: full, relaxed: false };
}

/** Shortest start of a word worth serving alone: two letters match half a catalog. */
const MIN_START = 3;

/** The longest proper start of `word` (MIN_START letters or more) that some catalog word begins with. */
function knownStart(index: SearchIndex, word: string): string | undefined {
  for (let length = word.length - 1; length >= MIN_START; length--) {
    const start = word.slice(0, length);
    if (index.vocabulary.hasCompletions(start) || index.vocabulary.frequency(start) > 0) return start;
  }
  return undefined;
}

/** Autocomplete offers only queries found as typed: a corrected, split or relaxed query is not one to repeat to others. */
export function spellingOf(matches: Matches, plan: QueryPlan, relaxed: boolean): QuerySpelling {
  if (matches.docs.length === 0) return 'none';
  return matches.spelledRight && !plan.rewritten && !relaxed ? 'typed' : 'corrected';
}

export function highlightTermsOf(words: readonly PlannedWord[], queryText: readonly string[]): HighlightTerms {
  const terms = [...new Set(words.flatMap((w) => w.terms.map((t) => t.term)))];
  const lastTyped = queryText[queryText.length - 1];
  const typing = lastTyped !== undefined && words.some((w) => w.word === lastTyped) ? lastTyped : undefined;
  return { terms, typing };
}
