/**
 * The older item API: batches of up to 500 create / replace / patch / delete actions over composite
 * ids, written to the same item model as the catalog API. A batch is all-or-nothing: one bad action
 * refuses the whole call, and the refusal names every bad action, so a client fixes them and resends.
 * A retried batch succeeds: `create` of an existing item replaces it and `delete` of a missing one is
 * reported `absent` (docs/catalog.md, "Retries").
 */
import { z } from 'zod';
import type { FieldIssue } from '@discovery-kit/protocol';
import type { Clock } from '../../platform/clock.js';
import type { DocumentStore } from '../../platform/store/document-store.js';
import { DomainError } from '../../platform/domain-error.js';
import { batchRefusal } from './batch-issues.js';
import { formatPath } from '../../platform/validation.js';
import type { ChangeFeed } from './change-feed.js';
import { isLanguageCode } from './iso-639-1.js';
import type { ItemContexts } from './item-contexts.js';
import type { ItemStore } from './item-store.js';
import type { KeyedQueue } from '../../platform/collections/keyed-queue.js';
import { formatLegacyId, legacyKey, parseLegacyId, type LegacyId } from './legacy-id.js';
import { plainObject } from './own-record.js';
import type { ItemScope, StoredItem } from './types.js';

export const MAX_ACTIONS = 500;

/**
 * No `javascript:` or `data:` URL may reach a storefront's `href` or `src`: http(s), protocol-relative
 * (`//cdn.example/a.png`, the page's own scheme) or a path on the shop.
 */
const SAFE_URL = z.string().max(2048).refine((value) => /^(https?:)?\/\/[^/\\\s]/i.test(value) || /^\/(?![/\\])/.test(value), 'must be an http(s) URL, a protocol-relative "//host/..." URL or a path starting with "/"');
/** Keys of `data` beyond the listed fields become custom attributes; this many at most per item. */
const MAX_EXTRA_KEYS = 100;
const LISTED_FIELDS = ['title', 'image', 'url', 'tags', 'booster', 'price', 'recommended', 'attributes', 'l10n'];

const itemData = z.looseObject({
  title: z.string().max(1000).optional(),
  image: SAFE_URL.optional(),
  url: SAFE_URL.optional(),
  tags: z.array(z.string().min(1).max(200)).max(200).optional(),
  booster: z.number().int().optional(),
  price: z.number().int().min(0).optional(),
  recommended: z.boolean().optional(),
  attributes: plainObject.optional(),
  l10n: plainObject
    .superRefine((l10n, ctx) => {
      for (const key of Object.keys(l10n)) if (!isLanguageCode(key)) ctx.addIssue({ code: 'custom', path: [key], message: `"${key}" is not an ISO 639-1 language code` });
    })
    .optional(),
}).superRefine((data, ctx) => {
  const extra = Object.keys(data).filter((key) => !LISTED_FIELDS.includes(key));
  if (extra.length > MAX_EXTRA_KEYS) ctx.addIssue({ code: 'custom', path: [extra[MAX_EXTRA_KEYS]!], message: `at most ${MAX_EXTRA_KEYS} keys beyond the listed fields` });
});
type ItemData = z.output<typeof itemData>;

export const actionInput = z.object({
  action: z.enum(['create', 'replace', 'patch', 'delete']),
  id: z.unknown(),
  data: z.unknown().optional(),
});

export type LegacyActionName = 'create' | 'replace' | 'patch' | 'delete';

export interface LegacyActionResult {
  index: number;
  action: LegacyActionName;
  /** The full `TENANT#VERSION#CONTEXT#KIND#ID` id of the item. */
  id: string;
  /** `absent`: a delete of an item that does not exist (already deleted by an earlier try of the batch). */
  status: 'created' | 'replaced' | 'patched' | 'deleted' | 'absent';
}

interface CheckedAction {
  index: number;
  action: LegacyActionName;
  id: LegacyId;
  data: ItemData;
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

  async apply(tenantId: string, environmentId: string, input: unknown): Promise<LegacyActionResult[]> {
    if (!Array.isArray(input)) throw new DomainError('invalid', 'The body must be an array of item actions.', '(body)');
    if (input.length > MAX_ACTIONS) {
      throw new DomainError('limit_exceeded', `At most ${MAX_ACTIONS} actions per call (got ${input.length}); nothing was applied. Split the batch.`, '(body)');
    }
    const issues: FieldIssue[] = [];
    const checked = await this.check(tenantId, input, issues);
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
      if (issues.length > 0) throw refusal(issues, input.length);
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

  /** Shape, id and context checks that need no stored item; every problem is collected, none thrown early. */
  private async check(tenantId: string, input: unknown[], issues: FieldIssue[]): Promise<CheckedAction[]> {
    const checked: CheckedAction[] = [];
    const declared = new Map<string, boolean>();
    for (const [index, raw] of input.entries()) {
      const root = `[${index}]`;
      const shape = actionInput.safeParse(raw);
      if (!shape.success) {
        for (const issue of shape.error.issues) issues.push({ path: formatPath(issue.path, root), message: issue.message });
        continue;
      }
      const id = parseLegacyId(shape.data.id, tenantId);
      if (!id.ok) issues.push({ path: `${root}.id`, message: id.message });
      let data: ItemData = {};
      if (shape.data.action !== 'delete') {
        if (typeof shape.data.data !== 'object' || shape.data.data === null || Array.isArray(shape.data.data)) {
          issues.push({ path: `${root}.data`, message: `${shape.data.action} needs a data object` });
          continue;
        }
        const parsed = itemData.safeParse(shape.data.data);
        if (!parsed.success) {
          for (const issue of parsed.error.issues) issues.push({ path: formatPath(issue.path, `${root}.data`), message: issue.message });
          continue;
        }
        data = parsed.data;
      }
      if (!id.ok) continue;
      const context = id.value.context;
      if (!declared.has(context)) declared.set(context, (await this.options.contexts.findByName(tenantId, context)) !== undefined);
      if (!declared.get(context)) {
        issues.push({ path: `${root}.id`, message: `context "${context}" is not declared for tenant "${tenantId}"; create it with PUT /items/contexts first` });
        continue;
      }
      checked.push({ index, action: shape.data.action, id: id.value, data });
    }
    return checked;
  }
}

function build(action: CheckedAction, current: StoredItem | null, updated: string): StoredItem {
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
