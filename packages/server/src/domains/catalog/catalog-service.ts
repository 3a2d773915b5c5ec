/**
 * The catalog service every API module shares: item schemas, catalog versions and their promotion,
 * catalog items, the older item API over the same item model, and item contexts. Methods take input
 * whose shape the API modules already parsed (catalog-inputs.ts) and check what needs stored state,
 * throwing `DomainError`s that name the bad field.
 */
import type { Clock } from '../../platform/clock.js';
import type { ConfigRegistry } from '../../platform/config/registry.js';
import type { Logger } from '../../platform/logger.js';
import type { DocumentStore } from '../../platform/store/document-store.js';
import { CatalogImports } from './catalog-imports.js';
import { CatalogItems } from './catalog-items.js';
import { Catalogs } from './catalogs.js';
import { ChangeFeed } from './change-feed.js';
import { ItemContexts } from './item-contexts.js';
import { ItemSchemas } from './item-schemas.js';
import { ItemStore, storedScopes } from './item-store.js';
import { KeyedQueue } from '../../platform/collections/keyed-queue.js';
import { legacyKey, parseLegacyId } from './legacy-id.js';
import { LegacyItems } from './legacy-items.js';
import type { ActivationBuilder, ItemsChangedListener, ItemScope, StoredItem } from './types.js';

export interface CatalogServiceDeps {
  store: DocumentStore;
  clock: Clock;
  logger: Logger;
  registry: ConfigRegistry;
}

export class CatalogService {
  readonly schemas: ItemSchemas;
  readonly catalogs: Catalogs;
  readonly items: CatalogItems;
  readonly legacy: LegacyItems;
  readonly contexts: ItemContexts;
  /** The recent item batches sent through the catalog API, stored or refused (the console's last import). */
  readonly imports: CatalogImports;
  private readonly store: ItemStore;
  private readonly documents: DocumentStore;
  private readonly feed: ChangeFeed;

  constructor(deps: CatalogServiceDeps) {
    const { clock, logger } = deps;
    const queue = new KeyedQueue();
    this.documents = deps.store;
    this.store = new ItemStore(deps.store);
    this.feed = new ChangeFeed(logger);
    this.schemas = new ItemSchemas(deps.store, clock);
    this.catalogs = new Catalogs({ store: deps.store, clock, logger, schemas: this.schemas, items: this.store, queue, feed: this.feed });
    this.imports = new CatalogImports(deps.store, clock);
    this.items = new CatalogItems({ clock, catalogs: this.catalogs, schemas: this.schemas, items: this.store, queue, feed: this.feed });
    this.contexts = new ItemContexts({
      store: deps.store,
      clock,
      tenantExists: (tenantId) => deps.registry.findTenant(tenantId) !== undefined,
      itemsUsing: (tenantId, name) => this.countContextUse(tenantId, name),
    });
    this.legacy = new LegacyItems({ store: deps.store, clock, items: this.store, contexts: this.contexts, queue, feed: this.feed });
  }

  /** Called on server shutdown, before the store closes. */
  close(): void {
    this.catalogs.close();
  }

  /** Registers a builder that promotion awaits before the swap (search index, recommendation data). */
  onActivate(builder: ActivationBuilder): void {
    this.catalogs.onActivate(builder);
  }

  /** Called when another process sharing the store wrote items of `scope` (a patch of its active catalog, say). */
  onItemsChangedElsewhere(listener: (scope: ItemScope) => void): void {
    this.store.onChangedElsewhere(listener);
  }

  /** Called after writes to what queries read now: the active catalog (held back during a promotion) and older-API items. */
  onItemsChanged(listener: ItemsChangedListener): void {
    this.feed.subscribe(listener);
  }

  async getItem(tenantId: string, environmentId: string, version: number, id: string): Promise<StoredItem | undefined> {
    return this.store.get(catalogScope(tenantId, environmentId, version), id);
  }

  async getItems(tenantId: string, environmentId: string, version: number, ids: readonly string[]): Promise<StoredItem[]> {
    const found = await this.store.getMany(catalogScope(tenantId, environmentId, version), ids);
    return ids.flatMap((id) => found.get(id) ?? []);
  }

  /** Every item of a catalog version (parents and variants), for index builds and exports. */
  allItems(tenantId: string, environmentId: string, version: number): Promise<StoredItem[]> {
    return this.store.all(catalogScope(tenantId, environmentId, version));
  }

  /** The same items one at a time. */
  iterateItems(tenantId: string, environmentId: string, version: number): AsyncGenerator<StoredItem> {
    return this.store.iterate(catalogScope(tenantId, environmentId, version));
  }

  countItems(tenantId: string, environmentId: string, version: number): Promise<number> {
    return this.store.count(catalogScope(tenantId, environmentId, version));
  }

  /** An older-API item by any id form, or undefined when absent or the id is malformed. */
  async getLegacyItem(tenantId: string, environmentId: string, rawId: unknown): Promise<StoredItem | undefined> {
    const parsed = parseLegacyId(rawId, tenantId);
    if (!parsed.ok) return undefined;
    return this.store.get({ tenantId, environmentId, api: 'legacy', version: parsed.value.version }, legacyKey(parsed.value));
  }

  allLegacyItems(tenantId: string, environmentId: string, version = 0): Promise<StoredItem[]> {
    return this.store.all({ tenantId, environmentId, api: 'legacy', version });
  }

  /** The older-API items being served: those of the live version (0 until another is activated), with that version. */
  async liveLegacyItems(tenantId: string, environmentId: string): Promise<{ version: number; items: StoredItem[] }> {
    const version = await this.legacy.liveVersion(tenantId, environmentId);
    return { version, items: await this.allLegacyItems(tenantId, environmentId, version) };
  }

  private async countContextUse(tenantId: string, name: string): Promise<number> {
    let count = 0;
    for (const scope of await storedScopes(this.documents, tenantId, 'legacy')) {
      for (const item of await this.store.all(scope)) if (item.context === name) count++;
    }
    return count;
  }
}

function catalogScope(tenantId: string, environmentId: string, version: number): ItemScope {
  return { tenantId, environmentId, api: 'catalog', version };
}
