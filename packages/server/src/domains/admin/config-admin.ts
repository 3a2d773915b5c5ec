/**
 * Runtime configuration changes: widgets, search tokens with their configurations, tracker keys.
 * A change is validated, written to the store, applied to the registry (the next request sees it),
 * and recorded in the audit log, in that order; changes are serialised so none is lost. On a store
 * several processes share, a change is made on the stored changes as the other processes left them
 * (inside the store's update), and each process applies what another one stored as soon as its copy
 * of the document reloads: a key revoked through one process is refused by all.
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../../platform/clock.js';
import { crossCheck, type LoadedConfig } from '../../platform/config/load.js';
import type { ConfigRegistry } from '../../platform/config/registry.js';
import type { EnvironmentConfig, SearchConfiguration, SearchTokenConfig, WidgetConfig } from '../../platform/config/schema.js';
import type { DocumentStore, StoredDocument } from '../../platform/store/document-store.js';
import { DomainError } from '../../platform/domain-error.js';
import { parseInput } from '../../platform/validation.js';
import { AuditLog, type AuditEntry } from './audit-log.js';
import { composeConfig, emptyOverrides, environmentKey, OVERRIDES_DOCUMENT, splitEnvironmentKey, type EnvironmentOverrides, type OverridesDocument } from './overrides.js';
import type { Logger } from '../../platform/logger.js';
import { checkSearchConfiguration, checkSearchToken, checkWidget } from './resource-checks.js';
import { searchConfigurationSchema } from '../../platform/config/schema.js';

export interface AdminActor {
  /** `account:<clientId>` or `console:<username>`. */
  id: string;
  tenantId: string;
  role: 'read' | 'edit';
}

export interface AdminScope {
  tenantId: string;
  environmentId: string;
}

export interface ConfigAdminDeps {
  store: DocumentStore;
  registry: ConfigRegistry;
  /** The configuration file as loaded: the base every stored change applies to. */
  fileConfig: LoadedConfig;
  clock: Clock;
  /** Called after a search token changed, so the index can cover newly weighted fields. */
  onSearchChanged?: (scope: AdminScope) => Promise<void>;
}

const clone = <T>(value: T): T => (value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T));

