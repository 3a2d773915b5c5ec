/**
 * The words of an index with how many documents hold each, and their one-deletion neighbourhood, so
 * that a query word one edit (insertion, deletion or substitution) away from a catalog word can be
 * corrected before FlexSearch is asked. FlexSearch's own "tolerant" tokenizer only covers swapped and
 * dropped letters and found a typo about one time in eight on the benchmark catalog.
 */
import { sameLemma, StemKeys, type Language } from './language.js';

/**
 * A correction is offered when the meant word has four letters or more; a four-letter one only when it
 * is the single catalog word within one edit (see `corrections`).
 */
export const MIN_TYPO_LENGTH = 4;
/** Below this, a correction must be the only candidate: short words have many neighbours ("bowl": "bows", "howl"). */
const SAFE_TYPO_LENGTH = 5;

export class TypoVocabulary {
  /** Stems of this vocabulary's words and of the queries asked of it (the planner's inflection bases too). */
  readonly stemKeys = new StemKeys();
  private readonly counts = new Map<string, number>();
  /** Per language asked so far: Snowball stem → the catalog words having it (kept current by add/remove). */
  private readonly stems = new Map<Language, Map<string, Set<string>>>();
  private readonly deletions = new Map<string, string[]>();
  /**
   * Adjacent title words one of which has at most two letters ("t light" from "T-Light") → titles
   * holding them: a query word is split into a short half only where the catalog writes it so.
   */
  private readonly shortPairs = new Map<string, number>();
  /** Proper prefix → how many vocabulary words extend it: tells the planner whether a word has completions. */
  private readonly extensions = new Map<string, number>();

  /** Whether some catalog word is longer than `word` and starts with it ("lamp" → "lampshade"). */
  hasCompletions(word: string): boolean {
    return (this.extensions.get(word) ?? 0) > 0;
  }

  /** Counts (+1) or uncounts (-1) the short-word pairs of a folded title. */
  titlePairs(title: string, delta: 1 | -1): void {
    if (title === '') return;
    const words = title.split(' ');
    for (let i = 1; i < words.length; i++) {
      const a = words[i - 1]!;
      const b = words[i]!;
      if (a.length > 2 && b.length > 2) continue;
      const key = `${a} ${b}`;
      const n = (this.shortPairs.get(key) ?? 0) + delta;
      if (n > 0) this.shortPairs.set(key, n);
      else this.shortPairs.delete(key);
    }
  }

  /** Whether some title has `a` then `b` (only pairs with a word of at most two letters are kept). */
  hasShortPair(a: string, b: string): boolean {
    return this.shortPairs.has(`${a} ${b}`);
  }

  /** Documents holding `word` (0 when none). */
  frequency(word: string): number {
    return this.counts.get(word) ?? 0;
  }

  get size(): number {
    return this.counts.size;
  }

  /**
   * Catalog words that are other forms of `word` in `language` ("mugs" → "mug"; "mug" → "mugs"), the
   * word itself excluded; a `keepApart` word has no other forms and is no other word's form.
   */
  forms(word: string, language: Language, keepApart: ReadonlySet<string>): string[] {
    if (keepApart.has(word)) return [];
    const key = this.stemKeys.key(language, word);
    if (key === '') return [];
    const group = this.stemGroups(language).get(key);
    if (group === undefined) return [];
    const out: string[] = [];
    for (const other of group) if (other !== word && !keepApart.has(other) && sameLemma(language, word, other)) out.push(other);
    return out;
  }

  /** Groups the vocabulary by stem for `language` now, at index build, rather than at the first query. */
  prepareForms(language: Language): void {
    this.stemGroups(language);
  }

  private stemGroups(language: Language): Map<string, Set<string>> {
    let groups = this.stems.get(language);
    if (groups === undefined) {
      this.stems.set(language, (groups = new Map()));
      for (const word of this.counts.keys()) addToGroup(groups, this.stemKeys.key(language, word), word);
    }
    return groups;
  }

  /** Each word with how many documents hold it (an index snapshot keeps them). */
  entries(): IterableIterator<[string, number]> {
    return this.counts.entries();
  }

