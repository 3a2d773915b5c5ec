/** The embedded store: one lowdb JSON file per document, written atomically (temp file, then rename). */
import { mkdir, readdir, rm } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import { lockDataDirectory } from './data-dir-lock.js';
import { assertDocumentName, type DocumentChange, type DocumentStore, type StoredDocument } from './document-store.js';
import { commitFiles, recoverJournals, removeStaleTemporaries } from './write-journal.js';
import { PendingWrites } from './pending-writes.js';

class LowDocument<T extends object> implements StoredDocument<T> {
  private readonly db: Low<T>;
  private tail: Promise<unknown> = Promise.resolve();
  private readonly track: (write: Promise<unknown>) => void;
  private readonly defaults: () => T;

  /** The file, relative to the data directory. */
  readonly path: string;

  constructor(db: Low<T>, path: string, defaults: () => T, track: (write: Promise<unknown>) => void) {
    this.db = db;
    this.path = path;
    this.defaults = defaults;
    this.track = track;
  }

  get data(): T {
    return this.db.data;
  }

  settled(): Promise<void> {
    return this.tail.then(() => undefined);
  }

  /** Holds this document's queue until `done` settles; resolves when the updates queued before are finished. */
  enqueue(done: Promise<unknown>): Promise<unknown> {
    const before = this.tail;
    this.tail = done.catch(() => undefined);
    this.track(done);
    return before;
  }

  /** Puts the data back to what the file holds, after a mutator threw. */
  async reload(): Promise<void> {
    this.db.data = (await this.db.adapter.read()) ?? this.defaults();
  }

  update<R>(mutate: (data: T) => R): Promise<R> {
    const run = this.tail.then(async () => {
      let result: R;
      try {
        result = mutate(this.db.data);
      } catch (error) {
        // Every earlier update has been written before this one ran, so the file holds the last good state.
        this.db.data = (await this.db.adapter.read()) ?? this.defaults();
        throw error;
      }
      await this.db.write();
      return result;
    });
    this.tail = run.catch(() => undefined);
    this.track(run);
    return run;
  }
}

export interface LowdbStoreOptions {
  /** Directory holding the files; created if missing, and locked against a second server. */
  directory: string;
}

export class LowdbStore implements DocumentStore {
  /** The data directory (the composition root opens the event logs and blobs beside it). */
  private readonly location: string;
  private readonly documents = new Map<string, Promise<LowDocument<object>>>();
  private readonly pending = new PendingWrites();
  private readonly release: () => void;
  private closed = false;

  constructor(options: LowdbStoreOptions) {
    this.location = options.directory;
    this.release = lockDataDirectory(options.directory);
    try {
      // Under the lock and before any read: finish the atomic writes a crash interrupted, drop temp files.
      recoverJournals(options.directory);
      removeStaleTemporaries(join(options.directory, 'documents'));
    } catch (error) {
      this.release();
      throw error;
    }
  }

  private fileOf(name: string): string {
    assertDocumentName(name);
    return join(this.location, 'documents', `${name}.json`);
  }

  document<T extends object>(name: string, defaults: () => T): Promise<StoredDocument<T>> {
    if (this.closed) return Promise.reject(new Error('The store is closed'));
    let file: string;
    try {
      file = this.fileOf(name);
    } catch (error) {
      return Promise.reject(error);
    }
    let opened = this.documents.get(name);
    if (opened === undefined) {
      opened = (async () => {
        await mkdir(dirname(file), { recursive: true });
        const db = new Low<T>(new JSONFile<T>(file), defaults());
        try {
          await db.read();
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          throw new Error(
            `The store file ${file} is not valid JSON (${reason}). A full disk or an edit by hand can cut a file short: ` +
              'restore it from a backup, or move it away to start without its data.',
          );
        }
        return new LowDocument<T>(db, relative(this.location, file), defaults, (write) => this.pending.track(write)) as unknown as LowDocument<object>;
      })();
      this.documents.set(name, opened);
      opened.catch(() => this.documents.delete(name));
    }
    return opened as unknown as Promise<StoredDocument<T>>;
  }

  async updateMany(changes: readonly DocumentChange[]): Promise<void> {
    const docs = changes.map((change) => {
      if (!(change.document instanceof LowDocument)) throw new Error('updateMany takes documents of this store only');
      return change.document;
    });
    let finish!: () => void;
    const done = new Promise<void>((resolve) => (finish = resolve));
    // Queued on every document in the same tick, so that two transactions meet in the same order everywhere.
    const before = docs.map((doc) => doc.enqueue(done));
    try {
      await Promise.all(before);
      try {
        for (const [index, change] of changes.entries()) change.mutate(docs[index]!.data);
      } catch (error) {
        await Promise.all(docs.map((doc) => doc.reload()));
        throw error;
      }
      await commitFiles(
        this.location,
        docs.map((doc) => ({ path: doc.path, text: JSON.stringify(doc.data, null, 2) })),
      );
    } finally {
      finish();
    }
  }

  async list(prefix: string): Promise<string[]> {
    const root = join(this.location, 'documents');
    const names: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      let entries;
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) {
        const full = join(dir, entry.name);
        if (entry.isDirectory()) await walk(full);
        else if (entry.name.endsWith('.json')) names.push(relative(root, full).slice(0, -'.json'.length).split(sep).join('/'));
      }
    };
    await walk(root);
    return names.filter((name) => name.startsWith(prefix)).sort();
  }

  async remove(name: string): Promise<void> {
    const file = this.fileOf(name);
    const opened = this.documents.get(name);
    if (opened !== undefined) {
      const doc = await opened;
      await doc.update(() => undefined);
      this.documents.delete(name);
    }
    await rm(file, { force: true });
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
      this.release();
    }
  }
}
