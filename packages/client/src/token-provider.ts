/**
 * Access tokens for a service account, in Node: signs a client assertion (RFC 7523) with the
 * account's private key, exchanges it at the token endpoint, and reuses the token until shortly
 * before it expires, so that a busy integration makes one token request every few minutes.
 */
import { SignJWT, importPKCS8, type CryptoKey } from 'jose';
import type { OAuthErrorBody, TokenRequest, TokenResponse } from '@discovery-kit/protocol';

export const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

export interface TokenProviderOptions {
  /** `https://host/auth/realms/<tenant id or master>/protocol/openid-connect/token`; also the assertion's `aud`. */
  tokenUrl: string;
  clientId: string;
  /** PKCS#8 PEM (`BEGIN PRIVATE KEY`), as `npm run account -- create` writes it. */
  privateKeyPem: string;
  fetch?: typeof fetch;
  /** Seconds before expiry at which a cached token is replaced (default 30, at most half its lifetime). */
  refreshMarginSeconds?: number;
  /** Retries of a 429 answer before giving up (default 4). */
  maxRetries?: number;
  /** Injectable for tests. */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export interface TokenProvider {
  /** A valid access token: the cached one, or a fresh one. */
  getToken(): Promise<string>;
  /** `Bearer <token>`, ready for the Authorization header. */
  authorization(): Promise<string>;
  /** Forgets the cached token, for instance after a 401 from an API. */
  invalidate(): void;
}

/** The token endpoint refused: `error` and `description` are the server's RFC 6749 fields. */
export class TokenRequestError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
  ) {
    super(`Token request failed (${status} ${error}): ${description}`);
    this.name = 'TokenRequestError';
  }
}

/** The token endpoint's answer under the protocol's field names; each value is checked, since a proxy may answer instead. */
type TokenAnswer = { [K in keyof TokenResponse | keyof OAuthErrorBody]?: unknown };

interface CachedToken {
  token: string;
  refreshAt: number;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createTokenProvider(options: TokenProviderOptions): TokenProvider {
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? defaultSleep;
  const maxRetries = options.maxRetries ?? 4;
  const margin = options.refreshMarginSeconds ?? 30;
  let key: Promise<CryptoKey> | undefined;
  let cached: CachedToken | undefined;
  let pending: Promise<string> | undefined;

  async function signAssertion(): Promise<string> {
    key ??= importPKCS8(options.privateKeyPem, 'RS256');
    const issuedAt = Math.floor(now() / 1000);
    return new SignJWT({})
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
      .setIssuer(options.clientId)
      .setSubject(options.clientId)
      .setAudience(options.tokenUrl)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + 60)
      .setJti(crypto.randomUUID())
      .sign(await key);
  }

  async function requestToken(): Promise<string> {
    for (let attempt = 0; ; attempt++) {
      // A fresh assertion per attempt: the server never accepts a jti twice.
      const body = new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: options.clientId,
        client_assertion_type: CLIENT_ASSERTION_TYPE,
        client_assertion: await signAssertion(),
      } satisfies TokenRequest);
      const response = await doFetch(options.tokenUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
      const payload = (await response.json().catch(() => ({}))) as TokenAnswer;
      if (response.status === 429 && attempt < maxRetries) {
        await sleep(retryDelayMs(response.headers.get('retry-after'), attempt, now()));
        continue;
      }
      if (!response.ok || typeof payload.access_token !== 'string') {
        throw new TokenRequestError(response.status, String(payload.error ?? 'invalid_response'), String(payload.error_description ?? `HTTP ${response.status}`));
      }
      const lifetime = typeof payload.expires_in === 'number' ? payload.expires_in : 60;
      cached = { token: payload.access_token, refreshAt: now() + (lifetime - Math.min(margin, lifetime / 2)) * 1000 };
      return payload.access_token;
    }
  }

  async function getToken(): Promise<string> {
    if (cached !== undefined && now() < cached.refreshAt) return cached.token;
    // Callers that ask at the same moment share one request.
    pending ??= requestToken().finally(() => {
      pending = undefined;
    });
    return pending;
  }

  return {
    getToken,
    authorization: async () => `Bearer ${await getToken()}`,
    invalidate() {
      cached = undefined;
    },
  };
}

/** Honours Retry-After (seconds or an HTTP date), never waiting less than an exponential back-off with jitter. */
export function retryDelayMs(retryAfter: string | null, attempt: number, nowMs: number): number {
  const backoff = 500 * 2 ** attempt * (1 + Math.random() * 0.2);
  if (retryAfter === null) return backoff;
  const seconds = Number(retryAfter);
  const asked = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(retryAfter) - nowMs;
  return Math.max(Number.isFinite(asked) ? asked : 0, backoff);
}
