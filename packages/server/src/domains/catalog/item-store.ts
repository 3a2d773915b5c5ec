/**
 * Items of one catalog version (or one older-API version), sharded by a hash of the item key over
 * SHARD_COUNT documents: a patch of ten items rewrites at most ten small files, never the whole
 * 100,000-item catalog, and a catalog is dropped by removing its shards.
 */
import type { DocumentStore, StoredDocument } from '../../platform/store/document-store.js';
import { deleteOwn, getOwn, setOwn } from './own-record.js';
import type { ItemScope, StoredItem } from './types.js';

export const SHARD_COUNT = 32;

interface Shard {
  items: Record<string, StoredItem>;
}

/** FNV-1a: cheap, stable across restarts and processes, and spreads ids evenly. */
export function shardOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % SHARD_COUNT;
}

export function scopePrefix(scope: ItemScope): string {
  return `tenants/${scope.tenantId}/envs/${scope.environmentId}/${scope.api}/${scope.version}/`;
}

export class ItemStore {
  private readonly store: DocumentStore;
  /** Shards whose changes by another process are listened to (stores shared by several processes only). */
  private readonly watched = new Set<string>();
  private readonly elsewhere: Array<(scope: ItemScope) => void> = [];

  constructor(store: DocumentStore) {
    this.store = store;
  }

  /** Tells `listener` of a shard of `scope` that another process sharing the store changed. */
  onChangedElsewhere(listener: (scope: ItemScope) => void): void {
    this.elsewhere.push(listener);
  }

  private async shard(scope: ItemScope, index: number): Promise<StoredDocument<Shard>> {
    const name = `${scopePrefix(scope)}items-${String(index).padStart(2, '0')}`;
    const doc = await this.store.document<Shard>(name, () => ({ items: {} }));
    if (doc.onChange !== undefined && !this.watched.has(name)) {
      this.watched.add(name);
      doc.onChange(() => {
        for (const listener of this.elsewhere) listener(scope);
      });
    }
    return doc;
  }

  async get(scope: ItemScope, key: string): Promise<StoredItem | undefined> {
    const shard = await this.shard(scope, shardOf(key));
    return getOwn(shard.data.items, key);
  }

  /** The stored items among `keys`; absent keys are left out. */
  async getMany(scope: ItemScope, keys: Iterable<string>): Promise<Map<string, StoredItem>> {
    const byShard = groupByShard([...keys], (key) => key);
    const found = new Map<string, StoredItem>();
    await Promise.all(
      [...byShard].map(async ([index, group]) => {
        const shard = await this.shard(scope, index);
        for (const key of group) {
          const item = getOwn(shard.data.items, key);
          if (item !== undefined) found.set(key, item);
        }
      }),
    );
    return found;
  }

  /** Every item of the scope, shard by shard; order is stable but not insertion order. */
  async all(scope: ItemScope): Promise<StoredItem[]> {
    const out: StoredItem[] = [];
    for (let index = 0; index < SHARD_COUNT; index++) {
      const shard = await this.shard(scope, index);
      for (const item of Object.values(shard.data.items)) out.push(item);
    }
    return out;
  }

  /** The items shard by shard, for a caller that need not hold the whole catalog at once. */
  async *iterate(scope: ItemScope): AsyncGenerator<StoredItem> {
    for (let index = 0; index < SHARD_COUNT; index++) {
      const shard = await this.shard(scope, index);
      yield* Object.values(shard.data.items);
    }
  }

  async count(scope: ItemScope): Promise<number> {
    let total = 0;
    for (let index = 0; index < SHARD_COUNT; index++) total += Object.keys((await this.shard(scope, index)).data.items).length;
    return total;
  }

  /**
   * Writes already-validated changes, touching only the shards they fall in, as one atomic write: after
   * a crash every touched shard holds the batch or none does (a batch is never half loaded).
   */
  async write(scope: ItemScope, upserts: readonly StoredItem[], removedKeys: readonly string[] = []): Promise<void> {
    const ups = groupByShard(upserts, (item) => item.key);
    const dels = groupByShard(removedKeys, (key) => key);
    const touched = [...new Set([...ups.keys(), ...dels.keys()])].sort((a, b) => a - b);
    if (touched.length === 0) return;
    const shards = await Promise.all(touched.map((index) => this.shard(scope, index)));
    await this.store.updateMany(
      touched.map((index, n) => ({
        document: shards[n]! as StoredDocument<object>,
        mutate: (data: object) => {
          const items = (data as Shard).items;
          for (const item of ups.get(index) ?? []) setOwn(items, item.key, item);
          for (const key of dels.get(index) ?? []) deleteOwn(items, key);
        },
      })),
    );
  }

  /** Removes every shard file of the scope. */
  async drop(scope: ItemScope): Promise<void> {
    for (const name of await this.store.list(scopePrefix(scope))) await this.store.remove(name);
  }
}

function groupByShard<T>(values: readonly T[], keyOf: (value: T) => string): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const value of values) {
    const index = shardOf(keyOf(value));
    let group = groups.get(index);
    if (group === undefined) groups.set(index, (group = []));
    group.push(value);
  }
  return groups;
}

/** The scopes of one tenant that hold item files for `api`, found from the stored document names. */
export async function storedScopes(store: DocumentStore, tenantId: string, api: ItemScope['api']): Promise<ItemScope[]> {
  const found = new Map<string, ItemScope>();
  for (const name of await store.list(`tenants/${tenantId}/envs/`)) {
    const match = /^tenants\/[^/]+\/envs\/([^/]+)\/([^/]+)\/(\d+)\/items-\d+$/.exec(name);
    if (match === null || match[2] !== api) continue;
    const scope: ItemScope = { tenantId, environmentId: match[1]!, api, version: Number(match[3]) };
    found.set(`${scope.environmentId}/${scope.version}`, scope);
  }
  return [...found.values()];
}
