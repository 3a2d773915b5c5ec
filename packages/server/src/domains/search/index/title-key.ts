/** Fingerprints of folded titles: the exact-title bonus compares integers before strings. */

/** A cheap fingerprint of a folded title, so the exact-title check reads a typed array, not every document. */
export function titleKey(title: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < title.length; i++) h = Math.imul(h ^ title.charCodeAt(i), 0x01000193);
  return h | 0;
}

/** Word pairs fingerprinted per title; a longer title is marked and checked as a string. */
export const TITLE_PAIRS = 8;
export const TITLE_PAIRS_OVERFLOW = 255;

/** Per index slot: its folded title's fingerprint, and its adjacent word pairs' (the phrase check compares integers before strings). */
export class TitleFingerprints {
  /** Slot → fingerprint of its folded title (matcher's exact-title check). */
  keys = new Int32Array(1024);
  /** Slot → fingerprints of its title's adjacent word pairs, TITLE_PAIRS per slot. */
  pairs = new Int32Array(1024 * TITLE_PAIRS);
  /** Slot → how many pairs it has (TITLE_PAIRS_OVERFLOW for a longer title). */
  pairCounts = new Uint8Array(1024);

  set(slot: number, title: string): void {
    if (slot >= this.keys.length) {
      const size = Math.max(slot + 1, this.keys.length * 2);
      const keys = new Int32Array(size);
      keys.set(this.keys);
      this.keys = keys;
      const pairs = new Int32Array(size * TITLE_PAIRS);
      pairs.set(this.pairs);
      this.pairs = pairs;
      const counts = new Uint8Array(size);
      counts.set(this.pairCounts);
      this.pairCounts = counts;
    }
    this.keys[slot] = titleKey(title);
    const words = title.split(' ');
    const pairs = words.length - 1;
    this.pairCounts[slot] = pairs > TITLE_PAIRS ? TITLE_PAIRS_OVERFLOW : Math.max(0, pairs);
    for (let i = 0; i < Math.min(pairs, TITLE_PAIRS); i++) this.pairs[slot * TITLE_PAIRS + i] = titleKey(`${words[i]} ${words[i + 1]}`);
  }

  /** Whether a title's word pairs include every pair of the phrase (a necessary condition for holding it). */
  hasPairs(slot: number, phrasePairs: readonly number[]): boolean {
    const count = this.pairCounts[slot]!;
    if (count === TITLE_PAIRS_OVERFLOW) return true;
    const start = slot * TITLE_PAIRS;
    for (const wanted of phrasePairs) {
      let found = false;
      for (let i = 0; i < count; i++) {
        if (this.pairs[start + i] === wanted) {
          found = true;
          break;
        }
      }
      if (!found) return false;
    }
    return true;
  }
}

/** Whether `phrase` occurs in `title` on word boundaries, without building padded copies of either. */
export function containsPhrase(title: string, phrase: string): boolean {
  for (let at = title.indexOf(phrase); at >= 0; at = title.indexOf(phrase, at + 1)) {
    const end = at + phrase.length;
    if ((at === 0 || title.charCodeAt(at - 1) === 32) && (end === title.length || title.charCodeAt(end) === 32)) return true;
  }
  return false;
}
