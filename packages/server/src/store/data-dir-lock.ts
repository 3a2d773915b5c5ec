/** One server per data directory: a lock file holding the owner's pid, refused while that process lives. */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export class DataDirectoryLockedError extends Error {
  constructor(directory: string, pid: number) {
    super(
      `The data directory ${directory} is in use by another Discovery Kit server (pid ${pid}). ` +
        'Stop that server, or start this one with another DATA_DIR.',
    );
    this.name = 'DataDirectoryLockedError';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock, replacing a stale one left by a crashed process; returns the function that releases it. */
export function lockDataDirectory(directory: string): () => void {
  mkdirSync(directory, { recursive: true });
  const file = join(directory, 'server.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        rmSync(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
      // Our own pid means another store in this process holds it: that is as unsafe as another process.
      if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) throw new DataDirectoryLockedError(directory, pid);
      rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not lock the data directory ${directory}`);
}
