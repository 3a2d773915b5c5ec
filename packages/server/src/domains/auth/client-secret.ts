/** The password method: a client secret, compared as SHA-256 in constant time with the hash in the configuration. */
import { createHash, timingSafeEqual } from 'node:crypto';
import { invalidRequest } from './oauth-error.js';

export function secretMatches(secret: string, configuredHash: string): boolean {
  const expected = Buffer.from(configuredHash.replace(/^sha256:/, ''), 'hex');
  const actual = createHash('sha256').update(secret, 'utf8').digest();
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

export interface BasicCredentials {
  clientId: string;
  secret: string;
}

/** Reads `Authorization: Basic` as RFC 6749 §2.3.1 defines it: form-urlencoded id and secret, joined by a colon. */
export function parseBasicAuthorization(header: string): BasicCredentials | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (header === '' || /^Bearer\s/i.test(header)) return undefined;
  if (match === null) throw invalidRequest('The Authorization header must be "Basic " followed by base64 of client_id:client_secret.');
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw invalidRequest('The Basic credentials must be client_id:client_secret, with a colon.');
  try {
    return { clientId: decodeFormComponent(decoded.slice(0, colon)), secret: decodeFormComponent(decoded.slice(colon + 1)) };
  } catch {
    throw invalidRequest('The Basic credentials are not valid form-urlencoded text.');
  }
}

function decodeFormComponent(text: string): string {
  return decodeURIComponent(text.replace(/\+/g, ' '));
}
