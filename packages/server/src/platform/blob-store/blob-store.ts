/**
 * The blob port: named binaries that are written whole and read whole (a tenant's trained item model),
 * too large or too opaque for a JSON document. The embedded adapter keeps one file per blob in the data
 * directory (file-blob-store.ts); a database adapter can keep a row per name (a `bytea` column) or use an
 * object store. docs/storage.md lists what every adapter must guarantee; test/contracts/blob-store-contract.ts checks it.
 *
 * Contract:
 * - `put(name, data)` resolves once the blob is durable; it replaces the blob atomically, so a reader
 *   (or the next start after a crash) sees the whole old blob or the whole new one, never a mix. `data`
 *   may come in pieces, stored one after the other as one blob: a writer that made its bytes in pieces
 *   (a snapshot out of gzip) need not join them, a copy of tens of megabytes in one step.
 * - `get(name)` resolves with the bytes last put, or `undefined` when there is no such blob.
 * - `remove(name)` forgets the blob; removing a missing blob is not an error.
 * - Names are `/`-separated segments of letters, digits, `.`, `_` and `-` (no `..`); an invalid name
 *   is refused before anything is stored.
 */

export interface BlobStore {
  put(name: string, data: Uint8Array | readonly Uint8Array[]): Promise<void>;
  get(name: string): Promise<Buffer | undefined>;
  remove(name: string): Promise<void>;
}
