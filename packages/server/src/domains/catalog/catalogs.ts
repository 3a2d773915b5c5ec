/**
 * Catalog versions per tenant and environment: creation (at most two held), deletion, and promotion,
 * which builds the search and recommendation data of a version in the background and then swaps the
 * active version in one write, so a query sees the old catalog or the new one, never half of one.
 */
import type { Clock } from '../../platform/clock.js';
import { DomainError } from '../../platform/domain-error.js';
import type { Logger } from '../../platform/logger.js';
import type { DocumentStore, StoredDocument } from '../../platform/store/document-store.js';
import type { FieldIssue } from '@discovery-kit/protocol';
import type { CatalogInput } from './catalog-inputs.js';
import type { ItemSchemas } from './item-schemas.js';
import type { ItemStore } from './item-store.js';
import type { KeyedQueue } from '../../platform/collections/keyed-queue.js';
import type { ActivationBuilder, CatalogRecord } from './types.js';
import type { ChangeFeed } from './change-feed.js';

export const MAX_CATALOGS = 2;

interface CatalogsDocument {
  /** Versions are never reused, so a deleted version's items can never be mistaken for a new one's. */
  nextVersion: number;
  catalogs: CatalogRecord[];
}

export interface CatalogsOptions {
  store: DocumentStore;
  clock: Clock;
  logger: Logger;
  schemas: ItemSchemas;
  items: ItemStore;
  queue: KeyedQueue;
  feed: ChangeFeed;
}

export interface Promotion {
  /** The record as it is now: `building`, or `active` when it already was. */
  catalog: CatalogRecord;
  /** Settles when the swap happened (`active`) or the build failed (`inactive` with `promotionError`); never rejects. */
  activation: Promise<CatalogRecord>;
}

export class Catalogs {
  private readonly options: CatalogsOptions;
  private readonly builders: ActivationBuilder[] = [];
  private readonly opened = new Set<string>();
  /** Per catalogs document, the active version this process built the search and recommendation data of. */
  private readonly builtActive = new Map<string, number | undefined>();
  private closed = false;

  constructor(options: CatalogsOptions) {
    this.options = options;
  }

  onActivate(builder: ActivationBuilder): void {
    this.builders.push(builder);
  }

  /**
   * Stops promotions from writing once the server shuts down: a build still running is abandoned
   * (not awaited, a builder may take long), and the next start turns it back to `inactive`.
   */
  close(): void {
    this.closed = true;
  }

  private async doc(tenantId: string, environmentId: string): Promise<StoredDocument<CatalogsDocument>> {
    const name = `tenants/${tenantId}/envs/${environmentId}/catalogs`;
    const doc = await this.options.store.document<CatalogsDocument>(name, () => ({ nextVersion: 1, catalogs: [] }));
    if (!this.opened.has(name)) {
      this.opened.add(name);
      // A build cannot survive a restart: a catalog left `building` goes back to `inactive`, promotable again.
      if (doc.data.catalogs.some((c) => c.state === 'building')) {
        await doc.update((data) => {
          for (const c of data.catalogs) if (c.state === 'building') Object.assign(c, { state: 'inactive', promotionError: 'interrupted by a restart' });
        });
      }
      this.builtActive.set(name, activeVersion(doc.data));
      // Another process sharing the store promoted a catalog: build its data here too, then serve it.
      doc.onChange?.(() => void this.followPromotion(name, doc, tenantId, environmentId));
    }
    return doc;
  }

  private async followPromotion(name: string, doc: StoredDocument<CatalogsDocument>, tenantId: string, environmentId: string): Promise<void> {
    const version = activeVersion(doc.data);
    if (version === undefined || this.builtActive.get(name) === version || this.closed) return;
    this.builtActive.set(name, version);
    try {
      const items = await this.options.items.all({ tenantId, environmentId, api: 'catalog', version });
      for (const builder of this.builders) await builder(tenantId, environmentId, version, items);
      this.options.logger.info({ tenantId, environmentId, version, items: items.length }, 'catalog promoted by another process now served here');
    } catch (error) {
      this.options.logger.error({ err: error, tenantId, environmentId, version }, 'building a catalog promoted by another process failed');
      this.builtActive.delete(name);
    }
  }

