/**
 * Answers that need no query words: every live document (an empty query) and the items whose titles
 * share the most distinctive words with one item (text similarity, for recommendations).
 */
import { firstInOrder } from '../order/ranking.js';
import { slotsSize, type Matches } from './matcher.js';
import type { SearchIndex } from '../index/search-index.js';

/** Every live document, for an empty query. */
export function allDocuments(index: SearchIndex): Matches {
  const s = index.matchScratch();
  let n = 0;
  for (let slot = 0; slot < index.docs.length; slot++) if (index.docs[slot] !== undefined) s.docs[n++] = slot;
  const scores = s.scores.subarray(0, n);
  scores.fill(0);
  return { docs: s.docs.subarray(0, n), scores, spelledRight: true };
}

/**
 * Items sharing the most distinctive words with `slot`'s title, best first: each shared whole word
 * (FlexSearch's all-text strict index) adds its inverse document frequency. A word on more than a third
 * of the catalog says nothing about likeness and is skipped.
 */
export function similarDocuments(index: SearchIndex, slot: number, limit: number): { doc: number; score: number }[] {
  const doc = index.docs[slot];
  if (doc === undefined || limit <= 0) return [];
  const s = index.matchScratch();
  const { stamp, total } = s;
  s.begin(1);
  const generation = s.next();
  const touchedList = s.listA;
  let touched = 0;
  const size = index.size;
  const shared = [...new Set(doc.title.split(' '))]
    .filter((word) => word !== '')
    .map((word) => {
      const slots = index.wordSlots(word);
      return { slots, frequency: slotsSize(slots) };
    })
    .filter(({ frequency }) => frequency > 0 && frequency <= size / 3)
    .sort((a, b) => a.frequency - b.frequency);
  // Candidates come from the rarest words; once there are plenty, commoner words only add to their
  // scores. An item sharing none of the rare words could not outscore those anyway, and the commonest
  // words of a large catalog would otherwise make every call visit a third of it.
  const enough = Math.max(200, limit * 20);
  for (const { slots, frequency } of shared) {
    const idf = Math.log(1 + size / frequency);
    const open = touched < enough;
    for (const list of slots) {
      if (list === undefined) continue;
      for (let i = 0; i < list.length; i++) {
        const other = list[i]!;
        if (stamp[other] === generation) total[other] = total[other]! + idf;
        else if (open) {
          stamp[other] = generation;
          total[other] = idf;
          touchedList[touched++] = other;
        }
      }
    }
  }
  const order = (a: number, b: number): number => total[b]! - total[a]! || a - b;
  // The item itself shares every word; it is dropped after ordering.
  const best = firstInOrder(touched, limit + 1, order, touchedList);
  return best.filter((other) => other !== slot).slice(0, limit).map((other) => ({ doc: other, score: total[other]! }));
}
