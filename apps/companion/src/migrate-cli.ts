/**
 * `npm run migrate -- --from <data dir> --to postgres://…`: moves an embedded data directory into
 * PostgreSQL (documents, activity logs, models), so that companions started with `--store` serve the
 * shop from there. Stop the server first (the directory's lock refuses otherwise). Running it again
 * copies nothing twice. See docs/scale-out.md.
 */
import { resolve } from 'node:path';
import { migrateDataDirectory, PostgresEngine } from '@discovery-kit/server';
import { fail, readArgs } from './cli-args.js';

const USAGE = `Usage: npm run migrate -- --from <data dir> --to postgres://user:password@host:port/db

  --from <dir>   the embedded server's data directory (its server stopped)
  --to <url>     the PostgreSQL database companions will use with --store (env STORE_URL)`;

async function main(): Promise<void> {
  const { values, positionals } = readArgs(USAGE, { from: { type: 'string' }, to: { type: 'string' } });
  const to = values.to ?? process.env.STORE_URL;
  if (values.from === undefined || to === undefined || !/^postgres(ql)?:\/\//.test(to) || positionals.length > 0) fail(USAGE);
  const engine = await PostgresEngine.connect({ url: to });
  try {
    const started = performance.now();
    const report = await migrateDataDirectory({ from: resolve(values.from), engine, onProgress: (line) => console.error(line) });
    const records = report.streams.reduce((sum, s) => sum + (s.copied ? s.records : 0), 0);
    console.error(
      `moved ${resolve(values.from)} into ${engine.location} in ${((performance.now() - started) / 1000).toFixed(1)} s: ` +
        `${report.documents.copied} documents, ${records} activity records, ${report.blobs.copied} models copied.`,
    );
  } finally {
    await engine.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  const name = error instanceof Error ? error.constructor.name : '';
  process.exit(['PostgresUnreachableError', 'DataDirectoryLockedError'].includes(name) ? 2 : 1);
});
