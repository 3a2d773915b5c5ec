/**
 * Atomic writes of several files: their new contents go to one journal file first (fsynced, then
 * renamed into place: the commit point), then each file is replaced (temp file + rename), then the
 * journal is removed. After a crash, a journal found at start is applied again; a journal still
 * named `.tmp` was never committed and is dropped with the request that wrote it, which got no answer.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { open, mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export interface FileWrite {
  /** Relative to the data directory. */
  path: string;
  text: string;
}

const JOURNAL_DIR = 'journal';

async function writeDurably(file: string, text: string): Promise<void> {
  const handle = await open(file, 'w');
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Replaces every file with its new text, all or none as seen after a crash and the next start. */
export async function commitFiles(root: string, writes: readonly FileWrite[]): Promise<void> {
  const id = randomBytes(8).toString('hex');
  const dir = join(root, JOURNAL_DIR);
  await mkdir(dir, { recursive: true });
  const journal = join(dir, `${id}.json`);
  await writeDurably(`${journal}.tmp`, JSON.stringify({ writes }));
  await rename(`${journal}.tmp`, journal);
  await syncDirectory(dir);
  await applyWrites(root, writes, id);
  await rm(journal, { force: true });
}

async function applyWrites(root: string, writes: readonly FileWrite[], id: string): Promise<void> {
  const dirs = new Set<string>();
  await Promise.all(
    writes.map(async ({ path, text }) => {
      const file = join(root, path);
      await mkdir(dirname(file), { recursive: true });
      await writeDurably(`${file}.${id}.tmp`, text);
      await rename(`${file}.${id}.tmp`, file);
      dirs.add(dirname(file));
    }),
  );
  await Promise.all([...dirs].map(syncDirectory));
}

/**
 * Run at start, before any document is read: finishes the writes of committed journals and drops
 * uncommitted ones. Synchronous, like the lock it runs after, so nothing else touches the files meanwhile.
 */
export function recoverJournals(root: string): number {
  const dir = join(root, JOURNAL_DIR);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  let applied = 0;
  for (const name of names.sort()) {
    const journal = join(dir, name);
    if (!name.endsWith('.json')) {
      rmSync(journal, { force: true });
      continue;
    }
    const { writes } = JSON.parse(readFileSync(journal, 'utf8')) as { writes: FileWrite[] };
    for (const { path, text } of writes) {
      const file = join(root, path);
      mkdirSync(dirname(file), { recursive: true });
      const fd = openSync(`${file}.recover.tmp`, 'w');
      try {
        writeSync(fd, text);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(`${file}.recover.tmp`, file);
    }
    rmSync(journal, { force: true });
    applied++;
  }
  return applied;
}

/** Removes temporary files a crash left under `dir` (lowdb's `.name.json.tmp`, ours `name.json.<id>.tmp`). */
export function removeStaleTemporaries(dir: string): string[] {
  const removed: string[] = [];
  const walk = (current: string) => {
    let entries;
    try {
      entries = readdirSync(current, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.tmp')) {
        rmSync(full, { force: true });
        removed.push(full);
      }
    }
  };
  walk(dir);
  return removed;
}