export class ConfigAdmin {
  readonly audit: AuditLog;
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly deps: ConfigAdminDeps,
    private readonly overrides: StoredDocument<OverridesDocument>,
  ) {
    this.audit = new AuditLog(deps.store);
  }

  /** Reads the stored changes and applies them over the file before the first request; then follows other processes' changes. */
  static async open(deps: ConfigAdminDeps & { logger?: Logger }): Promise<ConfigAdmin> {
    const doc = await deps.store.document<OverridesDocument>(OVERRIDES_DOCUMENT, () => ({ environments: {} }));
    const admin = new ConfigAdmin(deps, doc);
    try {
      deps.registry.replace(composeConfig(deps.fileConfig, doc.data));
    } catch (error) {
      // A file edited since would make a stored change invalid: the file alone still runs, and the operator is told why.
      throw new Error(`The admin API's stored changes (${OVERRIDES_DOCUMENT}) no longer fit the configuration file: ${(error as Error).message}`);
    }
    let applied = clone(doc.data.environments);
    doc.onChange?.(() => {
      const stored = clone(doc.data.environments);
      try {
        deps.registry.replace(composeConfig(deps.fileConfig, doc.data));
      } catch (error) {
        // Another process's file differs from this one's: this process keeps what it runs, and says why.
        deps.logger?.error({ err: error }, 'runtime configuration changed by another process does not fit this configuration file; not applied');
        return;
      }
      // Search tokens whose configurations changed there may weigh fields this process's index lacks.
      for (const key of new Set([...Object.keys(stored), ...Object.keys(applied)])) {
        if (JSON.stringify(stored[key]?.searchTokens) === JSON.stringify(applied[key]?.searchTokens)) continue;
        const [tenantId, environmentId] = splitEnvironmentKey(key);
        deps.onSearchChanged?.({ tenantId, environmentId }).catch((error: unknown) => deps.logger?.error({ err: error, tenantId, environmentId }, 'search index refresh after another process\'s change failed'));
      }
      applied = stored;
    });
    return admin;
  }

  environment(scope: AdminScope): EnvironmentConfig {
    const tenant = this.deps.registry.findTenant(scope.tenantId);
    const environment = tenant?.environments.find((e) => e.id === scope.environmentId);
    if (environment === undefined) throw new DomainError('not_found', `Tenant "${scope.tenantId}" has no environment "${scope.environmentId}".`, { field: 'environment' });
    return environment;
  }

  widgets(scope: AdminScope): WidgetConfig[] {
    return this.environment(scope).widgets;
  }

  widget(scope: AdminScope, id: string): WidgetConfig {
    const widget = this.widgets(scope).find((w) => w.id === id);
    if (widget === undefined) throw new DomainError('not_found', `No widget "${id}" in this environment.`, { field: 'widgetId' });
    return widget;
  }

  async putWidget(actor: AdminActor, scope: AdminScope, id: string, body: unknown): Promise<WidgetConfig> {
    const widget = checkWidget(id, body);
    const before = this.widgets(scope).find((w) => w.id === id) ?? null;
    if (before === null) this.claimFree('widget', id, 'id');
    await this.change(actor, scope, { action: before === null ? 'widget.create' : 'widget.update', target: `widget:${id}`, before, after: widget }, (o) => {
      o.widgets[id] = widget;
    });
    return widget;
  }

  async deleteWidget(actor: AdminActor, scope: AdminScope, id: string): Promise<void> {
    const before = this.widget(scope, id);
    await this.change(actor, scope, { action: 'widget.delete', target: `widget:${id}`, before, after: null }, (o) => {
      o.widgets[id] = null;
    });
  }

  searchTokens(scope: AdminScope): SearchTokenConfig[] {
    return this.environment(scope).searchTokens;
  }

  searchToken(scope: AdminScope, token: string): SearchTokenConfig {
    const found = this.searchTokens(scope).find((t) => t.token === token);
    if (found === undefined) throw new DomainError('not_found', `No search token "${token}" in this environment.`, { field: 'token' });
    return found;
  }

  /** A new token with a generated value; the body gives its configurations (a default one when left out). */
  async createSearchToken(actor: AdminActor, scope: AdminScope, body: unknown): Promise<SearchTokenConfig> {
    const input = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    const token = newSecret('st');
    const parsed = checkSearchToken(token, { configurations: [{ id: 'default' }], ...input, token });
    await this.change(actor, scope, { action: 'search-token.create', target: `search-token:${token}`, before: null, after: parsed }, (o) => {
      o.searchTokens[token] = parsed;
    });
    return parsed;
  }

  async putSearchToken(actor: AdminActor, scope: AdminScope, token: string, body: unknown): Promise<SearchTokenConfig> {
    const before = this.searchToken(scope, token);
    const parsed = checkSearchToken(token, body);
    await this.change(actor, scope, { action: 'search-token.update', target: `search-token:${token}`, before, after: parsed }, (o) => {
      o.searchTokens[token] = parsed;
    });
    return parsed;
  }

  /** Replaces (or adds) one configuration of a token: field weights, facets, synonyms, redirects, rules, default sort. */
  async putSearchConfiguration(actor: AdminActor, scope: AdminScope, token: string, configurationId: string, body: unknown): Promise<SearchConfiguration> {
    parseInput(searchConfigurationSchema.shape.id, configurationId, 'configurationId');
    const current = this.searchToken(scope, token);
    const config = checkSearchConfiguration(configurationId, body);
    const before = current.configurations.find((c) => c.id === configurationId) ?? null;
    const configurations = before === null ? [...current.configurations, config] : current.configurations.map((c) => (c.id === configurationId ? config : c));
    const next = checkSearchToken(token, { ...current, configurations });
    await this.change(actor, scope, { action: 'search-configuration.update', target: `search-token:${token}/configuration:${configurationId}`, before, after: config }, (o) => {
      o.searchTokens[token] = next;
    });
    return config;
  }

  /** Issues a new token value with the same configurations; the old value stops working at once. */
  async rotateSearchToken(actor: AdminActor, scope: AdminScope, token: string): Promise<SearchTokenConfig> {
    const before = this.searchToken(scope, token);
    const fresh = newSecret('st');
    const after = { ...clone(before), token: fresh };
    await this.change(actor, scope, { action: 'search-token.rotate', target: `search-token:${token}`, before: { token }, after: { token: fresh } }, (o) => {
      o.searchTokens[token] = null;
      o.searchTokens[fresh] = after;
    });
    return after;
  }

  async revokeSearchToken(actor: AdminActor, scope: AdminScope, token: string): Promise<void> {
    const before = this.searchToken(scope, token);
    await this.change(actor, scope, { action: 'search-token.revoke', target: `search-token:${token}`, before, after: null }, (o) => {
      o.searchTokens[token] = null;
    });
  }

  trackerKeys(scope: AdminScope): string[] {
    return this.environment(scope).trackerKeys;
  }

  async createTrackerKey(actor: AdminActor, scope: AdminScope): Promise<string> {
    this.environment(scope);
    const key = newSecret('tk');
    await this.change(actor, scope, { action: 'tracker-key.create', target: `tracker-key:${key}`, before: null, after: key }, (o) => {
      o.trackerKeys[key] = true;
    });
    return key;
  }

  async rotateTrackerKey(actor: AdminActor, scope: AdminScope, key: string): Promise<string> {
    this.requireTrackerKey(scope, key);
    const fresh = newSecret('tk');
    await this.change(actor, scope, { action: 'tracker-key.rotate', target: `tracker-key:${key}`, before: key, after: fresh }, (o) => {
      o.trackerKeys[key] = false;
      o.trackerKeys[fresh] = true;
    });
    return fresh;
  }

  async revokeTrackerKey(actor: AdminActor, scope: AdminScope, key: string): Promise<void> {
    this.requireTrackerKey(scope, key);
    await this.change(actor, scope, { action: 'tracker-key.revoke', target: `tracker-key:${key}`, before: key, after: null }, (o) => {
      o.trackerKeys[key] = false;
    });
  }

  private requireTrackerKey(scope: AdminScope, key: string): void {
    if (!this.trackerKeys(scope).includes(key)) throw new DomainError('not_found', `No tracker key "${key}" in this environment.`, { field: 'trackerKey' });
  }

  /** Ids that public URLs use without a tenant must be unique across every tenant; the refusal does not say whose it is. */
  private claimFree(kind: 'widget', id: string, field: string): void {
    let taken = false;
    try {
      this.deps.registry.widget(id);
      taken = true;
    } catch {
      taken = false;
    }
    if (taken) throw new DomainError('conflict', `The ${kind} id "${id}" is already in use; choose another.`, { field });
  }

  /**
   * Applies `mutate` to a copy of the environment's stored changes, checks the resulting configuration
   * as a whole, writes it, swaps it in, then records the audit entry. One change at a time.
   */
  private change(
    actor: AdminActor,
    scope: AdminScope,
    entry: Pick<AuditEntry, 'action' | 'target' | 'before' | 'after'>,
    mutate: (overrides: EnvironmentOverrides) => void,
  ): Promise<void> {
    if (actor.role !== 'edit') throw new DomainError('forbidden', 'This account may read the configuration but not change it (its role is "read").');
    if (actor.tenantId !== scope.tenantId) throw new DomainError('forbidden', `This account belongs to tenant "${actor.tenantId}".`, { field: 'tenant' });
    const run = this.queue.then(async () => {
      const key = environmentKey(scope.tenantId, scope.environmentId);
      // Made on the stored changes as they are now (another process may have written since): checked whole, then written.
      const effective = await this.overrides.update((data) => {
        const next: EnvironmentOverrides = clone(data.environments[key]) ?? emptyOverrides();
        mutate(next);
        let composed: LoadedConfig;
        try {
          composed = composeConfig(this.deps.fileConfig, { environments: { ...data.environments, [key]: next } });
        } catch (error) {
          throw new DomainError('invalid', `The configuration would not be valid with this change: ${(error as Error).message.slice(0, 300)}`);
        }
        if (crossCheck(composed).length > 0) throw new DomainError('conflict', 'This id is already used elsewhere; choose another.', { field: 'id' });
        data.environments[key] = next;
        return composed;
      });
      this.deps.registry.replace(effective);
      if (entry.action.startsWith('search')) await this.deps.onSearchChanged?.(scope);
      await this.audit.append(scope.tenantId, { at: new Date(this.deps.clock.now()).toISOString(), actor: actor.id, environment: scope.environmentId, ...clone(entry) });
    });
    this.queue = run.catch(() => undefined);
    return run;
  }
}

/** Tokens and keys are public identifiers (they sit in pages), so they need to be unguessable, not secret. */
function newSecret(prefix: string): string {
  return `${prefix}_${randomBytes(15).toString('base64url')}`;
}
