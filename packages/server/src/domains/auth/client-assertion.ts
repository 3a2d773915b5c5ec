/**
 * Checks a client assertion (RFC 7523 §3, as Keycloak does): RS256 only, signed with the key
 * registered for the client, `iss` = `sub` = client id, one `aud` naming the realm, a short `exp`,
 * `nbf`/`iat` with a little clock skew, and a `jti` never accepted twice before it expires.
 */
import { compactVerify, decodeProtectedHeader, errors, type CryptoKey } from 'jose';
import { badAssertion, clientAuthenticationFailed } from './oauth-error.js';
import type { ReplayCache } from './replay-cache.js';

/** Seconds of disagreement between the caller's clock and ours that `exp`, `nbf` and `iat` forgive. */
export const CLOCK_SKEW_SECONDS = 30;

export interface AssertionExpectations {
  clientId: string;
  key: CryptoKey;
  /** The token endpoint URL and the issuer URL of the realm: `aud` must be one of them. */
  audiences: readonly string[];
  maxLifetimeSeconds: number;
  nowMs: number;
}

export interface VerifiedAssertion {
  jti: string;
  expiresAtMs: number;
}

/** Refuses every algorithm but RS256 before touching a key, so that `none` or HS256-with-the-public-key never get a chance. */
export function checkAssertionAlgorithm(assertion: string): void {
  let alg: unknown;
  try {
    alg = decodeProtectedHeader(assertion).alg;
  } catch {
    throw badAssertion('client_assertion is not a compact JWT (three base64url parts separated by dots).');
  }
  if (assertion.split('.').length !== 3) throw badAssertion('client_assertion must be a signed JWT (JWS), not an encrypted one.');
  if (alg !== 'RS256') throw badAssertion(`the signature algorithm must be RS256, not ${typeof alg === 'string' ? alg : 'missing'}.`);
}

export async function verifyClientAssertion(assertion: string, expected: AssertionExpectations, replays: ReplayCache): Promise<VerifiedAssertion> {
  checkAssertionAlgorithm(assertion);
  let payloadBytes: Uint8Array;
  try {
    ({ payload: payloadBytes } = await compactVerify(assertion, expected.key, { algorithms: ['RS256'] }));
  } catch (error) {
    if (error instanceof errors.JWSSignatureVerificationFailed) {
      throw clientAuthenticationFailed(`assertion signature of ${expected.clientId} does not verify with its registered key`);
    }
    throw badAssertion(`the JWT cannot be read (${error instanceof Error ? error.message : String(error)}).`);
  }
  const claims = parseClaims(payloadBytes);
  const now = Math.floor(expected.nowMs / 1000);

  if (claims.iss !== expected.clientId) throw badAssertion(`iss must be the client id "${expected.clientId}", not ${show(claims.iss)}.`);
  if (claims.sub !== expected.clientId) throw badAssertion(`sub must equal iss, the client id "${expected.clientId}", not ${show(claims.sub)}.`);
  if (Array.isArray(claims.aud)) throw badAssertion(`aud must be one string naming this realm (${expected.audiences[0]}), not an array.`);
  if (typeof claims.aud !== 'string' || !expected.audiences.includes(claims.aud)) {
    throw badAssertion(`aud must be this realm's token endpoint (${expected.audiences[0]}) or its issuer (${expected.audiences[1]}), not ${show(claims.aud)}.`);
  }

  const exp = numericDate(claims.exp, 'exp', true)!;
  const iat = numericDate(claims.iat, 'iat', false);
  const nbf = numericDate(claims.nbf, 'nbf', false);
  if (exp + CLOCK_SKEW_SECONDS <= now) throw badAssertion(`the assertion expired ${now - exp} s ago; sign a fresh one for each request.`);
  if (nbf !== undefined && nbf > now + CLOCK_SKEW_SECONDS) throw badAssertion(`nbf is ${nbf - now} s in the future; check the client's clock.`);
  if (iat !== undefined && iat > now + CLOCK_SKEW_SECONDS) throw badAssertion(`iat is ${iat - now} s in the future; check the client's clock.`);
  const lifetime = exp - (iat ?? now);
  if (lifetime > expected.maxLifetimeSeconds) {
    throw badAssertion(`exp is ${lifetime} s after ${iat === undefined ? 'now' : 'iat'}; this client allows at most ${expected.maxLifetimeSeconds} s.`);
  }

  if (typeof claims.jti !== 'string' || claims.jti === '') throw badAssertion('jti is required: a unique id for each assertion.');
  if (claims.jti.length > 256) throw badAssertion('jti is longer than 256 characters.');
  if (replays.has(expected.clientId, claims.jti, expected.nowMs)) throw badAssertion(`jti "${claims.jti}" was already used; sign a new assertion with a new jti.`);
  return { jti: claims.jti, expiresAtMs: (exp + CLOCK_SKEW_SECONDS) * 1000 };
}

function parseClaims(bytes: Uint8Array): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw badAssertion('the JWT payload is not JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badAssertion('the JWT payload is not a JSON object.');
  return value as Record<string, unknown>;
}

function numericDate(value: unknown, name: string, required: boolean): number | undefined {
  if (value === undefined && !required) return undefined;
  if (value === undefined) throw badAssertion(`${name} is required (seconds since the epoch).`);
  if (typeof value !== 'number' || !Number.isFinite(value)) throw badAssertion(`${name} must be a number of seconds since the epoch, not ${show(value)}.`);
  return Math.floor(value);
}

function show(value: unknown): string {
  return value === undefined ? 'missing' : JSON.stringify(value);
}
