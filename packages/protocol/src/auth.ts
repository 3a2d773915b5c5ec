/**
 * Wire types of the auth host (`{auth_url}/auth/realms/{realm}/...`, realm = a tenant id or
 * `master`): the OAuth 2.0 client-credentials token endpoint, its discovery documents, and token-info.
 */

/** `POST .../protocol/openid-connect/token`, form-encoded, with a signed JWT assertion (RFC 7523). */
export interface TokenRequest {
  grant_type: 'client_credentials';
  client_id?: string;
  client_assertion_type?: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
  client_assertion?: string;
  /** Accounts configured with a secret instead of a key (form body or HTTP Basic). */
  client_secret?: string;
}

export interface TokenResponse {
  access_token: string;
  /** Seconds. */
  expires_in: number;
  token_type: 'bearer';
  'not-before-policy': 0;
}

/** RFC 6749 §5.2 error codes: the token endpoint's errors, apart from the general error body. */
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

/** `GET .../.well-known/openid-configuration`. */
export interface OpenIdConfiguration {
  issuer: string;
  token_endpoint: string;
  jwks_uri: string;
  grant_types_supported: string[];
  response_types_supported: string[];
  token_endpoint_auth_methods_supported: string[];
  token_endpoint_auth_signing_alg_values_supported: string[];
}

/** `GET .../protocol/openid-connect/certs`: the public keys that verify the realm's access tokens. */
export interface JsonWebKeySet {
  keys: object[];
}

/** `GET .../token-info` with a bearer token of that realm. */
export interface TokenInfoResponse {
  clientId: string;
  tenant: string;
  realm: string;
  /** Seconds since the epoch. */
  expiresAt: number;
}
