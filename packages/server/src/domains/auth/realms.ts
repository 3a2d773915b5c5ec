/** Realms: the master realm (service accounts of every tenant) and one per tenant; where each is mounted. */
export const MASTER_REALM = 'master';

/** The URLs a realm is known by: its issuer (what OpenID clients put in `aud`) and its endpoints. */
export interface RealmUrls {
  issuer: string;
  tokenEndpoint: string;
  jwksUri: string;
  tokenInfo: string;
}

export function realmPath(realm: string): string {
  return `/auth/realms/${encodeURIComponent(realm)}`;
}
