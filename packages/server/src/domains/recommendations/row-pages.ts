/**
 * Where the shoppers' interaction rows (interactions.ts) keep their numbers. Most shoppers touch a few
 * items, and a typed array of its own per shopper cost an ArrayBuffer, a typed array object and a
 * separately allocated backing store each: about 250 bytes beside the numbers, and three objects the
 * garbage collector visits (and a buffer it sweeps) for every shopper, in every process of a cluster.
 * Small rows are therefore blocks of shared pages: a block holds a row of a power-of-two capacity up to
 * POOLED_CAPACITY, blocks a row grew out of (or a forgotten shopper left) are reused for the next row
 * of that capacity, and a page is never moved or copied. A row past POOLED_CAPACITY (a heavy shopper)
 * gets an array of its own, as before.
 */

/** Ints per page: 4 MB. */
const PAGE_INTS = 1 << 20;
/** The largest capacity (entries per row) kept in pages; larger rows own their array. */
const POOLED_CAPACITY = 64;
/** Numbers per entry of a row (interactions.ts: item, weight, first, last, buys, first buy, last buy). */
export const SEGMENTS = 7;

/** A block: the array holding the row and where in it the row starts. */
export interface Block {
  data: Int32Array<ArrayBuffer>;
  base: number;
  /** The page's number, or -1 for an array of the row's own. */
  page: number;
}

export class RowPages {
  private readonly pages: Int32Array<ArrayBuffer>[] = [];
  /** Ints handed out of the newest page. */
  private used = PAGE_INTS;
  /** Per pooled capacity: freed blocks, each as page number × PAGE_INTS + base. */
  private readonly free = new Map<number, number[]>();

  /** The capacity a row of `length` entries is given: a power of two, at least 4. */
  static capacityFor(length: number): number {
    let capacity = 4;
    while (capacity < length) capacity *= 2;
    return capacity;
  }

  /** A zeroed block for a row of `capacity` entries (a power of two from `capacityFor`). */
  allocate(capacity: number): Block {
    const ints = SEGMENTS * capacity;
    if (capacity > POOLED_CAPACITY) return { data: new Int32Array(ints), base: 0, page: -1 };
    const reused = this.free.get(capacity)?.pop();
    if (reused !== undefined) {
      const page = Math.floor(reused / PAGE_INTS);
      const base = reused % PAGE_INTS;
      const data = this.pages[page]!;
      data.fill(0, base, base + ints);
      return { data, base, page };
    }
    if (this.used + ints > PAGE_INTS) {
      this.pages.push(new Int32Array(PAGE_INTS));
      this.used = 0;
    }
    const base = this.used;
    this.used += ints;
    return { data: this.pages.at(-1)!, base, page: this.pages.length - 1 };
  }

  /** Gives a block back; the next row of its capacity reuses it. A row's own array is left to the collector. */
  release(block: Block, capacity: number): void {
    if (block.page < 0 || capacity > POOLED_CAPACITY) return;
    let list = this.free.get(capacity);
    if (list === undefined) this.free.set(capacity, (list = []));
    list.push(block.page * PAGE_INTS + block.base);
  }
}
