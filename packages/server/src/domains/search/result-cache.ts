/**
 * Recent answers per index, for the queries shoppers repeat (the head of a shop's query list is most of
 * its traffic). An entry is only reused for the same index at the same revision: any write to the
 * catalog (index.apply) or a promotion starts an empty cache, so an answer is never staler than the index.
 */
import type { SearchConfiguration } from '../../platform/config/schema.js';
import type { SearchIndex } from './index/search-index.js';
import { deleteOldest } from '../../platform/collections/oldest-first.js';

/** Least recently used first: a Map iterates in insertion order, and a hit re-inserts its entry. */
export class ResultCache<V> {
  private entries = new Map<string, V>();
  private index: SearchIndex | undefined;
  private revision = -1;
  private readonly configurationIds = new WeakMap<SearchConfiguration, number>();
  private nextConfigurationId = 0;

  constructor(public capacity: number) {}

  /** The cache key of a request: the configuration by identity, then everything else that shapes the answer. */
  key(configuration: SearchConfiguration, parts: readonly unknown[]): string {
    let id = this.configurationIds.get(configuration);
    if (id === undefined) this.configurationIds.set(configuration, (id = this.nextConfigurationId++));
    return `${id}\u0000${JSON.stringify(parts)}`;
  }

  get(index: SearchIndex, key: string): V | undefined {
    if (this.capacity <= 0) return undefined;
    this.align(index);
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(index: SearchIndex, key: string, value: V): void {
    if (this.capacity <= 0) return;
    this.align(index);
    this.entries.set(key, value);
    while (this.entries.size > this.capacity) deleteOldest(this.entries);
  }

  private align(index: SearchIndex): void {
    if (this.index === index && this.revision === index.revision) return;
    this.index = index;
    this.revision = index.revision;
    this.entries = new Map();
  }
}
