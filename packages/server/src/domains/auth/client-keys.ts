/** The registered public keys of service accounts, imported once: SPKI public keys or X.509 certificates. */
import { importSPKI, importX509, type CryptoKey } from 'jose';

export class ClientKeys {
  private readonly imported = new Map<string, Promise<CryptoKey>>();

  constructor(private readonly pems: ReadonlyMap<string, string>) {}

  /** The client's RS256 verification key, or undefined when the client has no key (unknown, or password method). */
  get(clientId: string): Promise<CryptoKey> | undefined {
    const pem = this.pems.get(clientId);
    if (pem === undefined) return undefined;
    let key = this.imported.get(clientId);
    if (key === undefined) {
      key = pem.includes('BEGIN CERTIFICATE') ? importX509(pem, 'RS256') : importSPKI(pem, 'RS256');
      this.imported.set(clientId, key);
    }
    return key;
  }
}
