/**
 * The authentication service every guarded API shares: it authenticates service accounts at the
 * token endpoint, issues access tokens, and verifies them for the bearer guard.
 */
import { createHash } from 'node:crypto';
import { compactVerify } from 'jose';
import type { ServiceContext } from '../../platform/service-context.js';
import type { ServiceAccountConfig, TenantConfig } from '../../platform/config/schema.js';
import { issueAccessToken, verifyAccessToken, type AccessTokenClaims } from './access-token.js';
import { checkAssertionAlgorithm, verifyClientAssertion } from './client-assertion.js';
import { ClientKeys } from './client-keys.js';
import { secretMatches } from './client-secret.js';
import { clientAuthenticationFailed, OAuthError, badAssertion } from './oauth-error.js';
import { SlidingWindowLimiter } from './rate-limit.js';
import { MASTER_REALM, type RealmUrls } from './realms.js';
import { ReplayCache } from './replay-cache.js';
import { loadSigningKey, type SigningKey } from './signing-keys.js';

/** Token requests allowed per second, per realm and per client (spec, "Limits"). */
export const TOKEN_REQUESTS_PER_SECOND = 10;

const UNUSED_HASH = `sha256:${'0'.repeat(64)}`;

export type ClientCredentials =
  | { method: 'private_key_jwt'; clientId: string; assertion: string }
  | { method: 'client_secret_post' | 'client_secret_basic'; clientId: string; secret: string };

export interface AuthenticatedClient {
  clientId: string;
  tenant: TenantConfig;
  account: ServiceAccountConfig;
}

export interface TokenResponse {
  access_token: string;
  expires_in: number;
  token_type: 'bearer';
  'not-before-policy': 0;
}

type AuthDeps = Pick<ServiceContext, 'config' | 'registry' | 'store' | 'clock' | 'rateWindows'>;

function slowDown(retryAfterSeconds: number): OAuthError {
  return new OAuthError('rate_limited', 'slow_down', `More than ${TOKEN_REQUESTS_PER_SECOND} token requests in one second; retry in ${retryAfterSeconds} s, and cache tokens until they expire.`, {
    retryAfterSeconds,
  });
}

export class AuthService {
  /** Failed requests per source address. */
  private readonly failures = new SlidingWindowLimiter(TOKEN_REQUESTS_PER_SECOND);
  /** Tokens issued per client and realm: a client that signs correctly but asks too often. */
  private readonly issued = new SlidingWindowLimiter(TOKEN_REQUESTS_PER_SECOND);
  private readonly clientKeys: ClientKeys;

  constructor(
    private readonly deps: AuthDeps,
    readonly signingKey: SigningKey,
    readonly replays: ReplayCache,
  ) {
    this.clientKeys = new ClientKeys(deps.config.publicKeys);
  }

  /** Whether `realm` names a realm: a configured tenant, or `master`. */
  realmExists(realm: string): boolean {
    return realm === MASTER_REALM || this.deps.registry.findTenant(realm) !== undefined;
  }

  /**
   * Refuses, before any work, a source address that sent more than TOKEN_REQUESTS_PER_SECOND failed
   * token requests in the last second. Only failures count here, and only per address: junk sent by
   * someone else, under any client id, never blocks a client that signs correctly from its own address.
   */
  async checkSource(address: string): Promise<void> {
    const decision = this.failures.peek([`addr:${address}`], this.deps.clock.now());
    if (!decision.allowed) throw slowDown(decision.retryAfterSeconds);
    // Failures counted by every process serving the shop (Redis), when they are shared.
    const shared = await this.deps.rateWindows?.hit(`token-failures:${address}`, 1000, 0);
    if (shared !== undefined && shared.hits >= TOKEN_REQUESTS_PER_SECOND) throw slowDown(Math.max(1, Math.ceil(shared.resetMs / 1000)));
  }

  /** Counts a refused token request under its source address (and, for a configured client, under that client for the log). */
  noteFailure(address: string): void {
    this.failures.hit([`addr:${address}`], this.deps.clock.now());
    void this.deps.rateWindows?.hit(`token-failures:${address}`, 1000);
  }

