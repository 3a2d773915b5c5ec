/**
 * The search index of each environment's active catalog, and its lifecycle. A promotion builds the
 * new catalog's index in slices that yield to the event loop (sliced-work.ts), so no request of any
 * tenant waits on it; the previous index serves until the new one is complete and warm, and the
 * promotion awaits the swap. Server start builds catalogs already active the same way. Writes to the active catalog then
 * reach the live index as changes to the written items only (index.apply), a slice at a time between
 * requests.
 *
 * After each build, and again once writes to the active catalog have been quiet for a while, the index
 * is written through the BlobStore as a snapshot (index-snapshot.ts), serialized in slices in the
 * background. A start restores each active catalog's index from its snapshot instead of building it;
 * a missing, damaged, older or mismatched snapshot is refused with one warning and the index is built.
 */
import type { CatalogService } from '../catalog/catalog-service.js';
import type { ItemsChanged, StoredItem } from '../catalog/types.js';
import type { ConfigRegistry } from '../../platform/config/registry.js';
import type { SearchConfiguration } from '../../platform/config/schema.js';
import type { Logger } from '../../platform/logger.js';
import type { BlobStore } from '../../platform/blob-store/blob-store.js';
import { decodeSnapshot } from './index/index-snapshot.js';
import { ResultCache } from './result-cache.js';
import { SearchIndex, type IndexWarmUp } from './index/search-index.js';
import { runInSlices, SLICE_MS } from '../../platform/sliced-work.js';
import type { SearchResult } from './search-pipeline.js';

/** One environment's live index, and the answers remembered for it. */
export interface ActiveIndex {
  version: number;
  index: SearchIndex;
  cache: ResultCache<SearchResult>;
}

/**
 * What the indexes read of the catalog: its activations, its item changes, its items, its active
 * versions. A search thread (threads/search-thread.ts) answers these from what the main thread sends.
 */
export type IndexedCatalog = Pick<CatalogService, 'onActivate' | 'onItemsChanged' | 'onItemsChangedElsewhere' | 'allItems'> & {
  catalogs: { active(tenantId: string, environmentId: string): Promise<{ version: number } | undefined> };
};

export interface SearchIndexesDeps {
  catalog: IndexedCatalog;
  registry: ConfigRegistry;
  logger: Logger;
  /** Where index snapshots are kept; without it every start builds. */
  blobs?: BlobStore;
  onIndexBuilt?: (seconds: number) => void;
  /** Entries a new index's result cache holds (the search service adjusts it per request after). */
  resultCacheSize: () => number;
  /** True (an ingest-only process, which answers no search): no index is ever built, restored or kept. */
  dormant?: boolean;
}

/** Quiet time after the last applied write before the snapshot is written again (a restart then restores instead of building). */
const SNAPSHOT_AFTER_WRITES_MS = 30_000;

/** When a snapshot is due while another of the same environment is being written: tried again after this. */
const SNAPSHOT_RETRY_MS = 1_000;

/** Items applied per step; steps run until the turn's time slice is used, so a 5,000-item load does not stall queries. */
const APPLY_STEP = 50;

export class SearchIndexes {
  private readonly indexes = new Map<string, ActiveIndex>();
  private readonly queued = new Map<string, { version: number; changes: ItemsChanged[] }>();
  private readonly draining = new Map<string, Promise<void>>();
  /**
   * Changes to the live version while an index of that same version is rebuilt (a configuration now
   * weighs a new field): the rebuild read its items before them, so they are applied again after the swap.
   */
  private readonly rebuilding = new Map<string, { version: number; changes: ItemsChanged[] }>();

  constructor(private readonly deps: SearchIndexesDeps) {
    if (deps.dormant === true) return;
    deps.catalog.onActivate((tenantId, environmentId, version, items) => this.build(tenantId, environmentId, version, items));
    deps.catalog.onItemsChanged((change) => this.enqueue(change));
    // Another process patched an active catalog: its changes are not known item by item here, so the
    // environment's index is built again from the store, once per burst of notices.
    deps.catalog.onItemsChangedElsewhere((scope) => {
      if (scope.api !== 'catalog') return;
      const k = key(scope.tenantId, scope.environmentId);
      if (this.indexes.get(k)?.version !== scope.version || this.rebuildTimers.has(k)) return;
      const timer = setTimeout(() => {
        this.rebuildTimers.delete(k);
        if (this.indexes.get(k)?.version !== scope.version) return;
        // The build is sliced and asynchronous: its failure is logged like the read's.
        this.deps.catalog
          .allItems(scope.tenantId, scope.environmentId, scope.version)
          .then((items) => this.build(scope.tenantId, scope.environmentId, scope.version, items))
          .catch((error: unknown) => this.deps.logger.error({ err: error, ...scope }, 'search index rebuild after another process\'s write failed'));
      }, 200);
      timer.unref();
      this.rebuildTimers.set(k, timer);
    });
  }

