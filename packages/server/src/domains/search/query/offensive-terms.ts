/**
 * Words autocomplete never suggests. A small built-in list of common English profanity and slurs,
 * plus each search configuration's own `offensiveTerms` (any language, words or phrases). A query is
 * offensive when one of its folded words is a listed word (or that word with a common ending:
 * "bitches", "fucking"), or when it holds a listed phrase on word boundaries.
 */
import { words } from '../index/analyzer.js';

const BUILT_IN = [
  'fuck', 'motherfucker', 'shit', 'bullshit', 'cunt', 'bitch', 'asshole', 'arsehole', 'bastard', 'dickhead',
  'wanker', 'twat', 'slut', 'whore', 'nigger', 'nigga', 'faggot', 'retard', 'porn',
];
const ENDINGS = ['', 's', 'es', 'ed', 'er', 'ers', 'ing', 'in', 'y'];

export type OffensiveCheck = (query: string) => boolean;

/**
 * A memo, not state: a configuration's `offensiveTerms` array is never modified (the admin API stores a
 * new configuration), so its check stays right, and the WeakMap lets it go with the array.
 */
const checks = new WeakMap<readonly string[], OffensiveCheck>();

/** The check for one configuration's list (built once per list). */
export function offensiveCheck(configured: readonly string[]): OffensiveCheck {
  let check = checks.get(configured);
  if (check === undefined) checks.set(configured, (check = buildCheck(configured)));
  return check;
}

function buildCheck(configured: readonly string[]): OffensiveCheck {
  const single = new Set<string>();
  const phrases: string[] = [];
  for (const term of [...BUILT_IN, ...configured]) {
    const termWords = words(term);
    if (termWords.length === 1) single.add(termWords[0]!);
    else if (termWords.length > 1) phrases.push(` ${termWords.join(' ')} `);
  }
  return (query) => {
    const queryWords = words(query);
    for (const word of queryWords) {
      for (const ending of ENDINGS) {
        if (word.length > ending.length && word.endsWith(ending) && single.has(word.slice(0, word.length - ending.length))) return true;
      }
    }
    if (phrases.length === 0) return false;
    const padded = ` ${queryWords.join(' ')} `;
    return phrases.some((phrase) => padded.includes(phrase));
  };
}
