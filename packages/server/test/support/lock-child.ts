/**
 * A process that tries to lock a data directory at a given moment and says whether it got the lock,
 * then holds it for a while: several of them started together race for one stale lock.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataDirectoryLockedError, lockDataDirectory } from '../../src/platform/store/data-dir-lock.js';

const [dataDir, startAt, mode] = process.argv.slice(2) as [string, string, string | undefined];
// "reused-pid": the lock a previous incarnation left with this very pid (pid 1 again after a container
// restart), written as the first versions did: the pid alone.
if (mode === 'reused-pid') writeFileSync(join(dataDir, 'server.lock'), `${process.pid}\n`);
while (Date.now() < Number(startAt)) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
try {
  lockDataDirectory(dataDir);
  process.stdout.write('held\n');
} catch (error) {
  if (!(error instanceof DataDirectoryLockedError)) throw error;
  process.stdout.write('locked\n');
}
// Keep the lock (unreleased, as a crash would) until the test has every racer's answer and closes our
// stdin: a racer that exits early would leave a really stale lock for a slow starter to take legitimately.
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