  /** A new inactive version over `input`'s schemas, each of which must exist and define its own types. */
  async create(tenantId: string, environmentId: string, input: CatalogInput): Promise<CatalogRecord> {
    const issues: FieldIssue[] = [];
    const typeNames = new Map<string, number>();
    for (const [index, ref] of input.catalogItemSchemas.entries()) {
      const schema = await this.options.schemas.get(tenantId, environmentId, ref.name, ref.version);
      if (schema === undefined) {
        issues.push({ path: `catalogItemSchemas[${index}]`, message: `no item schema "${ref.name}" version ${ref.version}` });
        continue;
      }
      for (const type of [schema.name, ...schema.nestedItemSchemas.map((n) => n.name)]) {
        const other = typeNames.get(type);
        if (other !== undefined) issues.push({ path: `catalogItemSchemas[${index}]`, message: `type "${type}" is already defined by catalogItemSchemas[${other}]` });
        typeNames.set(type, index);
      }
    }
    if (issues.length > 0) throw new DomainError('invalid', `${issues[0]!.path}: ${issues[0]!.message}`, { code: 'invalid_body', issues });
    const doc = await this.doc(tenantId, environmentId);
    return doc.update((data) => {
      if (data.catalogs.length >= MAX_CATALOGS) {
        const removable = data.catalogs.find((c) => c.state === 'inactive');
        const hint = removable === undefined ? 'wait for the promotion in progress to finish, then delete the inactive one' : `delete inactive catalog version ${removable.version} (DELETE /catalogs/${removable.version}) first`;
        throw new DomainError('conflict', `At most ${MAX_CATALOGS} catalogs are held at once: ${hint}.`, { code: 'limit_exceeded' });
      }
      const record: CatalogRecord = {
        version: data.nextVersion,
        state: 'inactive',
        catalogItemSchemas: input.catalogItemSchemas.map((ref) => ({ name: ref.name, version: ref.version })),
        createdAt: new Date(this.options.clock.now()).toISOString(),
        activatedAt: null,
      };
      data.nextVersion += 1;
      data.catalogs.push(record);
      return { ...record };
    });
  }

  /** As stored on disk: a state being written (`active` after a promotion) shows once its write is durable. */
  async list(tenantId: string, environmentId: string): Promise<CatalogRecord[]> {
    const doc = await this.doc(tenantId, environmentId);
    await doc.settled();
    return doc.data.catalogs.map((c) => ({ ...c }));
  }

  async find(tenantId: string, environmentId: string, version: number): Promise<CatalogRecord | undefined> {
    const found = (await this.doc(tenantId, environmentId)).data.catalogs.find((c) => c.version === version);
    return found === undefined ? undefined : { ...found };
  }

  /** The catalog, or a 404 naming `version`. */
  async get(tenantId: string, environmentId: string, version: number): Promise<CatalogRecord> {
    // Waits for writes in progress, so that `active` is never reported before it is on disk.
    await (await this.doc(tenantId, environmentId)).settled();
    const found = await this.find(tenantId, environmentId, version);
    if (found === undefined) throw new DomainError('not_found', `No catalog version ${version} exists for this tenant and environment.`, 'version');
    return found;
  }

  async active(tenantId: string, environmentId: string): Promise<CatalogRecord | undefined> {
    const found = (await this.doc(tenantId, environmentId)).data.catalogs.find((c) => c.state === 'active');
    return found === undefined ? undefined : { ...found };
  }

