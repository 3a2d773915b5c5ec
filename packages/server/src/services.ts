/**
 * The services behind the APIs, built once per server before any API module, so that modules share
 * them (search reads the catalog, recommendations read the activity aggregates). Each capability
 * adds its service here; API modules reach them through `deps.services`.
 */
import type { ServerDeps } from './api-module.js';
import { ActivityService } from './activities/activity-service.js';

export interface Services {
  activities: ActivityService;
}

export async function createServices(deps: Omit<ServerDeps, 'services'>): Promise<Services> {
  return { activities: await ActivityService.open(deps) };
}
