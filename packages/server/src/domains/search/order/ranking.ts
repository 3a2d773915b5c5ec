/** Ordering a match set: merchandising tiers, the requested sort, relevance, then the default order. */

/** Compares two entries (positions into the match arrays); negative when `a` comes first. */
export type EntryOrder = (a: number, b: number) => number;

/**
 * The first `k` of `length` entries in order, without sorting all of them: a bounded heap keeps the
 * worst of the best `k` on top, so a broad query costs one pass plus log(k) per improvement. Entries
 * are `0..length-1`, or the first `length` values of `entries` when given.
 *
 * `leading`, when given, is a score per entry that `order` compares first (higher first): an entry
 * scoring below the worst kept one is then dropped on that number alone, without calling `order`.
 * `ties`, given with it, says how `order` breaks a tie on `leading`: by `rank` of the entry's document
 * (lower first; none when undefined), then by the document (lower first). An entry tying the worst kept
 * one and worse on those is dropped without `order` too: a broad query's matches often tie on score
 * ("the" in every item), and a call of `order` per match cost more than the rest of the pass.
 * `ranked`, given instead of `leading`, is what `order` compares first when that is a sort: the rank
 * of the entry's document (lower first); an entry ranked after the worst kept one is dropped on it.
 */
export function firstInOrder(
  length: number,
  k: number,
  order: EntryOrder,
  entries?: Int32Array,
  leading?: Float32Array,
  ties?: { docs: Int32Array; rank: Int32Array | undefined },
  ranked?: { docs: Int32Array; rank: Int32Array },
): number[] {
  if (k <= 0 || length === 0) return [];
  if (length <= k * 4) {
    const all = entries === undefined ? Array.from({ length }, (_, i) => i) : Array.from(entries.subarray(0, length));
    return all.sort(order).slice(0, k);
  }
  const heap: number[] = [];
  const worse = (a: number, b: number): boolean => order(a, b) > 0;
  // The worst kept entry's leading score, document and rank, read again only when it changes.
  let worstScore = 0;
  let worstDoc = 0;
  let worstRank = 0;
  const noteWorst = (): void => {
    if (ranked !== undefined) worstRank = ranked.rank[ranked.docs[heap[0]!]!]!;
    if (leading === undefined) return;
    worstScore = leading[heap[0]!]!;
    if (ties === undefined) return;
    worstDoc = ties.docs[heap[0]!]!;
    worstRank = ties.rank === undefined ? 0 : ties.rank[worstDoc]!;
  };
  for (let i = 0; i < length; i++) {
    const entry = entries === undefined ? i : entries[i]!;
    if (heap.length < k) {
      heap.push(entry);
      let at = heap.length - 1;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (!worse(heap[at]!, heap[parent]!)) break;
        [heap[at], heap[parent]] = [heap[parent]!, heap[at]!];
        at = parent;
      }
      if (heap.length === k) noteWorst();
      continue;
    }
    if (ranked !== undefined && ranked.rank[ranked.docs[entry]!]! > worstRank) continue;
    if (leading !== undefined) {
      const score = leading[entry]!;
      if (score < worstScore) continue;
      if (score === worstScore && ties !== undefined) {
        const doc = ties.docs[entry]!;
        const rank = ties.rank === undefined ? 0 : ties.rank[doc]! - worstRank;
        if (rank > 0 || (rank === 0 && doc > worstDoc)) continue;
      }
    }
    if (!worse(heap[0]!, entry)) continue;
    heap[0] = entry;
    let at = 0;
    for (;;) {
      const left = at * 2 + 1;
      const right = left + 1;
      let worst = at;
      if (left < k && worse(heap[left]!, heap[worst]!)) worst = left;
      if (right < k && worse(heap[right]!, heap[worst]!)) worst = right;
      if (worst === at) break;
      [heap[at], heap[worst]] = [heap[worst]!, heap[at]!];
      at = worst;
    }
    noteWorst();
  }
  return heap.sort(order);
}