  /** Deletes an inactive catalog and its items; the active one, or one being promoted, is refused with 409. */
  async delete(tenantId: string, environmentId: string, version: number): Promise<void> {
    const scope = { tenantId, environmentId, api: 'catalog' as const, version };
    await this.options.queue.run(queueKey(scope), async () => {
      const doc = await this.doc(tenantId, environmentId);
      await doc.update((data) => {
        const index = data.catalogs.findIndex((c) => c.version === version);
        if (index < 0) throw new DomainError('not_found', `No catalog version ${version} exists for this tenant and environment.`, 'version');
        const state = data.catalogs[index]!.state;
        if (state !== 'inactive') throw new DomainError('conflict', `Catalog version ${version} is ${state}; only an inactive catalog can be deleted (promote another version first).`, 'version');
        data.catalogs.splice(index, 1);
      });
      await this.options.items.drop(scope);
    });
  }

  /**
   * Marks `version` as building and returns at once; the builders run in the background, then one
   * write makes it active and the previous active one inactive. One promotion at a time per environment.
   */
  async promote(tenantId: string, environmentId: string, version: number): Promise<Promotion> {
    const doc = await this.doc(tenantId, environmentId);
    const catalog = await doc.update((data) => {
      const target = data.catalogs.find((c) => c.version === version);
      if (target === undefined) throw new DomainError('not_found', `No catalog version ${version} exists for this tenant and environment.`, 'version');
      if (target.state === 'active') return { ...target };
      const building = data.catalogs.find((c) => c.state === 'building');
      if (building !== undefined) throw new DomainError('conflict', `Catalog version ${building.version} is being promoted; try again when it is active.`, 'version');
      target.state = 'building';
      delete target.promotionError;
      return { ...target };
    });
    if (catalog.state === 'active') return { catalog, activation: Promise.resolve(catalog) };
    return { catalog, activation: this.build(doc, tenantId, environmentId, version) };
  }

  private async build(doc: StoredDocument<CatalogsDocument>, tenantId: string, environmentId: string, version: number): Promise<CatalogRecord> {
    const scope = { tenantId, environmentId, api: 'catalog' as const, version };
    const started = performance.now();
    try {
      // The snapshot is taken inside the batch queue; writes that land during the build are replayed after the swap.
      const items = await this.options.queue.run(queueKey(scope), async () => {
        this.options.feed.hold(scope);
        return this.options.items.all(scope);
      });
      for (const builder of this.builders) await builder(tenantId, environmentId, version, items);
      if (this.closed) throw new ShutDownError();
      const now = new Date(this.options.clock.now()).toISOString();
      const record = await doc.update((data) => {
        for (const c of data.catalogs) if (c.state === 'active') c.state = 'inactive';
        const target = data.catalogs.find((c) => c.version === version)!;
        Object.assign(target, { state: 'active', activatedAt: now });
        return { ...target };
      });
      this.options.feed.release(scope, true);
      this.builtActive.set(`tenants/${tenantId}/envs/${environmentId}/catalogs`, version);
      this.options.logger.info({ tenantId, environmentId, version, items: items.length, ms: Math.round(performance.now() - started) }, 'catalog promoted');
      return record;
    } catch (error) {
      this.options.feed.release(scope, false);
      if (this.closed) return { ...(await this.get(tenantId, environmentId, version)), promotionError: 'interrupted by shutdown' };
      this.options.logger.error({ err: error, tenantId, environmentId, version }, 'catalog promotion failed');
      const message = error instanceof Error ? error.message : String(error);
      return doc.update((data) => {
        const target = data.catalogs.find((c) => c.version === version)!;
        Object.assign(target, { state: 'inactive', promotionError: message });
        return { ...target };
      });
    }
  }
}

function activeVersion(data: CatalogsDocument): number | undefined {
  return data.catalogs.find((c) => c.state === 'active')?.version;
}

class ShutDownError extends Error {
  constructor() {
    super('interrupted by shutdown');
  }
}

export function queueKey(scope: { tenantId: string; environmentId: string; api: string; version: number }): string {
  return `${scope.tenantId}/${scope.environmentId}/${scope.api}/${scope.version}`;
}
