/**
 * The token endpoint's refusals: RFC 6749 §5.2 bodies, kept apart from the general error shape that
 * every other API uses. The auth domain says what kind of refusal it is; the token endpoint
 * (apis/auth/token-endpoint.ts) picks the HTTP status and headers for each kind.
 */

import type { OAuthErrorCode } from '@discovery-kit/protocol';

export type { OAuthErrorCode } from '@discovery-kit/protocol';

/**
 * `invalid`: the request is wrong and the caller may learn exactly why; `unauthenticated`: the client
 * could not be authenticated; `not_found`: no such realm; `rate_limited`: too many requests, retry
 * after `retryAfterSeconds`; `internal`: our failure.
 */
export type OAuthRefusalKind = 'invalid' | 'unauthenticated' | 'not_found' | 'rate_limited' | 'internal';

export interface OAuthErrorBody {
  error: OAuthErrorCode;
  error_description: string;
}

export interface OAuthErrorOptions {
  /** Logged, never sent: why an authentication failed when the public answer must stay vague. */
  detail?: string;
  retryAfterSeconds?: number;
  /** The client authenticated with HTTP Basic, so the answer challenges it the same way (RFC 6749 §5.2). */
  basicChallenge?: boolean;
}

export class OAuthError extends Error {
  readonly kind: OAuthRefusalKind;
  readonly error: OAuthErrorCode;
  readonly detail: string | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly basicChallenge: boolean;

  constructor(kind: OAuthRefusalKind, error: OAuthErrorCode, description: string, options: OAuthErrorOptions = {}) {
    super(description);
    this.name = 'OAuthError';
    this.kind = kind;
    this.error = error;
    this.detail = options.detail;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.basicChallenge = options.basicChallenge ?? false;
  }

  toBody(): OAuthErrorBody {
    return { error: this.error, error_description: this.message };
  }
}

export function invalidRequest(description: string): OAuthError {
  return new OAuthError('invalid', 'invalid_request', description);
}

/** A claim or header of a signature-checked assertion is wrong: the caller holds the key, so it may learn exactly what. */
export function badAssertion(description: string): OAuthError {
  return new OAuthError('invalid', 'invalid_client', `Invalid client assertion: ${description}`);
}

/**
 * The one answer for an unknown client, a wrong secret and a signature that does not verify, so
 * that nobody learns which client ids exist. `detail` goes to the log for the operator.
 */
export function clientAuthenticationFailed(detail: string, basic = false): OAuthError {
  return new OAuthError('unauthenticated', 'invalid_client', 'Client authentication failed: the client is unknown, or its credentials (secret or assertion signature) are wrong.', {
    detail,
    basicChallenge: basic,
  });
}
