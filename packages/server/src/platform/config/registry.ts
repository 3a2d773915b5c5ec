/** Answers "whose is this?" for every public identifier: tracker keys, search tokens, widgets, tenants and environments. */
import type { ErrorCode } from '@discovery-kit/protocol';
import { DomainError } from '../domain-error.js';
import type { LoadedConfig } from './load.js';
import type { EnvironmentConfig, SearchTokenConfig, ServiceAccountConfig, TenantConfig, WidgetConfig } from './schema.js';

export interface EnvironmentRef {
  tenant: TenantConfig;
  environment: EnvironmentConfig;
}

export class ConfigRegistry {
  /** The effective configuration: the file's, with the admin API's stored changes applied (see admin/overrides.ts). */
  config: LoadedConfig;
  private readonly tenants = new Map<string, TenantConfig>();
  private readonly trackerKeys = new Map<string, EnvironmentRef>();
  private readonly searchTokens = new Map<string, EnvironmentRef & { token: SearchTokenConfig }>();
  private readonly widgets = new Map<string, EnvironmentRef & { widget: WidgetConfig }>();
  private readonly accounts = new Map<string, { tenant: TenantConfig; account: ServiceAccountConfig }>();

  constructor(config: LoadedConfig) {
    this.config = config;
    this.index(config);
  }

  /** Swaps in a new effective configuration at once: the next lookup sees it, no restart needed. */
  replace(config: LoadedConfig): void {
    for (const map of [this.tenants, this.trackerKeys, this.searchTokens, this.widgets, this.accounts]) map.clear();
    this.config = config;
    this.index(config);
    for (const listener of this.replaced) listener(config);
  }

  private readonly replaced: ((config: LoadedConfig) => void)[] = [];

  /** Calls `listener` after every `replace` (search threads keep a copy of the configuration). */
  onReplace(listener: (config: LoadedConfig) => void): void {
    this.replaced.push(listener);
  }

  private index(config: LoadedConfig): void {
    for (const tenant of config.tenants) {
      this.tenants.set(tenant.id, tenant);
      for (const account of tenant.serviceAccounts) this.accounts.set(account.clientId, { tenant, account });
      for (const environment of tenant.environments) {
        const ref = { tenant, environment };
        for (const key of environment.trackerKeys) this.trackerKeys.set(key, ref);
        for (const token of environment.searchTokens) this.searchTokens.set(token.token, { ...ref, token });
        for (const widget of environment.widgets) this.widgets.set(widget.id, { ...ref, widget });
      }
    }
  }

  get tenantList(): readonly TenantConfig[] {
    return this.config.tenants;
  }

  findTenant(tenantId: string): TenantConfig | undefined {
    return this.tenants.get(tenantId);
  }

  /** The tenant and environment named by `tenant` and `environment` parameters, or a 404 naming the bad one. */
  environment(tenantId: unknown, environmentId: unknown): EnvironmentRef {
    if (typeof tenantId !== 'string' || tenantId === '') {
      throw new DomainError('invalid', 'The "tenant" query parameter is required.', { code: 'invalid_parameter', field: 'tenant' });
    }
    if (typeof environmentId !== 'string' || environmentId === '') {
      throw new DomainError('invalid', 'The "environment" query parameter is required.', { code: 'invalid_parameter', field: 'environment' });
    }
    const tenant = this.tenants.get(tenantId);
    if (tenant === undefined) throw unknown('unknown_tenant', `No tenant "${tenantId}" is configured.`, 'tenant');
    const environment = tenant.environments.find((env) => env.id === environmentId);
    if (environment === undefined) {
      throw unknown('unknown_environment', `Tenant "${tenantId}" has no environment "${environmentId}".`, 'environment');
    }
    return { tenant, environment };
  }

  trackerKey(key: string): EnvironmentRef {
    const ref = this.trackerKeys.get(key);
    if (ref === undefined) throw unknown('unknown_tracker_key', `No tracker key "${key}" is configured.`, 'trackerKey');
    return ref;
  }

  searchToken(token: string): EnvironmentRef & { token: SearchTokenConfig } {
    const ref = this.searchTokens.get(token);
    if (ref === undefined) throw unknown('unknown_search_token', `No search token "${token}" is configured.`, 'token');
    return ref;
  }

  widget(widgetId: string): EnvironmentRef & { widget: WidgetConfig } {
    const ref = this.widgets.get(widgetId);
    if (ref === undefined) throw unknown('unknown_widget', `No widget "${widgetId}" is configured.`, 'widgetId');
    return ref;
  }

  serviceAccount(clientId: string): { tenant: TenantConfig; account: ServiceAccountConfig } | undefined {
    return this.accounts.get(clientId);
  }
}

/** A public identifier nobody configured: a 404 with the identifier's own code, naming the field it came in. */
function unknown(code: ErrorCode, message: string, field: string): DomainError {
  return new DomainError('not_found', message, { code, field });
}
