/**
 * The services behind the APIs, built once per server before any API module, so that modules share
 * them (search reads the catalog, recommendations read the activity aggregates). Each capability
 * adds its service here; API modules reach them through `deps.services`.
 */
import type { ServerDeps } from './api-module.js';
import { createAuthService, type AuthService } from './auth/auth-service.js';

export interface Services {
  /** Token endpoint logic and the bearer guard's token checks (`requireBearer(deps.services.auth, ...)`). */
  auth: AuthService;
}

export async function createServices(deps: Omit<ServerDeps, 'services'>): Promise<Services> {
  return { auth: await createAuthService(deps) };
}
