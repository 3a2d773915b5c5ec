/**
 * A Map that forgets its oldest keys (by first insertion) past a size limit. Eviction goes through a
 * ring of keys rather than `map.keys().next()`, which walks the holes deletions leave and turns a
 * million-activity rebuild quadratic.
 */
export class BoundedMap<K, V> {
  private readonly map = new Map<K, V>();
  private readonly ring: Array<K | undefined>;
  private next = 0;

  constructor(limit: number) {
    this.ring = new Array<K | undefined>(limit);
  }

  get size(): number {
    return this.map.size;
  }

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  set(key: K, value: V): void {
    if (!this.map.has(key)) {
      const evicted = this.ring[this.next];
      // A key deleted and set again holds two slots; the older one may evict it early, which only shortens its memory.
      if (evicted !== undefined && this.map.has(evicted)) this.map.delete(evicted);
      this.ring[this.next] = key;
      this.next = (this.next + 1) % this.ring.length;
    }
    this.map.set(key, value);
  }

  delete(key: K): void {
    this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
    this.ring.fill(undefined);
    this.next = 0;
  }

  entries(): IterableIterator<[K, V]> {
    return this.map.entries();
  }
}
