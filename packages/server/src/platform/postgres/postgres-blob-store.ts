/**
 * The BlobStore port on PostgreSQL: a row per blob (`blobs`: name, bytea), replaced in one statement,
 * so a reader in any process sees the whole old blob or the whole new one. A second process loads the
 * item model the first one trained from here.
 */
import { assertDocumentName } from '../store/document-store.js';
import type { BlobStore } from '../blob-store/blob-store.js';
import type { PostgresEngine } from './postgres-engine.js';

export class PostgresBlobStore implements BlobStore {
  private readonly engine: PostgresEngine;

  constructor(options: { engine: PostgresEngine }) {
    this.engine = options.engine;
  }

  async put(name: string, data: Uint8Array | readonly Uint8Array[]): Promise<void> {
    checkName(name);
    // A bytea parameter is one buffer: pieces are joined here.
    if (Array.isArray(data)) data = Buffer.concat(data as readonly Uint8Array[]);
    if (!(data instanceof Uint8Array)) throw new TypeError('blob data must be bytes');
    await this.engine.query(
      'INSERT INTO blobs (name, data, updated_at) VALUES ($1, $2, now()) ON CONFLICT (name) DO UPDATE SET data = EXCLUDED.data, updated_at = now()',
      [name, Buffer.from(data.buffer, data.byteOffset, data.byteLength)],
    );
  }

  async get(name: string): Promise<Buffer | undefined> {
    checkName(name);
    const { rows } = await this.engine.query<{ data: Buffer }>('SELECT data FROM blobs WHERE name = $1', [name]);
    return rows[0]?.data;
  }

  async remove(name: string): Promise<void> {
    checkName(name);
    await this.engine.query('DELETE FROM blobs WHERE name = $1', [name]);
  }
}

function checkName(name: string): void {
  try {
    assertDocumentName(name);
  } catch {
    throw new Error(`Invalid blob name "${name}"`);
  }
}