  /** Rebuilds scheduled after another process's writes, one per environment per burst. */
  private readonly rebuildTimers = new Map<string, NodeJS.Timeout>();

  /** The environment's live index, or undefined before its first catalog is active. */
  active(tenantId: string, environmentId: string): ActiveIndex | undefined {
    return this.indexes.get(key(tenantId, environmentId));
  }

  /** Documents in the live indexes, every environment together (the operator's metrics). */
  documentCount(): number {
    let documents = 0;
    for (const active of this.indexes.values()) documents += active.index.size;
    return documents;
  }

  /** Restores (or, without a usable snapshot, builds) the indexes of catalogs that were already active when the server started. */
  async start(): Promise<void> {
    if (this.deps.dormant === true) return;
    for (const tenant of this.deps.registry.tenantList) {
      for (const environment of tenant.environments) {
        const active = await this.deps.catalog.catalogs.active(tenant.id, environment.id);
        if (active === undefined) continue;
        const items = await this.deps.catalog.allItems(tenant.id, environment.id, active.version);
        if (!(await this.restore(tenant.id, environment.id, active.version, items))) await this.build(tenant.id, environment.id, active.version, items);
      }
    }
  }

  /** Snapshot writes under way and scheduled, per environment. */
  private readonly snapshotWrites = new Map<string, Promise<void>>();
  private readonly snapshotTimers = new Map<string, NodeJS.Timeout>();
  private closed = false;

