/**
 * Top-k selection without sorting: the ranking code (EASE neighbours, similar items, personalised
 * candidates, popularity, interaction pruning) keeps the best k of many scores by first finding the
 * k-th best, then one pass over the rest.
 */

/** The k-th largest of values[0..count) (1-based k ≤ count), by quickselect; reorders the values. */
export function kthLargest(values: Float64Array, count: number, k: number): number {
  let low = 0;
  let high = count - 1;
  const target = k - 1;
  while (low < high) {
    const pivot = values[(low + high) >>> 1]!;
    let i = low;
    let j = high;
    while (i <= j) {
      while (values[i]! > pivot) i++;
      while (values[j]! < pivot) j--;
      if (i <= j) {
        const t = values[i]!;
        values[i++] = values[j]!;
        values[j--] = t;
      }
    }
    if (target <= j) high = j;
    else if (target >= i) low = i;
    else return values[target]!;
  }
  return values[target]!;
}
