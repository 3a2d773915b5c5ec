/**
 * The key an activity's query is learned under: analysed with the tenant's first search configuration
 * (its language) and corrected in that environment's live index, as a search of it is (query-key.ts).
 * A replay folds many clicks of the same few queries, so each is analysed once per catalog version
 * (the correction depends on the index's words); at most KEPT analysed queries are remembered.
 */
import type { ConfigRegistry } from '../../../platform/config/registry.js';
import type { SearchService } from '../search-service.js';
import { deleteOldest } from '../../../platform/collections/oldest-first.js';

const KEPT = 10_000;

export class ActivityQueryKeys {
  private readonly known = new Map<string, { version: number; key: string }>();

  constructor(private readonly deps: { registry: ConfigRegistry; search: SearchService }) {}

  keyOf(tenantId: string, query: string): string {
    const environment = this.deps.registry.findTenant(tenantId)?.environments.find((e) => e.searchTokens.length > 0);
    const token = environment?.searchTokens[0];
    const configuration = token?.configurations.find((c) => c.id === token.defaultConfigurationId) ?? token?.configurations[0];
    if (environment === undefined || configuration === undefined) return '';
    const version = this.deps.search.activeVersion(tenantId, environment.id) ?? -1;
    const memo = `${tenantId}\u0000${query}`;
    const known = this.known.get(memo);
    if (known !== undefined && known.version === version) return known.key;
    const key = this.deps.search.learningKey(tenantId, environment.id, configuration, query);
    this.known.delete(memo);
    this.known.set(memo, { version, key });
    if (this.known.size > KEPT) deleteOldest(this.known);
    return key;
  }
}