  /** Stops scheduling snapshots and waits for those being written. */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.snapshotTimers.values()) clearTimeout(timer);
    this.snapshotTimers.clear();
    for (const timer of this.rebuildTimers.values()) clearTimeout(timer);
    this.rebuildTimers.clear();
    await Promise.all(this.snapshotWrites.values());
  }

  /** Waits until the snapshots under way are written (tests). */
  async snapshotsWritten(): Promise<void> {
    while (this.snapshotWrites.size > 0) await Promise.all(this.snapshotWrites.values());
  }

  /** Restores the environment's index from its snapshot; false (after one warning) when there is none usable. */
  private async restore(tenantId: string, environmentId: string, version: number, items: readonly StoredItem[]): Promise<boolean> {
    const blobs = this.deps.blobs;
    if (blobs === undefined) return false;
    const started = performance.now();
    const scope = { tenantId, environmentId, version };
    let reason: string;
    try {
      const bytes = await blobs.get(snapshotName(tenantId, environmentId));
      const decoded = bytes === undefined ? 'there is no snapshot' : decodeSnapshot(bytes);
      if (typeof decoded === 'string') reason = decoded;
      else if (decoded.header.catalogVersion !== version) reason = `the snapshot is of catalog version ${decoded.header.catalogVersion}`;
      else {
        const restored = await runInSlices(SearchIndex.restoring(items, this.searchedFields(tenantId, environmentId), this.warmUp(tenantId, environmentId), decoded));
        if (typeof restored !== 'string') {
          this.indexes.set(key(tenantId, environmentId), { version, index: restored, cache: new ResultCache(this.deps.resultCacheSize()) });
          this.deps.logger.info({ ...scope, documents: restored.size, ms: Math.round(performance.now() - started), restored: true }, 'search index built');
          return true;
        }
        reason = restored;
      }
    } catch (error) {
      // A snapshot that cannot be read or decoded is one more reason to build; the build then decides the start.
      reason = error instanceof Error ? error.message : String(error);
    }
    this.deps.logger.warn({ ...scope, reason }, 'search index snapshot not used: building the index');
    return false;
  }

  /** Writes the environment's live index as its snapshot after `delayMs`, in slices, unless the server closes. */
  private scheduleSnapshot(k: string, delayMs: number): void {
    if (this.deps.blobs === undefined || this.closed) return;
    clearTimeout(this.snapshotTimers.get(k));
    const timer = setTimeout(() => {
      this.snapshotTimers.delete(k);
      this.startSnapshot(k);
    }, delayMs);
    timer.unref();
    this.snapshotTimers.set(k, timer);
  }

  /** Starts writing the snapshot now (registered at once, so `snapshotsWritten` sees it); after the one under way, if any. */
  private startSnapshot(k: string): void {
    if (this.deps.blobs === undefined || this.closed) return;
    if (this.snapshotWrites.has(k)) return this.scheduleSnapshot(k, SNAPSHOT_RETRY_MS);
    const write = this.writeSnapshot(k)
      .catch((error: unknown) => this.deps.logger.warn({ err: error }, 'search index snapshot not written'))
      .finally(() => this.snapshotWrites.delete(k));
    this.snapshotWrites.set(k, write);
  }

  private async writeSnapshot(k: string): Promise<void> {
    const live = this.indexes.get(k);
    if (live === undefined || this.closed) return;
    const { index, version } = live;
    const revision = index.revision;
    // A stop does not wait for a whole serialization: the snapshot of the last quiet time stays.
    const bytes = await runInSlices(unlessClosed(index.snapshot(version), () => this.closed));
    if (bytes === undefined) return;
    // A write applied while it was serialized: this one is not of one moment; the next quiet time writes it.
    if (index.revision !== revision || this.indexes.get(k)?.index !== index) return this.scheduleSnapshot(k, SNAPSHOT_AFTER_WRITES_MS);
    const [tenantId, environmentId] = k.split('\u0000') as [string, string];
    await this.deps.blobs!.put(snapshotName(tenantId, environmentId), bytes);
  }

  /** Waits until queued item changes have reached the index, so tests read an index that includes their writes. */
  async settled(): Promise<void> {
    while (this.draining.size > 0) await Promise.all(this.draining.values());
  }

  /**
   * After a runtime configuration change (admin API): rebuilds the environment's index when its
   * configurations now weigh a field the index does not hold; otherwise nothing to do.
   */
  async refreshFields(tenantId: string, environmentId: string): Promise<boolean> {
    const current = this.indexes.get(key(tenantId, environmentId));
    if (current === undefined) return false;
    const indexed = new Set(current.index.fields);
    if (this.searchedFields(tenantId, environmentId).every((field) => indexed.has(field))) return false;
    // From before the items are read: a write landing after that read must reach the new index too.
    const k = key(tenantId, environmentId);
    const missed = this.missedDuringRebuild(k, current.version);
    try {
      await this.settled();
      const items = await this.deps.catalog.allItems(tenantId, environmentId, current.version);
      await this.build(tenantId, environmentId, current.version, items);
    } finally {
      // A failed read or build must not leave the record growing with every later write.
      if (this.rebuilding.get(k) === missed) this.rebuilding.delete(k);
    }
    return true;
  }

  /** The record of changes an ongoing rebuild of `version` must apply after its swap, started if none is. */
  private missedDuringRebuild(k: string, version: number): { version: number; changes: ItemsChanged[] } {
    let missed = this.rebuilding.get(k);
    if (missed === undefined || missed.version !== version) this.rebuilding.set(k, (missed = { version, changes: [] }));
    return missed;
  }

  /** Text fields any search configuration of the environment weighs: only those are indexed. */
  private searchedFields(tenantId: string, environmentId: string): string[] {
    const fields = new Set<string>();
    for (const c of this.configurations(tenantId, environmentId)) for (const f of c.fields) fields.add(f.attribute);
    return [...fields];
  }

  /** Languages the environment's search configurations use. */
  private languages(tenantId: string, environmentId: string): Set<SearchConfiguration['language']> {
    return new Set(this.configurations(tenantId, environmentId).map((c) => c.language));
  }

  private configurations(tenantId: string, environmentId: string): SearchConfiguration[] {
    const environment = this.deps.registry.findTenant(tenantId)?.environments.find((e) => e.id === environmentId);
    return (environment?.searchTokens ?? []).flatMap((token) => token.configurations);
  }

  /**
   * Builds an index in slices (sliced-work.ts), so requests of every tenant are answered meanwhile; the
   * environment's previous index serves until the new one is whole and warm, then one assignment swaps it.
   */
  private async build(tenantId: string, environmentId: string, version: number, items: readonly StoredItem[]): Promise<void> {
    const started = performance.now();
    const k = key(tenantId, environmentId);
    const live = this.indexes.get(k);
    const previous = live?.index.warmedUp();
    const missed = live?.version === version ? this.missedDuringRebuild(k, version) : undefined;
    let index: SearchIndex;
    try {
      index = await runInSlices(SearchIndex.building(items, this.searchedFields(tenantId, environmentId), this.warmUp(tenantId, environmentId, previous)));
    } catch (error) {
      if (missed !== undefined && this.rebuilding.get(k) === missed) this.rebuilding.delete(k);
      throw error;
    }
    this.indexes.set(k, { version, index, cache: new ResultCache(this.deps.resultCacheSize()) });
    if (missed !== undefined && this.rebuilding.get(k) === missed) {
      this.rebuilding.delete(k);
      // Applying a change twice is harmless: an upsert sets the same item again, removing an absent one does nothing.
      for (const change of missed.changes) this.enqueue(change);
    }
    this.deps.logger.info({ tenantId, environmentId, version, documents: index.size, ms: Math.round(performance.now() - started) }, 'search index built');
    this.deps.onIndexBuilt?.((performance.now() - started) / 1000);
    this.startSnapshot(k);
  }

  /** What a new index of the environment computes before it serves: its configurations' needs and what its predecessor's requests used. */
  private warmUp(tenantId: string, environmentId: string, previous?: Pick<IndexWarmUp, 'attributes' | 'sorts' | 'groups'>): IndexWarmUp {
    const configurations = this.configurations(tenantId, environmentId);
    return {
      languages: [...this.languages(tenantId, environmentId)],
      facets: configurations.flatMap((c) => c.facets),
      attributes: [...new Set([...configurations.flatMap((c) => c.facets.map((f) => f.attribute)), ...(previous?.attributes ?? [])])],
      sorts: [...configurations.map((c) => c.defaultSort).filter((sort) => sort.length > 0), ...(previous?.sorts ?? [])],
      groups: previous?.groups ?? [],
    };
  }

  private enqueue(change: ItemsChanged): void {
    const { scope } = change;
    if (scope.api !== 'catalog') return;
    const k = key(scope.tenantId, scope.environmentId);
    const current = this.indexes.get(k);
    if (current === undefined || current.version !== scope.version) return;
    const rebuild = this.rebuilding.get(k);
    if (rebuild?.version === scope.version) rebuild.changes.push(change);
    let queue = this.queued.get(k);
    if (queue === undefined || queue.version !== scope.version) this.queued.set(k, (queue = { version: scope.version, changes: [] }));
    queue.changes.push(change);
    if (!this.draining.has(k)) {
      const run = this.drain(k)
        .catch((error: unknown) => this.deps.logger.error({ err: error, tenantId: scope.tenantId, environmentId: scope.environmentId }, 'search index update failed'))
        .finally(() => this.draining.delete(k));
      this.draining.set(k, run);
    }
  }

  /** Applies queued changes a time slice per turn; changes for a version that is no longer active are dropped. */
  private async drain(k: string): Promise<void> {
    for (;;) {
      await new Promise((resolve) => setImmediate(resolve));
      const deadline = performance.now() + SLICE_MS;
      while (performance.now() < deadline) {
        const queue = this.queued.get(k);
        const current = this.indexes.get(k);
        if (queue === undefined || queue.changes.length === 0) return;
        const change = queue.changes[0]!;
        if (current === undefined || current.version !== queue.version) {
          this.queued.delete(k);
          return;
        }
        const upserted = change.upserted.slice(0, APPLY_STEP);
        const removedKeys = change.removedKeys.slice(0, APPLY_STEP);
        current.index.apply({ upserted, removedKeys });
        if (upserted.length === change.upserted.length && removedKeys.length === change.removedKeys.length) queue.changes.shift();
        else queue.changes[0] = { ...change, upserted: change.upserted.slice(upserted.length), removedKeys: change.removedKeys.slice(removedKeys.length) };
        if (queue.changes.length === 0) {
          // The sort orders in use, recomputed in slices like the writes themselves.
          await runInSlices(current.index.refreshingOrders());
          this.scheduleSnapshot(k, SNAPSHOT_AFTER_WRITES_MS);
          break;
        }
      }
    }
  }
}

/** `work` stepped until it ends, or undefined once `closed` says so. */
function* unlessClosed<T>(work: Generator<unknown, T>, closed: () => boolean): Generator<unknown, T | undefined> {
  for (;;) {
    if (closed()) return undefined;
    const step = work.next();
    if (step.done === true) return step.value;
    yield;
  }
}

/** The blob an environment's index snapshot is kept in. */
function snapshotName(tenantId: string, environmentId: string): string {
  return `search-indexes/${tenantId}/${environmentId}.index`;
}

function key(tenantId: string, environmentId: string): string {
  return `${tenantId}\u0000${environmentId}`;
}
