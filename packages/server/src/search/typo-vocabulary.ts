/**
 * The words of an index with how many documents hold each, and their one-deletion neighbourhood, so
 * that a query word one edit (insertion, deletion or substitution) away from a catalog word can be
 * corrected before FlexSearch is asked. FlexSearch's own "tolerant" tokenizer only covers swapped and
 * dropped letters and found a typo about one time in eight on the benchmark catalog.
 */

/** A correction is offered only when the meant word has five letters or more (the spec's rule). */
export const MIN_TYPO_LENGTH = 5;

export class TypoVocabulary {
  private readonly counts = new Map<string, number>();
  private readonly deletions = new Map<string, string[]>();
  /** Proper prefix → how many vocabulary words extend it: tells the planner whether a word has completions. */
  private readonly extensions = new Map<string, number>();

  /** Whether some catalog word is longer than `word` and starts with it ("lamp" → "lampshade"). */
  hasCompletions(word: string): boolean {
    return (this.extensions.get(word) ?? 0) > 0;
  }

  /** Documents holding `word` (0 when none). */
  frequency(word: string): number {
    return this.counts.get(word) ?? 0;
  }

  get size(): number {
    return this.counts.size;
  }

  add(word: string): void {
    const count = this.counts.get(word) ?? 0;
    this.counts.set(word, count + 1);
    if (count > 0) return;
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

  /** Catalog words exactly one edit from `word`, the word itself excluded. */
  corrections(word: string): string[] {
    // "hart" may be "heart" misspelt: the meant word decides, so a four-letter input can still be a typo.
    if (word.length < MIN_TYPO_LENGTH - 1) return [];
    const found = new Set<string>();
    // A letter too many: deleting one gives the catalog word.
    for (const variant of deletionsOf(word)) if (this.counts.has(variant) && variant.length >= MIN_TYPO_LENGTH) found.add(variant);
    // A letter missing: the catalog word less one letter is the input.
    for (const term of this.deletions.get(word) ?? []) found.add(term);
    // A wrong letter: both lose the same position.
    for (const variant of deletionsOf(word)) for (const term of this.deletions.get(variant) ?? []) if (term.length === word.length) found.add(term);
    found.delete(word);
    return [...found].filter((term) => withinOneEdit(word, term));
  }
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