  add(word: string, documents = 1): void {
    const count = this.counts.get(word) ?? 0;
    this.counts.set(word, count + documents);
    if (count > 0) return;
    for (const [language, groups] of this.stems) addToGroup(groups, this.stemKeys.key(language, word), word);
    for (let end = 1; end < word.length; end++) {
      const prefix = word.slice(0, end);
      this.extensions.set(prefix, (this.extensions.get(prefix) ?? 0) + 1);
    }
    if (word.length < MIN_TYPO_LENGTH) return;
    for (const variant of deletionsOf(word)) {
      const list = this.deletions.get(variant);
      if (list === undefined) this.deletions.set(variant, [word]);
      else if (!list.includes(word)) list.push(word);
    }
  }

  remove(word: string): void {
    const count = this.counts.get(word) ?? 0;
    if (count > 1) {
      this.counts.set(word, count - 1);
      return;
    }
    this.counts.delete(word);
    if (count === 0) return;
    for (const [language, groups] of this.stems) {
      const key = this.stemKeys.key(language, word);
      const group = groups.get(key);
      group?.delete(word);
      if (group?.size === 0) groups.delete(key);
    }
    for (let end = 1; end < word.length; end++) {
      const prefix = word.slice(0, end);
      const left = (this.extensions.get(prefix) ?? 0) - 1;
      if (left > 0) this.extensions.set(prefix, left);
      else this.extensions.delete(prefix);
    }
    if (word.length < MIN_TYPO_LENGTH) return;
    for (const variant of deletionsOf(word)) {
      const list = this.deletions.get(variant);
      if (list === undefined) continue;
      const at = list.indexOf(word);
      if (at >= 0) list.splice(at, 1);
      if (list.length === 0) this.deletions.delete(variant);
    }
  }

  /**
   * Catalog words exactly one edit from `word` (an insertion, a deletion, a substitution, or two
   * neighbouring letters swapped: Damerau), the word itself excluded. A meant word of four letters is
   * offered only when it is the single candidate: the vocabulary then makes the guess safe.
   */
  corrections(word: string): string[] {
    // "hart" may be "heart" misspelt: the meant word decides, so a four-letter input can still be a typo.
    if (word.length < MIN_TYPO_LENGTH) return [];
    const found = new Set<string>();
    // Two neighbouring letters swapped ("lantren" for "lantern"): one typo, not two substitutions.
    for (let i = 0; i + 1 < word.length; i++) {
      if (word[i] === word[i + 1]) continue;
      const swapped = word.slice(0, i) + word[i + 1]! + word[i]! + word.slice(i + 2);
      if (this.counts.has(swapped)) found.add(swapped);
    }
    // A letter too many: deleting one gives the catalog word.
    for (const variant of deletionsOf(word)) if (this.counts.has(variant) && variant.length >= MIN_TYPO_LENGTH) found.add(variant);
    // A letter missing: the catalog word less one letter is the input.
    for (const term of this.deletions.get(word) ?? []) found.add(term);
    // A wrong letter: both lose the same position.
    for (const variant of deletionsOf(word)) for (const term of this.deletions.get(variant) ?? []) if (term.length === word.length) found.add(term);
    found.delete(word);
    const out = [...found].filter((term) => term.length >= MIN_TYPO_LENGTH && (withinOneEdit(word, term) || isSwap(word, term)));
    if (out.length > 1) return out.filter((term) => term.length >= SAFE_TYPO_LENGTH);
    return out;
  }
}

function addToGroup(groups: Map<string, Set<string>>, key: string, word: string): void {
  if (key === '') return;
  const group = groups.get(key);
  if (group === undefined) groups.set(key, new Set([word]));
  else group.add(word);
}

function isSwap(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i + 1 < a.length && a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
}

function deletionsOf(word: string): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i < word.length; i++) out.add(word.slice(0, i) + word.slice(i + 1));
  return out;
}

function withinOneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) return a.slice(i + 1) === b.slice(i + 1);
  if (a.length > b.length) return a.slice(i + 1) === b.slice(i);
  return a.slice(i) === b.slice(i + 1);
}
