/**
 * The services behind the APIs, built once per server before any API module, so that modules share
 * them (search reads the catalog, recommendations read the activity aggregates). Each capability
 * adds its service here; API modules reach them through `deps.services`.
 */
import type { ServerDeps } from './api-module.js';

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Services {}

export async function createServices(_deps: Omit<ServerDeps, 'services'>): Promise<Services> {
  return {};
}
