/**
 * How the command-line tools that talk to a running server (import, privacy) reach it: the server's
 * URL and a service account of the tenant, from the same three options, and the same message when
 * nothing answers.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createTokenProvider, type TokenProvider } from '@discovery-kit/client';

const DEMO_KEY = fileURLToPath(new URL('../demo/keys/demo-service-account.private.pem', import.meta.url));

/** The parseArgs options every such tool accepts. */
export const CONNECTION_OPTIONS = {
  url: { type: 'string' },
  'client-id': { type: 'string' },
  key: { type: 'string' },
} as const;

export interface ServerConnection {
  /** The server's base URL, without a trailing slash. */
  server: string;
  tokens: TokenProvider;
}

export async function connect(values: { url?: string; 'client-id'?: string; key?: string }, tenant: string): Promise<ServerConnection> {
  const server = (values.url ?? process.env.DISCOVERY_URL ?? 'http://localhost:8787').replace(/\/$/, '');
  const tokens = createTokenProvider({
    tokenUrl: `${server}/auth/realms/${encodeURIComponent(tenant)}/protocol/openid-connect/token`,
    clientId: values['client-id'] ?? 'demo-backoffice',
    privateKeyPem: await readFile(values.key ?? DEMO_KEY, 'utf8'),
  });
  return { server, tokens };
}

/** The message for a server that does not answer, or undefined for any other error. */
export function unreachableMessage(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: string } }).cause;
  return cause?.code === 'ECONNREFUSED' ? `No server answers at the given URL (${(error as Error).message}): start it, or give --url.` : undefined;
}
