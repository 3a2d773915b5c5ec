/**
 * Which catalog words are forms of one another, per search configuration `language`.
 *
 * Why Snowball (through @orama/stemmers, maintained with the Orama engine, one module per language,
 * no dependencies) and not a lemmatiser: it covers many languages with one algorithm family, and we
 * never index stems. A stem only proposes which words *of the catalog's own vocabulary* go together;
 * the query then asks FlexSearch for those real words. For English we add a guard, because Snowball
 * also strips derivational endings ("organic" → "organ", "decorations" → "decor"): two words are
 * folded together only when they differ by an inflection (-s, -es, -ies/-y, -ed, -ing, a doubled
 * consonant). A configuration's `keepApart` words are never folded (a shop selling eyewear lists
 * "glasses", which then stays apart from "glass").
 */
import { stemmer as danish } from '@orama/stemmers/danish';
import { stemmer as dutch } from '@orama/stemmers/dutch';
import { stemmer as english } from '@orama/stemmers/english';
import { stemmer as finnish } from '@orama/stemmers/finnish';
import { stemmer as french } from '@orama/stemmers/french';
import { stemmer as german } from '@orama/stemmers/german';
import { stemmer as italian } from '@orama/stemmers/italian';
import { stemmer as norwegian } from '@orama/stemmers/norwegian';
import { stemmer as portuguese } from '@orama/stemmers/portuguese';
import { stemmer as spanish } from '@orama/stemmers/spanish';
import { stemmer as swedish } from '@orama/stemmers/swedish';

import type { Language } from '../../../platform/config/languages.js';

export { LANGUAGES, type Language } from '../../../platform/config/languages.js';

const STEMMERS: Record<Language, (word: string) => string> = { english, danish, dutch, finnish, french, german, italian, norwegian, portuguese, spanish, swedish };

export function stemmerOf(language: Language): (word: string) => string {
  return STEMMERS[language];
}

/**
 * Words that say nothing about a product, left out of a query that has other words ("cup of tea"):
 * in nearly every description, each would cost a pass over the whole catalog and drop nothing. Only
 * English has a list so far; other languages keep every word.
 */
const STOP_WORDS: Partial<Record<Language, ReadonlySet<string>>> = {
  english: new Set(['a', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'for', 'from', 'in', 'into', 'is', 'it', 'its', 'of', 'on', 'or', 'our', 'that', 'the', 'their', 'this', 'to', 'was', 'with', 'you', 'your']),
};

export function isStopWord(language: Language, word: string): boolean {
  return STOP_WORDS[language]?.has(word) ?? false;
}

/** Words shorter than this are never stemmed: "bag"/"bags" fold, but two-letter words are mostly codes and sizes. */
const MIN_STEMMED = 3;

/** Stems remembered per language, at most: past it the memory starts again empty. */
const STEMS_KEPT = 20_000;

/**
 * Stem keys with the stems computed lately, per language: an index build and then each query ask for
 * the same words several times. One per vocabulary (TypoVocabulary.stemKeys), bounded.
 */
export class StemKeys {
  private readonly stemmed = new Map<Language, Map<string, string>>();

  /** The key under which `word` is grouped with its other forms ("" for a word that is not folded). */
  key(language: Language, word: string): string {
    if (word.length < MIN_STEMMED || /\d/.test(word)) return '';
    let memo = this.stemmed.get(language);
    if (memo === undefined) this.stemmed.set(language, (memo = new Map()));
    let stem = memo.get(word);
    if (stem === undefined) {
      if (memo.size >= STEMS_KEPT) memo.clear();
      memo.set(word, (stem = stemmerOf(language)(word)));
    }
    return stem;
  }
}

/** Whether two words of one Snowball group are inflections of each other (the English guard above). */
export function sameLemma(language: Language, a: string, b: string): boolean {
  if (language !== 'english') return true;
  const x = englishBases(a);
  for (const base of englishBases(b)) if (x.has(base)) return true;
  return false;
}

/**
 * Forms `word` may be an inflection of, itself excluded: typo correction tries them when the word
 * itself is not one edit from a catalog word ("cushoins" → "cushoin" → "cushion").
 */
export function inflectionBases(stems: StemKeys, language: Language, word: string): string[] {
  if (language === 'english') return [...englishBases(word)].filter((base) => base !== word);
  const stem = stems.key(language, word);
  return stem === '' || stem === word ? [] : [stem];
}

/** The forms an English word may be an inflection of, itself included. */
function englishBases(word: string): Set<string> {
  const out = new Set([word]);
  const cut = (suffix: string): string | undefined => (word.endsWith(suffix) && word.length - suffix.length >= 2 ? word.slice(0, -suffix.length) : undefined);
  const undouble = (stem: string): void => {
    out.add(stem);
    out.add(`${stem}e`);
    const n = stem.length;
    if (n >= 3 && stem[n - 1] === stem[n - 2]) out.add(stem.slice(0, -1));
  };
  const ies = cut('ies');
  if (ies !== undefined) out.add(`${ies}y`);
  const es = cut('es');
  if (es !== undefined) out.add(es);
  if (word.endsWith('s') && !word.endsWith('ss')) {
    const s = cut('s');
    if (s !== undefined) out.add(s);
  }
  const ied = cut('ied');
  if (ied !== undefined) out.add(`${ied}y`);
  const ed = cut('ed');
  if (ed !== undefined) undouble(ed);
  const ing = cut('ing');
  if (ing !== undefined) undouble(ing);
  return out;
}
