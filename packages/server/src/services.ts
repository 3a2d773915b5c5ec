/**
 * The services behind the APIs, built once per server before any API module, so that modules share
 * them (search reads the catalog, recommendations read the activity aggregates). Each capability
 * adds its service here; API modules reach them through `deps.services`.
 */
import type { ServerDeps } from './api-module.js';
import { CatalogService } from './catalog/catalog-service.js';

export interface Services {
  catalog: CatalogService;
}

export async function createServices(deps: Omit<ServerDeps, 'services'>): Promise<Services> {
  const catalog = new CatalogService({ store: deps.store, clock: deps.clock, logger: deps.logger, registry: deps.registry });
  deps.onClose(async () => catalog.close());
  return { catalog };
}
