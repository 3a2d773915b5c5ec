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
 */
export function firstInOrder(length: number, k: number, order: EntryOrder, entries?: Int32Array, leading?: Float32Array): number[] {
  if (k <= 0 || length === 0) return [];
  if (length <= k * 4) {
    const all = entries === undefined ? Array.from({ length }, (_, i) => i) : Array.from(entries.subarray(0, length));
    return all.sort(order).slice(0, k);
  }
  const heap: number[] = [];
  const worse = (a: number, b: number): boolean => order(a, b) > 0;
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
      continue;
    }
    if (leading !== undefined && leading[entry]! < leading[heap[0]!]!) continue;
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
  }
  return heap.sort(order);
}
