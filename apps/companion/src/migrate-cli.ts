/**
 * `npm run migrate -- --from <data dir> --to postgres://…`: moves an embedded data directory into
 * PostgreSQL (documents, activity logs, models), so that companions started with `--store` serve the
 * shop from there. Stop the server first (the directory's lock refuses otherwise). Running it again
 * copies nothing twice. See docs/scale-out.md.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { migrateDataDirectory, PostgresEngine } from '@discovery-kit/server';

const USAGE = `Usage: npm run migrate -- --from <data dir> --to postgres://user:password@host:port/db

  --from <dir>   the embedded server's data directory (its server stopped)
  --to <url>     the PostgreSQL database companions will use with --store (env STORE_URL)`;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { from: { type: 'string' }, to: { type: 'string' }, help: { type: 'boolean' } } });
  if (values.help === true) {
    console.log(USAGE);
    return;
  }
  const to = values.to ?? process.env.STORE_URL;
  if (values.from === undefined || to === undefined || !/^postgres(ql)?:\/\//.test(to)) {
    console.error(USAGE);
    process.exit(2);
  }
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
  process.exit(['PostgresUnreachableError', 'DataDirectoryLockedError'].includes(name) || (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? 2 : 1);
});
