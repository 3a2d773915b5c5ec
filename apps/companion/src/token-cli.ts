/**
 * `npm run -s token -- <client-id>`: prints an access token for a service account whose private key
 * is at hand (the demo accounts' by default), so curl examples can set $TOKEN in one line.
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
  console.log(await provider.getToken());
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
