/**
 * Backups of a data directory while its server runs, and their restore. The copy is consistent in
 * the ways replay needs: the activity logs are copied first, each segment up to its last complete
 * line (appends only add lines; a line being written is left for the next backup), then every
 * other file (documents are replaced whole by rename, so each copy is one complete version), and
 * documents that changed during the copy are copied again until a pass sees no change. Since the
 * documents are copied after the log, every profile a logged activity names is in the backup.
 * A manifest lists every file with its size and SHA-256; restore checks it before writing anything.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, readdir, rename, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { dirname, join, relative, sep } from 'node:path';

export const MANIFEST = 'manifest.json';
const LOCK_FILE = 'server.lock';
/** Passes over changed documents before giving up on a directory that never settles. */
const MAX_PASSES = 5;

export class BackupError extends Error {}

export interface BackupManifest {
  format: 'discovery-kit-backup/1';
  createdAt: string;
  files: Array<{ path: string; bytes: number; sha256: string }>;
}

async function listFiles(root: string, dir = root): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await listFiles(root, full)));
    // The lock belongs to the running server; dot files are writes in progress (temp, then rename).
    else if (entry.isFile() && entry.name !== LOCK_FILE && !entry.name.startsWith('.')) files.push(relative(root, full).split(sep).join('/'));
  }
  return files.sort();
}

const isLogSegment = (path: string) => path.startsWith('activities/') && path.endsWith('.jsonl');

/**
 * Copies an append-only segment up to its last complete line, streaming (a segment may be tens of
 * megabytes): the bytes present when the copy starts, then the copy is cut after the last newline.
 */
async function copyLogPrefix(source: string, target: string): Promise<void> {
  const { size } = await stat(source);
  let position = 0;
  let lastLineEnd = 0;
  if (size > 0) {
    const reader = createReadStream(source, { start: 0, end: size - 1 });
    reader.on('data', (chunk) => {
      const buffer = chunk as Buffer;
      const newline = buffer.lastIndexOf(0x0a);
      if (newline !== -1) lastLineEnd = position + newline + 1;
      position += buffer.length;
    });
    await pipeline(reader, createWriteStream(target));
  } else await writeFile(target, '');
  await truncate(target, lastLineEnd);
}

async function fingerprint(path: string): Promise<string> {
  const info = await stat(path);
  return `${info.size}:${info.mtimeMs}:${info.ino}`;
}

async function sha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export interface BackupResult {
  directory: string;
  files: number;
  bytes: number;
  passes: number;
}

export async function backupDataDir(dataDir: string, target: string): Promise<BackupResult> {
  if (!existsSync(dataDir)) throw new BackupError(`${dataDir} does not exist: give the server's data directory with --data-dir.`);
  if (existsSync(target)) throw new BackupError(`${target} already exists: give a new directory for each backup.`);
  // Written beside the target and renamed at the end, so a half-made backup never looks complete.
  const partial = `${target}.partial`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  try {
    const all = await listFiles(dataDir);
    for (const path of all.filter(isLogSegment)) {
      await mkdir(dirname(join(partial, path)), { recursive: true });
      await copyLogPrefix(join(dataDir, path), join(partial, path));
    }
    let pending = all.filter((path) => !isLogSegment(path));
    let passes = 0;
    while (pending.length > 0) {
      if (++passes > MAX_PASSES) throw new BackupError(`${pending.length} documents kept changing during ${MAX_PASSES} passes (${pending.slice(0, 3).join(', ')}); try again at a quieter time.`);
      const copied = new Map<string, string>();
      for (const path of pending) {
        const source = join(dataDir, path);
        await mkdir(dirname(join(partial, path)), { recursive: true });
        try {
          const before = await fingerprint(source);
          await copyFile(source, join(partial, path));
          copied.set(path, before);
        } catch (error) {
          // Deleted since the listing (an inactive catalog removed): it is not part of the backup.
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
          await rm(join(partial, path), { force: true });
        }
      }
      // Documents written meanwhile, new ones included, are copied again.
      const now = (await listFiles(dataDir)).filter((path) => !isLogSegment(path));
      const next: string[] = [];
      for (const path of now) {
        const seen = copied.get(path);
        if (seen === undefined) {
          if (!existsSync(join(partial, path))) next.push(path);
          continue;
        }
        if ((await fingerprint(join(dataDir, path)).catch(() => seen)) !== seen) next.push(path);
      }
      pending = next;
    }
    const files = await listFiles(partial);
    const manifest: BackupManifest = { format: 'discovery-kit-backup/1', createdAt: new Date().toISOString(), files: [] };
    let bytes = 0;
    for (const path of files) {
      const size = (await stat(join(partial, path))).size;
      bytes += size;
      manifest.files.push({ path, bytes: size, sha256: await sha256(join(partial, path)) });
    }
    await writeFile(join(partial, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    await rename(partial, target);
    return { directory: target, files: files.length, bytes, passes };
  } catch (error) {
    await rm(partial, { recursive: true, force: true });
    throw error;
  }
}

export interface RestoreOptions {
  /** Replace a data directory that already holds data (it is moved aside, not deleted). */
  force?: boolean;
}

export async function restoreDataDir(backup: string, dataDir: string, options: RestoreOptions = {}): Promise<{ files: number; movedAside?: string }> {
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(await readFile(join(backup, MANIFEST), 'utf8')) as BackupManifest;
  } catch {
    throw new BackupError(`${backup} is not a Discovery Kit backup: ${MANIFEST} is missing or unreadable.`);
  }
  if (manifest.format !== 'discovery-kit-backup/1') throw new BackupError(`${backup}: unknown backup format ${String(manifest.format)}.`);
  for (const file of manifest.files) {
    const path = join(backup, file.path);
    if (file.path.includes('..') || !existsSync(path)) throw new BackupError(`${backup} is incomplete: ${file.path} is missing.`);
    if ((await sha256(path)) !== file.sha256) throw new BackupError(`${backup} is damaged: ${file.path} does not match its checksum.`);
  }
  if (existsSync(join(dataDir, LOCK_FILE))) {
    const pid = Number.parseInt(await readFile(join(dataDir, LOCK_FILE), 'utf8'), 10);
    let alive = false;
    try {
      process.kill(pid, 0);
      alive = true;
    } catch (error) {
      alive = (error as NodeJS.ErrnoException).code === 'EPERM';
    }
    if (alive) throw new BackupError(`${dataDir} is in use by a running server (pid ${pid}): stop it before restoring.`);
  }
  let movedAside: string | undefined;
  if (existsSync(dataDir) && (await listFiles(dataDir)).length > 0) {
    if (options.force !== true) throw new BackupError(`${dataDir} already holds data: restore into an empty directory, or add --force to move it aside.`);
    movedAside = `${dataDir.replace(/\/+$/, '')}.before-restore-${Date.now()}`;
    await rename(dataDir, movedAside);
  }
  const staging = `${dataDir.replace(/\/+$/, '')}.restoring`;
  await rm(staging, { recursive: true, force: true });
  for (const file of manifest.files) {
    await mkdir(dirname(join(staging, file.path)), { recursive: true });
    await copyFile(join(backup, file.path), join(staging, file.path));
  }
  await rm(dataDir, { recursive: true, force: true });
  await rename(staging, dataDir);
  return movedAside === undefined ? { files: manifest.files.length } : { files: manifest.files.length, movedAside };
}
