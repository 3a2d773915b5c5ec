/**
 * The DocumentStore port on PostgreSQL, for several processes over one database: a row per document
 * (`documents`: name, data, version). Each process keeps the documents it opened in memory for the
 * synchronous `data` reads; an update locks the row, takes the newer data if another process wrote
 * since (the version says), applies the mutator, writes, and resolves after the commit. Every commit
 * sends a notice, so the other processes reload the row within moments.
 */
import type pg from 'pg';
import { assertDocumentName, type DocumentChange, type DocumentStore, type StoredDocument } from '../store/document-store.js';
import type { ChangeNotice, PostgresEngine } from './postgres-engine.js';
import { PendingWrites } from '../store/pending-writes.js';

interface Row {
  data: unknown;
  version: string;
}

class PostgresDocument<T extends object> implements StoredDocument<T> {
  readonly name: string;
  private current: T;
  /** The committed version `current` holds (0: no row). */
  version: number;
  private tail: Promise<unknown> = Promise.resolve();
  private readonly defaults: () => T;
  private readonly track: (work: Promise<unknown>) => void;
  private readonly listeners = new Set<() => void>();

  constructor(name: string, data: T, version: number, defaults: () => T, track: (work: Promise<unknown>) => void) {
    this.name = name;
    this.current = data;
    this.version = version;
    this.defaults = defaults;
    this.track = track;
  }

  get data(): T {
    return this.current;
  }

  settled(): Promise<void> {
    return this.tail.then(() => undefined);
  }

  /** Runs `work` after every earlier update or refresh of this document; `tracked` work counts for flush. */
  enqueue<R>(work: () => Promise<R>, tracked = true): Promise<R> {
    const run = this.tail.then(work);
    this.tail = run.catch(() => undefined);
    if (tracked) this.track(run);
    return run;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tells the listeners that another process's commit replaced the data. */
  changed(): void {
    for (const listener of this.listeners) listener();
  }

  /** Takes the row's state (or the defaults when there is none). */
  adopt(row: Row | undefined): void {
    this.current = row === undefined ? this.defaults() : (row.data as T);
    this.version = row === undefined ? 0 : Number(row.version);
  }

  /** Locks the row in `client`'s transaction, and takes its data when another process wrote since. */
  async lock(client: pg.ClientBase): Promise<void> {
    const select = 'SELECT version FROM documents WHERE name = $1 FOR UPDATE';
    let { rows } = await client.query<{ version: string }>(select, [this.name]);
    if (rows.length === 0) {
      // No row to lock yet: two processes creating the document would both insert, the second overwriting
      // the first's write unseen. A lock on the name makes the second wait, then read the first's row.
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`discovery-kit document ${this.name}`]);
      ({ rows } = await client.query<{ version: string }>(select, [this.name]));
    }
    const version = rows.length === 0 ? 0 : Number(rows[0]!.version);
    if (version === this.version) return;
    const fresh = await client.query<Row>('SELECT data, version FROM documents WHERE name = $1', [this.name]);
    this.adopt(fresh.rows[0]);
  }

  /** Writes the data in memory as the next version, in `client`'s transaction. */
  async write(client: pg.ClientBase): Promise<void> {
    const next = this.version + 1;
    await client.query(
      'INSERT INTO documents (name, data, version) VALUES ($1, $2, $3) ON CONFLICT (name) DO UPDATE SET data = EXCLUDED.data, version = EXCLUDED.version',
      [this.name, JSON.stringify(this.current), next],
    );
  }

  update<R>(mutate: (data: T) => R): Promise<R> {
    return this.enqueue(() => this.store.runUpdate(this, mutate));
  }

  store!: PostgresDocumentStore;
}

export interface PostgresDocumentStoreOptions {
  engine: PostgresEngine;
}

export class PostgresDocumentStore implements DocumentStore {
  private readonly engine: PostgresEngine;
  private readonly documents = new Map<string, Promise<PostgresDocument<object>>>();
  private readonly pending = new PendingWrites();
  private readonly release: () => Promise<void>;
  private readonly stopListening: Array<() => void> = [];
  private closed = false;

  constructor(options: PostgresDocumentStoreOptions) {
    this.engine = options.engine;
    this.release = this.engine.retain();
    this.stopListening.push(
      this.engine.onNotice((notice) => this.heard(notice)),
      // Notices sent while the listening connection was down were missed: compare every version.
      this.engine.onReconnect(() => void this.catchUp().catch(() => undefined)),
    );
  }

  document<T extends object>(name: string, defaults: () => T): Promise<StoredDocument<T>> {
    if (this.closed) return Promise.reject(new Error('The store is closed'));
    try {
      assertDocumentName(name);
    } catch (error) {
      return Promise.reject(error);
    }
    let opened = this.documents.get(name);
    if (opened === undefined) {
      opened = (async () => {
        const { rows } = await this.engine.query<Row>('SELECT data, version FROM documents WHERE name = $1', [name]);
        const row = rows[0];
        const doc = new PostgresDocument<T>(name, row === undefined ? defaults() : (row.data as T), row === undefined ? 0 : Number(row.version), defaults, (work) =>
          this.pending.track(work),
        );
        doc.store = this;
        return doc as unknown as PostgresDocument<object>;
      })();
      this.documents.set(name, opened);
      opened.catch(() => this.documents.delete(name));
    }
    return opened as unknown as Promise<StoredDocument<T>>;
  }

