/**
 * The older item API: batches of up to 500 create / replace / patch / delete actions over composite
 * ids, written to the same item model as the catalog API. A batch is all-or-nothing: one bad action
 * refuses the whole call, and the refusal names every bad action, so a client fixes them and resends.
 * A retried batch succeeds: `create` of an existing item replaces it and `delete` of a missing one is
 * reported `absent` (docs/catalog.md, "Retries").
 */
import type { FieldIssue } from '@discovery-kit/protocol';
import type { Clock } from '../../platform/clock.js';
import type { DocumentStore } from '../../platform/store/document-store.js';
import type { DomainError } from '../../platform/domain-error.js';
import { batchRefusal } from './batch-issues.js';
import type { LegacyAction, LegacyActionName, LegacyBatch } from './catalog-inputs.js';
import type { ChangeFeed } from './change-feed.js';
import type { ItemContexts } from './item-contexts.js';
import type { ItemStore } from './item-store.js';
import type { KeyedQueue } from '../../platform/collections/keyed-queue.js';
import { formatLegacyId, legacyKey } from './legacy-id.js';
import type { ItemScope, StoredItem } from './types.js';

export interface LegacyActionResult {
  index: number;
  action: LegacyActionName;
  /** The full `TENANT#VERSION#CONTEXT#KIND#ID` id of the item. */
  id: string;
  /** `absent`: a delete of an item that does not exist (already deleted by an earlier try of the batch). */
  status: 'created' | 'replaced' | 'patched' | 'deleted' | 'absent';
}

export interface LegacyItemsOptions {
  store: DocumentStore;
  clock: Clock;
  items: ItemStore;
  contexts: ItemContexts;
  queue: KeyedQueue;
  feed: ChangeFeed;
}

export class LegacyItems {
  private readonly options: LegacyItemsOptions;

  constructor(options: LegacyItemsOptions) {
    this.options = options;
  }

  /**
   * The version whose items are served (recommended); 0 until another is activated. The other versions
   * are where the next catalog is built, then switched to in one step (docs/catalog.md, "Versions").
   */
  async liveVersion(tenantId: string, environmentId: string): Promise<number> {
    return (await this.liveDocument(tenantId, environmentId)).data.version;
  }

  /** Serves `version` from now on; the previous live version's items stay stored, so switching back is one call too. */
  async activateVersion(tenantId: string, environmentId: string, version: number): Promise<{ version: number; previous: number; items: number }> {
    return this.options.queue.run(`${tenantId}/${environmentId}/legacy`, async () => {
      const doc = await this.liveDocument(tenantId, environmentId);
      const previous = doc.data.version;
      const items = await this.options.items.count(scopeOf(tenantId, environmentId, version));
      await doc.update((data) => {
        data.version = version;
        data.activatedAt = new Date(this.options.clock.now()).toISOString();
      });
      // Readers of older-API items (the recommendation index) rebuild from the newly live version.
      this.options.feed.publish({ scope: scopeOf(tenantId, environmentId, version), upserted: [], removedKeys: [] }, true);
      return { version, previous, items };
    });
  }

  private liveDocument(tenantId: string, environmentId: string) {
    return this.options.store.document<{ version: number; activatedAt?: string }>(`tenants/${tenantId}/envs/${environmentId}/legacy-live`, () => ({ version: 0 }));
  }

