/**
 * `npm run -s token -- <client-id>`: prints an access token for a service account whose private key
 * is at hand (the demo accounts' by default), so curl examples can set $TOKEN in one line; how long
 * it lasts goes to stderr.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createTokenProvider } from '@discovery-kit/client';
import { fail, readArgs } from './cli-args.js';

const DEMO_KEY = fileURLToPath(new URL('../demo/keys/demo-service-account.private.pem', import.meta.url));
const DEMO_REALMS: Record<string, string> = { 'demo-backoffice': 'demo-shop', 'demo-legacy': 'master' };

const USAGE = `Usage: npm run -s token -- <client-id> [--realm <tenant id | master>] [--key <private key PEM>] [--url <server URL>]

Prints an access token. For the demo accounts (demo-backoffice, demo-legacy) the realm and key are known.`;

async function main(): Promise<void> {
  const { values, positionals } = readArgs(USAGE, { realm: { type: 'string' }, key: { type: 'string' }, url: { type: 'string' } });
  const clientId = positionals[0];
  if (clientId === undefined) fail(USAGE);
  const realm = values.realm ?? DEMO_REALMS[clientId];
  if (realm === undefined) throw new Error(`Give the realm of ${clientId} with --realm (its tenant id, or master).`);
  const server = (values.url ?? process.env.DISCOVERY_URL ?? 'http://localhost:8787').replace(/\/$/, '');
  const provider = createTokenProvider({
    tokenUrl: `${server}/auth/realms/${realm}/protocol/openid-connect/token`,
    clientId,
    privateKeyPem: await readFile(values.key ?? DEMO_KEY, 'utf8'),
  });
  const token = await provider.getToken();
  console.log(token);
  // On stderr, so that TOKEN=$(npm run -s token -- …) still captures the token alone.
  const expires = expiryOf(token);
  if (expires !== undefined) {
    const seconds = Math.max(0, Math.round((expires - Date.now()) / 1000));
    console.error(`Token for ${clientId} (realm ${realm}): valid ${seconds} s, until ${new Date(expires).toISOString().slice(11, 19)} UTC. Run this again for a new one.`);
  }
}

/** The `exp` claim of a JWT, in milliseconds (the token is ours: read, not verified). */
function expiryOf(token: string): number | undefined {
  try {
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof claims.exp === 'number' ? claims.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