  /** One update of one document, in its own transaction (called in the document's queue). */
  async runUpdate<T extends object, R>(doc: PostgresDocument<T>, mutate: (data: T) => R): Promise<R> {
    let result!: R;
    try {
      await this.engine.transaction(async (client) => {
        await doc.lock(client);
        result = mutate(doc.data);
        await doc.write(client);
        await this.engine.notify(client, { topic: 'document', name: doc.name, version: doc.version + 1 });
      });
    } catch (error) {
      // The row holds the last committed state: go back to it (the mutator may have half-changed the data).
      await this.reload(doc);
      throw error;
    }
    doc.version++;
    return result;
  }

  async updateMany(changes: readonly DocumentChange[]): Promise<void> {
    const docs = changes.map((change) => {
      if (!(change.document instanceof PostgresDocument)) throw new Error('updateMany takes documents of this store only');
      return change.document as PostgresDocument<object>;
    });
    let finish!: () => void;
    const done = new Promise<void>((resolve) => (finish = resolve));
    let started!: () => void;
    const turn = new Promise<void>((resolve) => (started = resolve));
    // Queued on every document in the same tick, so that the transaction runs after each one's earlier updates.
    let waiting = docs.length;
    for (const doc of docs) {
      void doc.enqueue(() => {
        if (--waiting === 0) started();
        return done;
      });
    }
    try {
      await turn;
      try {
        await this.engine.transaction(async (client) => {
          // Rows are locked in name order, so that two processes' transactions never wait on each other in a circle.
          for (const doc of [...docs].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) await doc.lock(client);
          for (const [index, change] of changes.entries()) change.mutate(docs[index]!.data);
          for (const doc of docs) {
            await doc.write(client);
            await this.engine.notify(client, { topic: 'document', name: doc.name, version: doc.version + 1 });
          }
        });
      } catch (error) {
        await Promise.all(docs.map((doc) => this.reload(doc)));
        throw error;
      }
      for (const doc of docs) doc.version++;
    } finally {
      finish();
    }
  }

  /** Puts a document back to its committed row; when the engine is out of reach, to its defaults is wrong, so it waits for the next notice. */
  private async reload(doc: PostgresDocument<object>): Promise<void> {
    try {
      const { rows } = await this.engine.query<Row>('SELECT data, version FROM documents WHERE name = $1', [doc.name]);
      doc.adopt(rows[0]);
    } catch {
      // Out of reach: the data may hold a mutator's half-change until the reconnect's catch-up, which
      // forces a reload by forgetting the version.
      doc.version = -1;
    }
  }

  /** Another process (or this one) committed a document: reload it if this process holds an older version. */
  private heard(notice: ChangeNotice): void {
    if (notice.topic !== 'document' || typeof notice.name !== 'string' || typeof notice.version !== 'number') return;
    const opened = this.documents.get(notice.name);
    if (opened === undefined) return;
    const version = notice.version;
    void opened
      .then((doc) => {
        if (doc.version === version) return;
        return doc.enqueue(async () => {
          if (doc.version === version) return;
          await this.reload(doc);
          doc.changed();
        }, false);
      })
      .catch(() => undefined);
  }

  private async catchUp(): Promise<void> {
    const docs = await Promise.all([...this.documents.values()].map((opened) => opened.catch(() => undefined)));
    const open = docs.filter((doc): doc is PostgresDocument<object> => doc !== undefined);
    if (open.length === 0) return;
    const { rows } = await this.engine.query<{ name: string; version: string }>('SELECT name, version FROM documents WHERE name = ANY($1)', [open.map((doc) => doc.name)]);
    const versions = new Map(rows.map((row) => [row.name, Number(row.version)]));
    for (const doc of open) {
      if ((versions.get(doc.name) ?? 0) !== doc.version) {
        void doc
          .enqueue(async () => {
            await this.reload(doc);
            doc.changed();
          }, false)
          .catch(() => undefined);
      }
    }
  }

  async list(prefix: string): Promise<string[]> {
    const { rows } = await this.engine.query<{ name: string }>('SELECT name FROM documents WHERE starts_with(name, $1) ORDER BY name', [prefix]);
    return rows.map((row) => row.name);
  }

  async remove(name: string): Promise<void> {
    assertDocumentName(name);
    const opened = this.documents.get(name);
    const removeRow = () =>
      this.engine.transaction(async (client) => {
        await client.query('DELETE FROM documents WHERE name = $1', [name]);
        await this.engine.notify(client, { topic: 'document', name, version: 0 });
      });
    if (opened === undefined) {
      await removeRow();
      return;
    }
    const doc = await opened;
    await doc.enqueue(async () => {
      await removeRow();
      doc.adopt(undefined);
    });
    this.documents.delete(name);
  }

  async flush(): Promise<void> {
    await this.pending.settled();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.flush();
    } finally {
      for (const stop of this.stopListening) stop();
      await this.release();
    }
  }
}
