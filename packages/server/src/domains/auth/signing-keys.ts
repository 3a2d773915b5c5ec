/**
 * The server's own RS256 key pair, which signs access tokens. Generated on first start and kept in
 * the document store, so that tokens stay valid across restarts; the public half is the realm JWKS.
 */
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import type { DocumentStore } from '../../platform/store/document-store.js';

export const SIGNING_KEYS_DOCUMENT = 'auth/signing-keys';

interface StoredSigningKey {
  kid: string;
  /** The private JWK: the store's directory must be as private as the configuration's secrets. */
  privateJwk: JWK;
  createdAt: string;
}

interface SigningKeysDocument {
  keys: StoredSigningKey[];
}

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  publicJwk: JWK;
}

const PRIVATE_MEMBERS = new Set(['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth']);

function publicPart(jwk: JWK): JWK {
  return Object.fromEntries(Object.entries(jwk).filter(([name]) => !PRIVATE_MEMBERS.has(name))) as JWK;
}

/** Loads the current signing key, creating it when the store has none. */
export async function loadSigningKey(store: DocumentStore, now: () => number): Promise<SigningKey> {
  const document = await store.document<SigningKeysDocument>(SIGNING_KEYS_DOCUMENT, () => ({ keys: [] }));
  let stored = document.data.keys.at(-1);
  if (stored === undefined) {
    const pair = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
    const privateJwk = await exportJWK(pair.privateKey);
    const kid = await calculateJwkThumbprint(publicPart(privateJwk));
    const created: StoredSigningKey = { kid, privateJwk, createdAt: new Date(now()).toISOString() };
    // Decided inside the update: processes starting together on an empty shared store (PostgreSQL
    // locks and re-reads the row) keep the first key stored, so each verifies the others' tokens.
    await document.update((data) => {
      if (data.keys.length === 0) data.keys.push(created);
    });
    stored = document.data.keys.at(-1)!;
  }
  const publicJwk: JWK = { ...publicPart(stored.privateJwk), kid: stored.kid, alg: 'RS256', use: 'sig' };
  return {
    kid: stored.kid,
    privateKey: (await importJWK({ ...stored.privateJwk, alg: 'RS256' }, 'RS256')) as CryptoKey,
    publicKey: (await importJWK(publicJwk, 'RS256')) as CryptoKey,
    publicJwk,
  };
}
