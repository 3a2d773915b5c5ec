/** A realm's URLs as this request reached the server (or as the configured public URL says). */
import type { Context } from 'koa';
import type { LoadedConfig } from '../../platform/config/load.js';
import { realmPath, type RealmUrls } from '../../domains/auth/realms.js';
import { mountedPath, publicBaseUrl } from '../api-module.js';

export function realmUrls(config: LoadedConfig, ctx: Context, realm: string): RealmUrls {
  const issuer = `${publicBaseUrl(config, ctx)}${mountedPath(config.mounts.auth, realmPath(realm))}`;
  return {
    issuer,
    tokenEndpoint: `${issuer}/protocol/openid-connect/token`,
    jwksUri: `${issuer}/protocol/openid-connect/certs`,
    tokenInfo: `${issuer}/token-info`,
  };
}
