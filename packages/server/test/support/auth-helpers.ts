/** Builds client assertions and token requests for the auth tests, from the fixture keys. */
import { request as httpRequest } from 'node:http';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT, importPKCS8, type CryptoKey, type JWTPayload } from 'jose';
import { FIXTURES, call } from './test-server.js';

export const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

export function fixturePem(name: string): string {
  return readFileSync(join(FIXTURES, name), 'utf8');
}

export function privateKeyOf(client: 'client-a' | 'client-b'): Promise<CryptoKey> {
  return importPKCS8(fixturePem(`${client}.private.pem`), 'RS256');
}

export function tokenUrl(base: string, realm: string): string {
  return `${base}/auth/realms/${realm}/protocol/openid-connect/token`;
}

export interface AssertionOptions {
  key: CryptoKey;
  clientId: string;
  aud: string | string[];
  nowMs: number;
  /** Claims to replace (undefined removes one). */
  claims?: Record<string, unknown>;
}

export async function signAssertion(options: AssertionOptions): Promise<string> {
  const now = Math.floor(options.nowMs / 1000);
  const payload: Record<string, unknown> = { iss: options.clientId, sub: options.clientId, aud: options.aud, iat: now, exp: now + 60, jti: randomUUID(), ...options.claims };
  for (const [name, value] of Object.entries(payload)) if (value === undefined) delete payload[name];
  return new SignJWT(payload as JWTPayload).setProtectedHeader({ alg: 'RS256' }).sign(options.key);
}

export function assertionForm(clientId: string, assertion: string, extra: Record<string, string> = {}): URLSearchParams {
  return new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_assertion_type: ASSERTION_TYPE, client_assertion: assertion, ...extra });
}

export function postForm(url: string, form: URLSearchParams | string, headers: Record<string, string> = {}) {
  return call(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: form.toString() });
}

/** base64url of a JSON value, for hand-made JWTs (alg none, forged headers). */
export function b64json(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** The same POST from a chosen local address (any 127.x address reaches a server on the loopback), to act as another client. */
export function postFormFrom(localAddress: string, url: string, form: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', localAddress, headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(form) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text === '' ? undefined : JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(form);
  });
}
