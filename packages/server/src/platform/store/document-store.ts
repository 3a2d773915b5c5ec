/**
 * The storage contract every service uses. A store holds named JSON documents, one per concern
 * (a tenant's catalogs, one catalog version's items, profiles...), so that a write rewrites one
 * concern, never everything. The embedded adapter is lowdb; a PostgreSQL adapter can implement the
 * same two interfaces (a document per row, `update` in a transaction) without touching the APIs.
 *
 * Contract:
 * - `document(name)` returns the same instance for the same name for the life of the store.
 * - `update(mutate)` runs mutators one at a time per document, in call order, and resolves after the
 *   change is durably written. A mutator must validate before it changes anything: if it throws, the
 *   store rolls the in-memory data back to the last written state and writes nothing.
 * - `updateMany(changes)` applies mutators to several documents as one atomic write: after a crash,
 *   either every document holds its change or none does. It waits for the earlier updates of each.
 * - `settled()` of a document resolves once every update started before the call is durable, so a
 *   reader that must not report a state before it is on disk can wait for it.
 * - `flush()` resolves when every acknowledged update is on disk; `close()` flushes, then releases
 *   the data directory.
 */

export interface StoredDocument<T> {
  /** The current data. Treat as read-only outside `update`. */
  readonly data: T;
  update<R>(mutate: (data: T) => R): Promise<R>;
  settled(): Promise<void>;
  /**
   * Shared stores only (several processes on one PostgreSQL): calls `listener` after `data` was
   * replaced by what another process committed. Returns the way to stop listening.
   */
  onChange?(listener: () => void): () => void;
}

export interface DocumentChange {
  document: StoredDocument<object>;
  mutate(data: object): void;
}

export interface DocumentStore {
  /** Names are `/`-separated segments of letters, digits, `.`, `_` and `-` (no `..`). */
  document<T extends object>(name: string, defaults: () => T): Promise<StoredDocument<T>>;
  /** Names of stored documents under a prefix, such as `tenants/demo/catalogs/`. */
  list(prefix: string): Promise<string[]>;
  /** Changes several documents in one atomic write (all or none after a crash). */
  updateMany(changes: readonly DocumentChange[]): Promise<void>;
  /** Removes a document and its file. */
  remove(name: string): Promise<void>;
  flush(): Promise<void>;
  close(): Promise<void>;
}

const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

export function assertDocumentName(name: string): void {
  const segments = name.split('/');
  if (segments.length === 0 || segments.some((s) => !SEGMENT.test(s) || s === '.' || s === '..')) {
    throw new Error(`Invalid document name "${name}"`);
  }
}
