/**
 * The blob port's file adapter: blob `models/demo.item-model` is the file `<directory>/models/demo.item-model`,
 * replaced by writing a temporary file, fsyncing it and renaming it over the old one. It shares the data
 * directory with the document store (which holds the directory's lock), so the names that store and the
 * event logs use for their own files are refused.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { assertDocumentName } from '../store/document-store.js';
import type { BlobStore } from './blob-store.js';

export interface FileBlobStoreOptions {
  /** The data directory. */
  directory: string;
}

/** First segments kept for the other adapters' files in the same directory. */
const RESERVED = new Set(['documents', 'journal', 'activities', 'server.lock', 'server.lock.stale', 'server.lock.takeover']);

export class FileBlobStore implements BlobStore {
  private readonly directory: string;
  /** Per blob name, the one-time removal of temporary files a crash left; every put waits for it first. */
  private readonly swept = new Map<string, Promise<void>>();

  constructor(options: FileBlobStoreOptions) {
    this.directory = options.directory;
  }

  async put(name: string, data: Uint8Array | readonly Uint8Array[]): Promise<void> {
    const file = this.fileOf(name);
    await mkdir(dirname(file), { recursive: true });
    let sweep = this.swept.get(name);
    if (sweep === undefined) this.swept.set(name, (sweep = this.removeLeftovers(file)));
    await sweep;
    // A random suffix: two puts of one name at once each rename a whole file, the last one wins. A dot
    // file, like lowdb's: backups skip those as writes in progress.
    const temporary = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      const handle = await open(temporary, 'w');
      try {
        if (data instanceof Uint8Array) await handle.writeFile(data);
        else for (const piece of data) await handle.writeFile(piece);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temporary, file);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    const dir = await open(dirname(file), 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  }

  /**
   * Temporary files of this blob that a crash left behind (a put interrupted before its rename). Runs
   * before this process's first put of the name, so no temporary file of its own exists yet, and the
   * data directory's lock keeps other processes out.
   */
  private async removeLeftovers(file: string): Promise<void> {
    const prefix = `.${basename(file)}.`;
    for (const entry of await readdir(dirname(file))) {
      if (entry.startsWith(prefix) && entry.endsWith('.tmp')) await rm(join(dirname(file), entry), { force: true });
    }
  }

  async get(name: string): Promise<Buffer | undefined> {
    const file = this.fileOf(name);
    try {
      return await readFile(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async remove(name: string): Promise<void> {
    await rm(this.fileOf(name), { force: true });
  }

  private fileOf(name: string): string {
    try {
      assertDocumentName(name);
    } catch {
      throw new Error(`Invalid blob name "${name}"`);
    }
    if (RESERVED.has(name.split('/')[0]!) || name.endsWith('.tmp')) throw new Error(`Invalid blob name "${name}": that name belongs to the data directory's other files`);
    return join(this.directory, ...name.split('/'));
  }
}
