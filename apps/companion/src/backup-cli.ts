/**
 * `npm run backup -- <dir>` copies a data directory, while its server runs, into a new directory;
 * `npm run restore -- <dir>` puts such a copy back (the server stopped). See docs/operations.md.
 */
import { resolve } from 'node:path';
import { BackupError, backupDataDir, restoreDataDir } from './backup/data-backup.js';
import { fail, readArgs } from './cli-args.js';

const USAGE = `Usage: npm run backup -- <backup dir> [--data-dir <dir>]
       npm run restore -- <backup dir> [--data-dir <dir>] [--force]

  --data-dir <dir>   the server's data directory (env DATA_DIR; default ./.data)
  --force            restore over a directory that holds data (it is moved aside, not deleted)`;

async function main(): Promise<void> {
  const { values, positionals } = readArgs(USAGE, { 'data-dir': { type: 'string' }, force: { type: 'boolean' } });
  const [command, target] = positionals;
  if ((command !== 'backup' && command !== 'restore') || target === undefined || positionals.length > 2) fail(USAGE);
  const dataDir = resolve(values['data-dir'] ?? process.env.DATA_DIR ?? '.data');
  const started = performance.now();
  if (command === 'backup') {
    const result = await backupDataDir(dataDir, resolve(target));
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.error(`backed up ${dataDir} to ${result.directory}: ${result.files} files, ${(result.bytes / 1e6).toFixed(1)} MB in ${seconds} s`);
  } else {
    const result = await restoreDataDir(resolve(target), dataDir, { force: values.force === true });
    if (result.movedAside !== undefined) console.error(`moved the previous data aside to ${result.movedAside}`);
    console.error(`restored ${result.files} files into ${dataDir}; start the server on it.`);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(error instanceof BackupError ? 2 : 1);
});
