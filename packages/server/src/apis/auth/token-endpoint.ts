/**
 * The token endpoint as a short list of steps: answer in OAuth form, read the form, count the
 * request, authenticate the client, issue the token. Every answer, error or not, is `no-store`.
 */
import type { Context, Next } from 'koa';
import type { OAuthErrorBody, TokenResponse } from '@discovery-kit/protocol';
import type { ServerDeps } from '../api-module.js';
import type { AuthenticatedClient, ClientCredentials } from '../../domains/auth/auth-service.js';
import { parseBasicAuthorization } from '../../domains/auth/client-secret.js';
import { invalidRequest, OAuthError, type OAuthRefusalKind } from '../../domains/auth/oauth-error.js';
import type { RealmUrls } from '../../domains/auth/realms.js';
import { realmUrls } from './realm-urls.js';
import { HttpError } from '../http/errors.js';
import { isFormRequest, readFormBody } from '../http/body.js';

export const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
const TOKEN_BODY_LIMIT = 16 * 1024;

interface TokenState {
  realm: string;
  urls: RealmUrls;
  form: URLSearchParams;
  credentials: ClientCredentials;
  client: AuthenticatedClient;
}

function tokenState(ctx: Context): TokenState {
  return ctx.state as unknown as TokenState;
}

const statusOf: Record<OAuthRefusalKind, number> = { invalid: 400, unauthenticated: 401, not_found: 404, rate_limited: 429, internal: 500 };

/** Turns every failure, ours or the body reader's, into an RFC 6749 §5.2 body instead of the general error shape. */
async function answerInOAuthForm(ctx: Context, next: Next): Promise<void> {
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Pragma', 'no-cache');
  try {
    await next();
  } catch (error) {
    if (error instanceof HttpError) {
      // The body reader's refusals (too large, unreadable) keep their status.
      ctx.status = error.status;
      ctx.body = { error: 'invalid_request', error_description: error.message } satisfies OAuthErrorBody;
      return;
    }
    let oauth: OAuthError;
    if (error instanceof OAuthError) oauth = error;
    else {
      ctx.state.log?.error({ err: error }, 'token endpoint failed');
      oauth = new OAuthError('internal', 'server_error', 'The server failed to answer this token request. It has been logged.');
    }
    if (oauth.detail !== undefined) ctx.state.log?.info({ error: oauth.error, detail: oauth.detail }, 'token request refused');
    if (oauth.retryAfterSeconds !== undefined) ctx.set('Retry-After', String(oauth.retryAfterSeconds));
    if (oauth.basicChallenge) ctx.set('WWW-Authenticate', 'Basic realm="token endpoint", charset="UTF-8"');
    const body: OAuthErrorBody = oauth.toBody();
    ctx.status = statusOf[oauth.kind];
    ctx.body = body;
  }
}

function readTokenForm(deps: ServerDeps) {
  return async function readForm(ctx: Context, next: Next): Promise<void> {
    const realm = ctx.params.realm!;
    if (!deps.services.auth.realmExists(realm)) throw new OAuthError('not_found', 'invalid_request', `No realm "${realm}": use a tenant id, or "master" for the older APIs.`);
    if (!isFormRequest(ctx)) {
      const type = ctx.get('content-type');
      throw invalidRequest(`Send the token request as application/x-www-form-urlencoded${type === '' ? '' : `, not ${type.split(';')[0]}`}.`);
    }
    const form = await readFormBody(ctx, TOKEN_BODY_LIMIT);
    for (const name of new Set(form.keys())) {
      if (form.getAll(name).length > 1) throw invalidRequest(`The parameter "${name}" is repeated; send each parameter once.`);
    }
    const state = tokenState(ctx);
    state.realm = realm;
    state.urls = realmUrls(deps.config, ctx, realm);
    state.form = form;
    await next();
  };
}

function limitTokenRate(deps: ServerDeps) {
  return async function limitRate(ctx: Context, next: Next): Promise<void> {
    await deps.services.auth.checkSource(ctx.ip);
    try {
      await next();
    } catch (error) {
      // A refusal for going too fast is not a failed authentication: counting it would extend the block.
      if (!(error instanceof OAuthError && error.kind === 'rate_limited')) deps.services.auth.noteFailure(ctx.ip);
      throw error;
    }
  };
}

/** Which of the three client authentication methods was used; more than one, or none, is a bad request. */
function readCredentials(ctx: Context): ClientCredentials {
  const { form } = tokenState(ctx);
  const grantType = form.get('grant_type');
  if (grantType === null || grantType === '') throw invalidRequest('grant_type is required; use grant_type=client_credentials.');
  if (grantType !== 'client_credentials') {
    throw new OAuthError('invalid', 'unsupported_grant_type', `grant_type "${grantType}" is not supported; use client_credentials.`);
  }
  const basic = parseBasicAuthorization(ctx.get('authorization'));
  const assertion = form.get('client_assertion');
  const assertionType = form.get('client_assertion_type');
  const secret = form.get('client_secret');
  const formClientId = form.get('client_id');
  const used = [basic, assertion ?? assertionType, secret].filter((m) => m !== undefined && m !== null).length;
  if (used === 0) throw invalidRequest('No client authentication: send client_assertion (with client_assertion_type), or a client secret as client_secret or HTTP Basic.');
  if (used > 1) throw invalidRequest('Use exactly one client authentication method: an assertion, client_secret, or HTTP Basic.');
  if (basic !== undefined) {
    if (formClientId !== null && formClientId !== basic.clientId) throw invalidRequest('client_id differs from the client id in the Basic credentials.');
    return { method: 'client_secret_basic', clientId: basic.clientId, secret: basic.secret };
  }
  if (formClientId === null || formClientId === '') throw invalidRequest('client_id is required.');
  if (secret !== null) return { method: 'client_secret_post', clientId: formClientId, secret };
  if (assertionType !== ASSERTION_TYPE) {
    throw invalidRequest(`client_assertion_type must be ${ASSERTION_TYPE}${assertionType === null ? '' : `, not "${assertionType}"`}.`);
  }
  if (assertion === null || assertion === '') throw invalidRequest('client_assertion is required: a JWT signed with the client\'s private key.');
  return { method: 'private_key_jwt', clientId: formClientId, assertion };
}

function authenticateClient(deps: ServerDeps) {
  return async function authenticate(ctx: Context, next: Next): Promise<void> {
    const state = tokenState(ctx);
    state.credentials = readCredentials(ctx);
    state.client = await deps.services.auth.authenticate(state.credentials, state.realm, state.urls);
    await next();
  };
}

function issueToken(deps: ServerDeps) {
  return async function respondWithToken(ctx: Context): Promise<void> {
    const { client, realm, urls } = tokenState(ctx);
    const token: TokenResponse = await deps.services.auth.issueToken(client, realm, urls);
    ctx.body = token;
    ctx.state.log?.info({ clientId: client.clientId, tenant: client.tenant.id, realm }, 'access token issued');
  };
}

export function tokenEndpoint(deps: ServerDeps) {
  return [answerInOAuthForm, limitTokenRate(deps), readTokenForm(deps), authenticateClient(deps), issueToken(deps)];
}
