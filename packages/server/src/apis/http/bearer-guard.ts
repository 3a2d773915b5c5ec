/**
 * The bearer guard for the private APIs. `requireBearer(auth, { realm: 'tenant' })` guards the
 * catalog API (tokens of a tenant realm); `{ realm: 'master' }` guards the older item and
 * item-context APIs (tokens of the master realm). Either way the token reaches only the data of the
 * tenant its account belongs to, and the handler reads that tenant from `ctx.state.auth`.
 */
import type { Context, Next } from 'koa';
import { HttpError } from './errors.js';
import { InvalidAccessToken } from '../../domains/auth/access-token.js';
import type { AuthService } from '../../domains/auth/auth-service.js';
import { MASTER_REALM } from '../../domains/auth/realms.js';

export interface BearerIdentity {
  tenantId: string;
  clientId: string;
  /** The realm that issued the token: the tenant id, or `master`. */
  realm: string;
  /** When the token stops working, in seconds since the epoch. */
  expiresAt: number;
}

declare module 'koa' {
  interface DefaultState {
    /** Set by `requireBearer`: who called, and which tenant's data it may touch. */
    auth?: BearerIdentity;
  }
}

export interface BearerGuardOptions {
  /** `tenant`: the current APIs (catalog); `master`: the older item and item-context APIs. */
  realm: 'tenant' | 'master';
  /**
   * The tenant the request asks for, compared with the token's; a mismatch is 403. Defaults to the
   * `tenant` query parameter (every value, when repeated). Undefined means the request names no
   * tenant and gets the token's.
   */
  requestedTenant?: (ctx: Context) => string | readonly string[] | undefined;
}

function queryTenant(ctx: Context): string | readonly string[] | undefined {
  return ctx.query.tenant;
}

function unauthorized(description: string): HttpError {
  const quoted = description.replace(/["\\]/g, "'");
  return new HttpError(401, 'unauthorized', `Bearer token refused: ${description}.`, {
    headers: { 'WWW-Authenticate': `Bearer error="invalid_token", error_description="${quoted}"` },
  });
}

export function requireBearer(auth: AuthService, options: BearerGuardOptions) {
  const requestedTenant = options.requestedTenant ?? queryTenant;
  return async function checkBearerToken(ctx: Context, next: Next): Promise<void> {
    const header = ctx.get('authorization');
    if (header === '') throw unauthorized('send "Authorization: Bearer <access token>"; get a token from the token endpoint');
    const match = /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i.exec(header);
    if (match === null) throw unauthorized('the Authorization header must be "Bearer " followed by the access token');
    let claims;
    try {
      claims = await auth.verifyBearer(match[1]!);
    } catch (error) {
      if (error instanceof InvalidAccessToken) throw unauthorized(error.message);
      throw error;
    }
    const isMaster = claims.realm === MASTER_REALM;
    if (options.realm === 'master' && !isMaster) {
      throw unauthorized(`this API takes tokens of the master realm, and this one comes from realm "${claims.realm}"`);
    }
    if (options.realm === 'tenant' && isMaster) {
      throw unauthorized(`this API takes tokens of the tenant's realm (/auth/realms/${claims.tenant}), and this one comes from the master realm`);
    }
    const requested = requestedTenant(ctx);
    const other = (typeof requested === 'string' ? [requested] : (requested ?? [])).find((tenant) => tenant !== claims.tenant);
    if (other !== undefined) {
      throw new HttpError(403, 'forbidden', `This token belongs to tenant "${claims.tenant}" and cannot reach tenant "${other}".`, { field: 'tenant' });
    }
    ctx.state.auth = { tenantId: claims.tenant, clientId: claims.sub, realm: claims.realm, expiresAt: claims.exp };
    await next();
  };
}