  /** Counts a token about to be issued to a client that authenticated: more than the limit in one second is 429. */
  private async countIssue(realm: string, clientId: string): Promise<void> {
    const decision = this.issued.hit([`client:${realm}:${clientId}`], this.deps.clock.now());
    if (!decision.allowed) throw slowDown(decision.retryAfterSeconds);
    const shared = await this.deps.rateWindows?.hit(`tokens-issued:${realm}:${clientId}`, 1000);
    if (shared !== undefined && shared.hits > TOKEN_REQUESTS_PER_SECOND) throw slowDown(Math.max(1, Math.ceil(shared.resetMs / 1000)));
  }

  async authenticate(credentials: ClientCredentials, realm: string, urls: RealmUrls): Promise<AuthenticatedClient> {
    const basic = credentials.method === 'client_secret_basic';
    // Checked before the lookup, so that a known and an unknown client id get the same answer to a bad algorithm.
    if (credentials.method === 'private_key_jwt') checkAssertionAlgorithm(credentials.assertion);
    const found = this.deps.registry.serviceAccount(credentials.clientId);
    if (found === undefined) {
      // The same work as for a known client, so that the answer's timing says nothing either.
      if (credentials.method === 'private_key_jwt') await compactVerify(credentials.assertion, this.signingKey.publicKey).catch(() => undefined);
      else secretMatches(credentials.secret, UNUSED_HASH);
      // Whatever was sent as an id may be a secret pasted in the wrong field: only a digest goes to the log.
      throw clientAuthenticationFailed(`unknown client id (sha256 ${createHash('sha256').update(credentials.clientId).digest('hex').slice(0, 12)})`, basic);
    }
    const { tenant, account } = found;
    if (credentials.method === 'private_key_jwt') {
      const key = this.clientKeys.get(credentials.clientId);
      if (key === undefined) throw clientAuthenticationFailed(`${credentials.clientId} uses the password method but sent an assertion`);
      const nowMs = this.deps.clock.now();
      const verified = await verifyClientAssertion(
        credentials.assertion,
        { clientId: credentials.clientId, key: await key, audiences: [urls.tokenEndpoint, urls.issuer], maxLifetimeSeconds: account.assertionMaxLifetimeSeconds, nowMs },
        this.replays,
      );
      checkRealm(account, tenant, realm);
      await this.countIssue(realm, credentials.clientId);
      // Taken only once everything passed (a refused assertion must not burn its jti), and on disk before the token.
      if (!(await this.replays.claim(credentials.clientId, verified.jti, verified.expiresAtMs, nowMs))) {
        throw badAssertion(`jti "${verified.jti}" was already used; sign a new assertion with a new jti.`);
      }
    } else {
      if (account.clientSecretHash === undefined) throw clientAuthenticationFailed(`${credentials.clientId} uses a key but sent a secret`, basic);
      if (!secretMatches(credentials.secret, account.clientSecretHash)) throw clientAuthenticationFailed(`wrong secret for ${credentials.clientId}`, basic);
      checkRealm(account, tenant, realm);
      await this.countIssue(realm, credentials.clientId);
    }
    return { clientId: credentials.clientId, tenant, account };
  }

  async issueToken(client: AuthenticatedClient, realm: string, urls: RealmUrls): Promise<TokenResponse> {
    const lifetime = client.account.accessTokenLifetimeSeconds;
    const accessToken = await issueAccessToken(this.signingKey, {
      issuer: urls.issuer,
      clientId: client.clientId,
      realm,
      tenantId: client.tenant.id,
      lifetimeSeconds: lifetime,
      nowMs: this.deps.clock.now(),
    });
    return { access_token: accessToken, expires_in: lifetime, token_type: 'bearer', 'not-before-policy': 0 };
  }

  verifyBearer(token: string): Promise<AccessTokenClaims> {
    return verifyAccessToken(this.signingKey, token, this.deps.clock.now());
  }

  jwks(): { keys: object[] } {
    return { keys: [this.signingKey.publicJwk] };
  }
}

/** A tenant-realm account serves only its tenant's realm; a master-realm account only `master`. */
function checkRealm(account: ServiceAccountConfig, tenant: TenantConfig, realm: string): void {
  const home = account.realm === 'master' ? MASTER_REALM : tenant.id;
  if (realm !== home) {
    throw new OAuthError('invalid', 'unauthorized_client', `Client "${account.clientId}" belongs to realm "${home}"; request its tokens at /auth/realms/${home}/protocol/openid-connect/token.`);
  }
}

export async function createAuthService(deps: AuthDeps): Promise<AuthService> {
  return new AuthService(deps, await loadSigningKey(deps.store, () => deps.clock.now()), await ReplayCache.open(deps.store));
}
