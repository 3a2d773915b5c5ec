/**
 * How far V8 lets the heap grow past what the last full collection kept before it collects again.
 * Left to itself V8 picks a factor of up to 4 when a process allocates fast, which a server under a
 * flood of public traffic does: with 570 MB live after 1,000,000 activities, the committed heap went
 * to 1.5 GB between collections (RSS peaks of 1.77 GB, 1.19 GB after). A fixed factor of 1.3 (with
 * the 64 MB young generation `npm start` sets) kept the peak at 1.34 GB, with more frequent but
 * concurrent full collections and no slower flood (docs/operations.md, "Memory under a flood").
 * The flag is read at each collection, so setting it at run time works: the companion sets it once its
 * start is done (apps/companion/src/main.ts), leaving V8's own growth to the start's restore.
 */
import { setFlagsFromString } from 'node:v8';

/** Default growth past the live heap, in percent (0: V8's own choice). */
export const DEFAULT_HEAP_GROWTH_PERCENT = 30;

export function limitHeapGrowth(percent: number): void {
  if (!Number.isInteger(percent) || percent < 0 || percent > 400) throw new RangeError(`heap growth must be an integer percentage from 0 to 400, not ${percent}`);
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}
