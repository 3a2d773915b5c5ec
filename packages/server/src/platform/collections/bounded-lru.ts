/** A map that forgets its least recently written entry past a fixed size: attribution keyed by what the public sends. */
import { deleteOldest } from './oldest-first.js';

export class BoundedLru<V> {
  private readonly kept = new Map<string, V>();

  constructor(private readonly capacity: number) {}

  get(key: string): V | undefined {
    return this.kept.get(key);
  }

  set(key: string, value: V): void {
    this.kept.delete(key);
    this.kept.set(key, value);
    if (this.kept.size > this.capacity) deleteOldest(this.kept);
  }

  /** Removes every entry whose key starts with `prefix` (erasure of a person's attribution memory). */
  deletePrefix(prefix: string): void {
    for (const key of [...this.kept.keys()]) if (key.startsWith(prefix)) this.kept.delete(key);
  }

  /** Least recently written first: setting them in this order into an empty map rebuilds it (snapshots). */
  entries(): IterableIterator<[string, V]> {
    return this.kept.entries();
  }

  clear(): void {
    this.kept.clear();
  }

  get size(): number {
    return this.kept.size;
  }
}