  /** Applies a batch whose shape the caller read (apis/legacy-items); its shape issues join the refusal, if any. */
  async apply(tenantId: string, environmentId: string, batch: LegacyBatch): Promise<LegacyActionResult[]> {
    const issues: FieldIssue[] = [...batch.issues];
    const checked = await this.check(tenantId, batch.actions, issues);
    return this.options.queue.run(`${tenantId}/${environmentId}/legacy`, async () => {
      const byVersion = new Map<number, Map<string, StoredItem | null>>();
      for (const action of checked) {
        let working = byVersion.get(action.id.version);
        if (working === undefined) byVersion.set(action.id.version, (working = new Map()));
        working.set(legacyKey(action.id), null);
      }
      for (const [version, working] of byVersion) {
        const stored = await this.options.items.getMany(scopeOf(tenantId, environmentId, version), working.keys());
        for (const key of working.keys()) working.set(key, stored.get(key) ?? null);
      }
      const initial = new Map([...byVersion].map(([v, w]) => [v, new Map(w)]));
      const now = new Date(this.options.clock.now()).toISOString();
      const results: LegacyActionResult[] = [];
      for (const action of checked) {
        const working = byVersion.get(action.id.version)!;
        const key = legacyKey(action.id);
        const current = working.get(key) ?? null;
        const path = `[${action.index}].id`;
        const shown = formatLegacyId(tenantId, action.id);
        // Retries are safe: a create that finds the item replaces it, a delete that finds nothing has nothing to do.
        if (action.action === 'delete' && current === null) { results.push({ index: action.index, action: action.action, id: shown, status: 'absent' }); continue; }
        if ((action.action === 'replace' || action.action === 'patch') && current === null) { issues.push({ path, message: `no item ${shown}; use create` }); continue; }
        working.set(key, action.action === 'delete' ? null : build(action, action.action === 'patch' ? current : null, now));
        const status = action.action === 'create' && current !== null ? 'replaced' : ({ create: 'created', replace: 'replaced', patch: 'patched', delete: 'deleted' } as const)[action.action];
        results.push({ index: action.index, action: action.action, id: shown, status });
      }
      if (issues.length > 0) throw refusal(issues, batch.total);
      for (const [version, working] of byVersion) {
        const scope = scopeOf(tenantId, environmentId, version);
        const before = initial.get(version)!;
        const upserted = [...working.values()].filter((item): item is StoredItem => item !== null);
        const removedKeys = [...working].filter(([key, item]) => item === null && before.get(key) !== null).map(([key]) => key);
        await this.options.items.write(scope, upserted, removedKeys);
        this.options.feed.publish({ scope, upserted, removedKeys }, true);
      }
      return results;
    });
  }

  /** Keeps the actions whose context is declared for the tenant; the others become issues, none thrown early. */
  private async check(tenantId: string, actions: readonly LegacyAction[], issues: FieldIssue[]): Promise<LegacyAction[]> {
    const checked: LegacyAction[] = [];
    const declared = new Map<string, boolean>();
    for (const action of actions) {
      const context = action.id.context;
      if (!declared.has(context)) declared.set(context, (await this.options.contexts.findByName(tenantId, context)) !== undefined);
      if (!declared.get(context)) {
        issues.push({ path: `[${action.index}].id`, message: `context "${context}" is not declared for tenant "${tenantId}"; create it with PUT /items/contexts first` });
        continue;
      }
      checked.push(action);
    }
    return checked;
  }
}

function build(action: LegacyAction, current: StoredItem | null, updated: string): StoredItem {
  const { title, image, url, tags, booster, price, recommended, attributes: listed, l10n, ...extra } = action.data;
  const fields = Object.fromEntries(Object.entries({ title, image, url, tags, booster, price, recommended }).filter(([, v]) => v !== undefined));
  // Keys outside the listed fields (`description`, ...) are the shop's own attributes, like those in `attributes`.
  const attributes = Object.keys(extra).length === 0 ? listed : { ...extra, ...(listed ?? {}) };
  // A patch merges one level deep into attributes and l10n; replace and create start from nothing.
  const base: StoredItem = current ?? { key: legacyKey(action.id), id: action.id.id, type: action.id.kind, context: action.id.context, kind: action.id.kind, attributes: {}, updated };
  const next: StoredItem = { ...base, ...fields, attributes: { ...base.attributes, ...(attributes ?? {}) }, updated };
  if (l10n !== undefined || base.l10n !== undefined) next.l10n = { ...(base.l10n ?? {}), ...(l10n ?? {}) };
  return next;
}

function scopeOf(tenantId: string, environmentId: string, version: number): ItemScope {
  return { tenantId, environmentId, api: 'legacy', version };
}

function refusal(issues: FieldIssue[], total: number): DomainError {
  return batchRefusal(issues, total, 'actions', 'applied');
}
