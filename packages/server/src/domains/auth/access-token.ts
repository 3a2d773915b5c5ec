/** Access tokens: JWTs signed with the server's key, scoped to one realm, one tenant and one client. */
import { randomUUID } from 'node:crypto';
import { SignJWT, compactVerify } from 'jose';
import type { SigningKey } from './signing-keys.js';

export const ACCESS_TOKEN_TYPE = 'at+jwt';

export interface AccessTokenClaims {
  iss: string;
  sub: string;
  azp: string;
  /** The realm that issued it: a tenant id, or `master`. */
  realm: string;
  tenant: string;
  iat: number;
  exp: number;
  jti: string;
}

export interface IssueOptions {
  issuer: string;
  clientId: string;
  realm: string;
  tenantId: string;
  lifetimeSeconds: number;
  nowMs: number;
}

export async function issueAccessToken(key: SigningKey, options: IssueOptions): Promise<string> {
  const iat = Math.floor(options.nowMs / 1000);
  return new SignJWT({ azp: options.clientId, realm: options.realm, tenant: options.tenantId })
    .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: ACCESS_TOKEN_TYPE })
    .setIssuer(options.issuer)
    .setSubject(options.clientId)
    .setIssuedAt(iat)
    .setExpirationTime(iat + options.lifetimeSeconds)
    .setJti(randomUUID())
    .sign(key.privateKey);
}

/** Why a bearer token is refused, in words a caller can act on. */
export class InvalidAccessToken extends Error {}

/** Checks signature, type and expiry; which realm and tenant may use it is the guard's business. */
export async function verifyAccessToken(key: SigningKey, token: string, nowMs: number): Promise<AccessTokenClaims> {
  let result;
  try {
    result = await compactVerify(token, key.publicKey, { algorithms: ['RS256'] });
  } catch {
    throw new InvalidAccessToken('the token is malformed or its signature does not verify; get a new one from the token endpoint');
  }
  if (result.protectedHeader.typ !== ACCESS_TOKEN_TYPE) throw new InvalidAccessToken('the token is not an access token of this server');
  let claims: Partial<AccessTokenClaims>;
  try {
    claims = JSON.parse(new TextDecoder().decode(result.payload)) as Partial<AccessTokenClaims>;
  } catch {
    throw new InvalidAccessToken('the token payload is not JSON');
  }
  const complete =
    typeof claims.exp === 'number' && typeof claims.tenant === 'string' && typeof claims.realm === 'string' && typeof claims.sub === 'string';
  if (!complete) throw new InvalidAccessToken('the token lacks the exp, tenant, realm or sub claim');
  const now = Math.floor(nowMs / 1000);
  if (claims.exp! <= now) throw new InvalidAccessToken(`the token expired ${now - claims.exp!} s ago; get a new one from the token endpoint`);
  return claims as AccessTokenClaims;
}
