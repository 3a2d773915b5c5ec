/**
 * One server per data directory. `server.lock` is created exclusively and names its holder by pid,
 * process start time, boot id and a random nonce: a pid alone cannot tell a live holder from a new
 * process that got the dead holder's pid (pid 1 in every container restart). Taking over a stale lock
 * happens under a second exclusive file, so two starting servers never both remove and recreate it.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync, fsyncSync } from 'node:fs';
import { join, resolve } from 'node:path';

export class DataDirectoryLockedError extends Error {
  constructor(directory: string, pid: number) {
    super(
      `The data directory ${directory} is in use by another Discovery Kit server (pid ${pid}). ` +
        'Stop that server, or start this one with another DATA_DIR.',
    );
    this.name = 'DataDirectoryLockedError';
  }
}

export interface LockHolder {
  pid: number;
  /** The holder's start time in clock ticks since boot (Linux), when known. */
  startTime?: string;
  bootId?: string;
  nonce: string;
}

/**
 * Nonces of the locks this process holds: our own pid in a lock is ours only when its nonce is listed here.
 * Module-wide on purpose: a lock file names a process, not an object, so every store opened in this
 * process must see the others' nonces (per instance, a second store here would take the first's lock as stale).
 */
const heldHere = new Set<string>();
/** A takeover guard older than this was left by a process killed mid-takeover (which lasts microseconds). */
const STALE_GUARD_MS = 10_000;

function readOptional(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** Field 22 of /proc/<pid>/stat; the command name before it may hold spaces and parentheses. */
function processStartTime(pid: number | 'self'): string | undefined {
  const stat = readOptional(`/proc/${pid}/stat`);
  if (stat === undefined) return undefined;
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
}

function currentHolder(): LockHolder {
  return {
    pid: process.pid,
    startTime: processStartTime('self'),
    bootId: readOptional('/proc/sys/kernel/random/boot_id'),
    nonce: randomBytes(12).toString('hex'),
  };
}

/** Reads a lock file; the first versions wrote the pid alone, which still parses (as a holder without a nonce). */
export function parseLock(text: string): LockHolder | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockHolder> | number;
    if (typeof value === 'number') return Number.isInteger(value) && value > 0 ? { pid: value, nonce: '' } : undefined;
    if (typeof value?.pid !== 'number' || typeof value.nonce !== 'string') return undefined;
    return { pid: value.pid, startTime: value.startTime, bootId: value.bootId, nonce: value.nonce };
  } catch {
    return undefined;
  }
}

function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Field 3 of /proc/<pid>/stat: `Z` a zombie (exited, not yet reaped by its parent), `X` dead. */
function processState(pid: number): string | undefined {
  const stat = readOptional(`/proc/${pid}/stat`);
  return stat === undefined ? undefined : stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
}

/**
 * Whether the process named by the lock still runs: same boot, same pid, that pid started when the holder
 * did, and it has not exited (a killed holder whose parent has not reaped it yet is still listed, as a zombie).
 */
export function holderIsAlive(holder: LockHolder): boolean {
  if (holder.pid === process.pid) return heldHere.has(holder.nonce);
  const bootId = readOptional('/proc/sys/kernel/random/boot_id');
  if (holder.bootId !== undefined && bootId !== undefined && holder.bootId !== bootId) return false;
  if (!pidExists(holder.pid)) return false;
  const state = processState(holder.pid);
  if (state === 'Z' || state === 'X') return false;
  const startTime = processStartTime(holder.pid);
  if (holder.startTime !== undefined && startTime !== undefined) return holder.startTime === startTime;
  return true;
}

/**
 * Creates `file` with `text` only if it does not exist. The text is written to a private file first and
 * linked into place (link refuses an existing name), so nobody ever reads a lock half written.
 */
function writeExclusive(file: string, text: string): boolean {
  const draft = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = openSync(draft, 'wx');
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(draft, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(draft, { force: true });
  }
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Removes the lock if, read again under the takeover guard, it still names a dead holder. Returns false
 * when another starting process holds the guard (the caller retries shortly).
 */
function takeOverStale(directory: string, file: string): boolean {
  const guard = join(directory, 'server.lock.takeover');
  if (!writeExclusive(guard, `${process.pid}\n`)) {
    try {
      if (Date.now() - statSync(guard).mtimeMs > STALE_GUARD_MS) rmSync(guard, { force: true });
    } catch {
      // gone already
    }
    return false;
  }
  try {
    const text = readOptional(file);
    // Gone already: a lock may appear any moment now, and renaming it away would make two holders.
    if (text === undefined) return true;
    const holder = parseLock(text);
    if (holder === undefined || !holderIsAlive(holder)) {
      // Moved aside rather than deleted, so that the file a crash leaves can still be inspected.
      renameSync(file, join(directory, 'server.lock.stale'));
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  } finally {
    rmSync(guard, { force: true });
  }
  return true;
}

/** Locks taken by `claimDataDirectory`, waiting for the store that will open the directory; by resolved path. */
const claimed = new Map<string, () => void>();

/**
 * Takes the lock before the store opens the directory, for a start that must hold it before anything else
 * (the companion binds its port and says "listening" only once it holds the lock). The next
 * `lockDataDirectory` of this directory in this process takes this lock over instead of refusing it.
 */
export function claimDataDirectory(directory: string): () => void {
  const release = lockDataDirectory(directory);
  const key = resolve(directory);
  claimed.set(key, release);
  return () => {
    if (claimed.get(key) === release) claimed.delete(key);
    release();
  };
}

/** Takes the lock, replacing a stale one left by a crashed process; returns the function that releases it. */
export function lockDataDirectory(directory: string): () => void {
  const handedOver = claimed.get(resolve(directory));
  if (handedOver !== undefined) {
    claimed.delete(resolve(directory));
    return handedOver;
  }
  mkdirSync(directory, { recursive: true });
  const file = join(directory, 'server.lock');
  const me = currentHolder();
  for (let attempt = 0; attempt < 200; attempt++) {
    if (writeExclusive(file, `${JSON.stringify(me)}\n`)) {
      heldHere.add(me.nonce);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        heldHere.delete(me.nonce);
        // Only our own lock is removed: after a takeover by mistake, the other holder's file stays.
        if (parseLock(readOptional(file) ?? '')?.nonce === me.nonce) rmSync(file, { force: true });
      };
    }
    const text = readOptional(file);
    if (text === undefined) continue; // released between our create and our read
    const holder = parseLock(text);
    if (holder !== undefined && holderIsAlive(holder)) throw new DataDirectoryLockedError(directory, holder.pid);
    if (!takeOverStale(directory, file)) sleepSync(5 + Math.random() * 10);
  }
  throw new Error(`Could not lock the data directory ${directory}: other servers kept taking it over.`);
}
