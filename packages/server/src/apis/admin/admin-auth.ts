/**
 * Who may use the admin API: a bearer token of a tenant realm whose service account has an
 * `adminRole`, or a console session cookie (with its CSRF token on every change). Either way the
 * caller reaches only its own tenant, and `read` accounts cannot change anything.
 */
import type { Context, Next } from 'koa';
import type { ServerDeps } from '../api-module.js';
import type { AdminActor, AdminScope } from '../../domains/admin/config-admin.js';
import { SESSION_COOKIE, type ConsoleSession } from '../../domains/admin/console-sessions.js';
import { requireBearer } from '../http/bearer-guard.js';
import { HttpError } from '../http/errors.js';
import { singleParam } from '../http/query.js';

declare module 'koa' {
  interface DefaultState {
    /** Set by the admin guard: who is calling the admin API. */
    adminActor?: AdminActor;
    consoleSession?: ConsoleSession;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function requireAdmin(deps: ServerDeps) {
  const bearer = requireBearer(deps.services.auth, { realm: 'tenant', requestedTenant: (ctx) => singleParam(ctx.query.tenant, 'tenant', 'query.tenant') });
  return async function checkAdmin(ctx: Context, next: Next): Promise<void> {
    if (ctx.get('authorization') !== '') {
      await bearer(ctx, async () => {
        const identity = ctx.state.auth!;
        const role = deps.registry.serviceAccount(identity.clientId)?.account.adminRole ?? 'none';
        if (role === 'none') {
          throw new HttpError(403, 'forbidden', 'This service account has no admin role; give it "adminRole": "read" or "edit" in the configuration.');
        }
        ctx.state.adminActor = { id: `account:${identity.clientId}`, tenantId: identity.tenantId, role };
        await next();
      });
      return;
    }
    const session = deps.services.sessions.read(ctx.cookies.get(SESSION_COOKIE));
    if (session === undefined) {
      throw new HttpError(401, 'unauthorized', 'Sign in to the console (POST /admin/session) or send "Authorization: Bearer <access token>".');
    }
    if (!SAFE_METHODS.has(ctx.method) && !deps.services.sessions.checkCsrf(session, ctx.get('x-csrf-token') || undefined)) {
      throw new HttpError(403, 'forbidden', 'Missing or wrong X-CSRF-Token header (the console sends the one GET /admin/session returns).', { field: 'X-CSRF-Token' });
    }
    const requested = singleParam(ctx.query.tenant, 'tenant', 'query.tenant');
    if (requested !== undefined && requested !== session.tenantId) {
      throw new HttpError(403, 'forbidden', `This session belongs to tenant "${session.tenantId}" and cannot reach tenant "${requested}".`, { field: 'tenant' });
    }
    ctx.state.consoleSession = session;
    ctx.state.adminActor = { id: `console:${session.username}`, tenantId: session.tenantId, role: session.role };
    await next();
  };
}

/** The tenant (the caller's) and the environment named by `?environment=` (the tenant's first when there is one only). */
export function adminScope(deps: ServerDeps, ctx: Context): AdminScope {
  const actor = ctx.state.adminActor!;
  const tenant = deps.registry.findTenant(actor.tenantId);
  const given = singleParam(ctx.query.environment, 'environment', 'query.environment');
  const environments = tenant?.environments ?? [];
  const environmentId = given ?? (environments.length === 1 ? environments[0]!.id : undefined);
  if (environmentId === undefined) throw new HttpError(400, 'invalid_parameter', 'The "environment" query parameter is required (this tenant has several).', { field: 'query.environment' });
  if (!environments.some((e) => e.id === environmentId)) throw new HttpError(404, 'unknown_environment', `Tenant "${actor.tenantId}" has no environment "${environmentId}".`, { field: 'query.environment' });
  return { tenantId: actor.tenantId, environmentId };
}
