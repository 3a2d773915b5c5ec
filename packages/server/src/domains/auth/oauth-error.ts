/** The token endpoint's errors: RFC 6749 §5.2 bodies, kept apart from the general error shape that every other API uses. */

export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'slow_down'
  | 'server_error';

export interface OAuthErrorBody {
  error: OAuthErrorCode;
  error_description: string;
}

export class OAuthError extends Error {
  readonly status: number;
  readonly error: OAuthErrorCode;
  readonly headers: Record<string, string>;
  /** Logged, never sent: why an authentication failed when the public answer must stay vague. */
  readonly detail: string | undefined;

  constructor(status: number, error: OAuthErrorCode, description: string, options: { headers?: Record<string, string>; detail?: string } = {}) {
    super(description);
    this.name = 'OAuthError';
    this.status = status;
    this.error = error;
    this.headers = options.headers ?? {};
    this.detail = options.detail;
  }

  toBody(): OAuthErrorBody {
    return { error: this.error, error_description: this.message };
  }
}

export function invalidRequest(description: string): OAuthError {
  return new OAuthError(400, 'invalid_request', description);
}

/** A claim or header of a signature-checked assertion is wrong: the caller holds the key, so it may learn exactly what. */
export function badAssertion(description: string): OAuthError {
  return new OAuthError(400, 'invalid_client', `Invalid client assertion: ${description}`);
}

/**
 * The one answer for an unknown client, a wrong secret and a signature that does not verify, so
 * that nobody learns which client ids exist. `detail` goes to the log for the operator.
 */
export function clientAuthenticationFailed(detail: string, basic = false): OAuthError {
  return new OAuthError(401, 'invalid_client', 'Client authentication failed: the client is unknown, or its credentials (secret or assertion signature) are wrong.', {
    detail,
    headers: basic ? { 'WWW-Authenticate': 'Basic realm="token endpoint", charset="UTF-8"' } : {},
  });
}
