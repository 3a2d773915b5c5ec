/** The URLs a realm is known by: its issuer (what OpenID clients put in `aud`) and its endpoints. */
import type { Context } from 'koa';
import { mountedPath, publicBaseUrl } from '../../apis/api-module.js';
import type { LoadedConfig } from '../../platform/config/load.js';

export const MASTER_REALM = 'master';

export interface RealmUrls {
  issuer: string;
  tokenEndpoint: string;
  jwksUri: string;
  tokenInfo: string;
}

export function realmPath(realm: string): string {
  return `/auth/realms/${encodeURIComponent(realm)}`;
}

export function realmUrls(config: LoadedConfig, ctx: Context, realm: string): RealmUrls {
  const issuer = `${publicBaseUrl(config, ctx)}${mountedPath(config.mounts.auth, realmPath(realm))}`;
  return {
    issuer,
    tokenEndpoint: `${issuer}/protocol/openid-connect/token`,
    jwksUri: `${issuer}/protocol/openid-connect/certs`,
    tokenInfo: `${issuer}/token-info`,
  };
}
