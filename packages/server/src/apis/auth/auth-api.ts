/** The auth host: per realm, the token endpoint, its OpenID discovery document, its JWKS, and a guarded token-info endpoint. */
import Router from '@koa/router';
import type { Context, Next } from 'koa';
import type * as Wire from '@discovery-kit/protocol';
import type { ApiModule, ServerDeps } from '../api-module.js';
import { requireBearer } from '../http/bearer-guard.js';
import { MASTER_REALM } from '../../domains/auth/realms.js';
import { realmUrls } from './realm-urls.js';
import { notFound } from '../http/errors.js';
import { tokenEndpoint } from './token-endpoint.js';
import { noStore } from '../http/no-store.js';

const REALM = '/auth/realms/:realm';

export function createAuthApi(deps: ServerDeps): ApiModule {
  const router = new Router();
  const auth = deps.services.auth;

  async function knownRealm(ctx: Context, next: Next): Promise<void> {
    if (!auth.realmExists(ctx.params.realm!)) {
      throw notFound('not_found', `No realm "${ctx.params.realm}": use a tenant id, or "master" for the older APIs.`, 'realm');
    }
    await next();
  }

  router.post(`${REALM}/protocol/openid-connect/token`, ...tokenEndpoint(deps));

  router.get(`${REALM}/.well-known/openid-configuration`, knownRealm, (ctx) => {
    const urls = realmUrls(deps.config, ctx, ctx.params.realm!);
    const configuration: Wire.OpenIdConfiguration = {
      issuer: urls.issuer,
      token_endpoint: urls.tokenEndpoint,
      jwks_uri: urls.jwksUri,
      grant_types_supported: ['client_credentials'],
      response_types_supported: ['token'],
      token_endpoint_auth_methods_supported: ['private_key_jwt', 'client_secret_post', 'client_secret_basic'],
      token_endpoint_auth_signing_alg_values_supported: ['RS256'],
    };
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = configuration;
  });

  router.get(`${REALM}/protocol/openid-connect/certs`, knownRealm, (ctx) => {
    const keys: Wire.JsonWebKeySet = auth.jwks();
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = keys;
  });

  // The guard of the realm in the path: a way to check a token, and the guard's own proof in tests.
  const tenantGuard = requireBearer(auth, { realm: 'tenant', requestedTenant: (ctx) => ctx.params.realm });
  const masterGuard = requireBearer(auth, { realm: 'master' });
  router.get(
    `${REALM}/token-info`,
    noStore,
    knownRealm,
    (ctx, next) => (ctx.params.realm === MASTER_REALM ? masterGuard(ctx, next) : tenantGuard(ctx, next)),
    (ctx) => {
      const identity = ctx.state.auth!;
      const info: Wire.TokenInfoResponse = { clientId: identity.clientId, tenant: identity.tenantId, realm: identity.realm, expiresAt: identity.expiresAt };
      ctx.body = info;
    },
  );

  return { name: 'auth', mount: 'auth', router, public: false };
}
