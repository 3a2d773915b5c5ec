/**
 * Runtime changes to the configuration, made through the admin API and kept in the store. The file
 * bootstraps; for any single resource (a widget, a search token, a tracker key) the stored change
 * wins over the file, and resources the admin API never touched follow the file (docs/admin-api.md).
 */
import type { LoadedConfig } from '../../platform/config/load.js';
import { configSchema, type SearchTokenConfig, type WidgetConfig } from '../../platform/config/schema.js';

/** One environment's changes: a resource's stored value replaces the file's; `null` removes it. */
export interface EnvironmentOverrides {
  widgets: Record<string, WidgetConfig | null>;
  searchTokens: Record<string, SearchTokenConfig | null>;
  /** `true`: added through the admin API; `false`: revoked (even when the file lists it). */
  trackerKeys: Record<string, boolean>;
}

export interface OverridesDocument {
  /** Keyed by `<tenant>/<environment>`. */
  environments: Record<string, EnvironmentOverrides>;
}

export const OVERRIDES_DOCUMENT = 'admin/overrides';

export function emptyOverrides(): EnvironmentOverrides {
  return { widgets: {}, searchTokens: {}, trackerKeys: {} };
}

export function environmentKey(tenantId: string, environmentId: string): string {
  return `${tenantId}/${environmentId}`;
}

/** The tenant and environment of an `environmentKey` (tenant ids hold no `/`). */
export function splitEnvironmentKey(key: string): [string, string] {
  const slash = key.indexOf('/');
  return [key.slice(0, slash), key.slice(slash + 1)];
}

function mergeById<T>(fromFile: readonly T[], idOf: (value: T) => string, changes: Record<string, T | null>): T[] {
  const out: T[] = [];
  const seen = new Set<string>();
  for (const value of fromFile) {
    const id = idOf(value);
    seen.add(id);
    const change = changes[id];
    if (change === undefined) out.push(value);
    else if (change !== null) out.push(change);
  }
  for (const [id, change] of Object.entries(changes)) if (!seen.has(id) && change !== null) out.push(change);
  return out;
}

/**
 * The effective configuration: the file's with every stored change applied, parsed again by the
 * file's own schema (so defaults and refinements hold exactly as they do for the file).
 */
export function composeConfig(file: LoadedConfig, overrides: OverridesDocument): LoadedConfig {
  const tenants = file.tenants.map((tenant) => ({
    ...tenant,
    environments: tenant.environments.map((environment) => {
      const changes = overrides.environments[environmentKey(tenant.id, environment.id)];
      if (changes === undefined) return environment;
      const keys = environment.trackerKeys.filter((key) => changes.trackerKeys[key] !== false);
      for (const [key, added] of Object.entries(changes.trackerKeys)) if (added && !keys.includes(key)) keys.push(key);
      return {
        ...environment,
        trackerKeys: keys,
        widgets: mergeById(environment.widgets, (w) => w.id, changes.widgets),
        searchTokens: mergeById(environment.searchTokens, (t) => t.token, changes.searchTokens),
      };
    }),
  }));
  const { source, publicKeys, ...plain } = file;
  const parsed = configSchema.parse({ ...plain, tenants });
  return { ...parsed, source, publicKeys };
}
