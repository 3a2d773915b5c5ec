/**
 * `npm run import -- <file> --tenant <id> --environment <id>`: loads a product feed (CSV with a
 * column mapping, TSV, JSON Lines, Google Merchant Center XML or TSV) into a new catalog version of
 * a running server through its catalog API, with a progress bar and a summary; `--promote` makes
 * it the active catalog, `--dry-run` only checks the file.
 */
import { readFile } from 'node:fs/promises';
import { CatalogClient, CatalogApiError } from './feed/catalog-client.js';
import { FeedImportError, SHOWN_ISSUES, importFeed, type FeedImportSummary } from './feed/feed-import.js';
import type { AttributeType } from './feed/feed-mapping.js';
import { FeedFormatError, detectFormat } from './feed/feed-records.js';
import { createProgress, type Progress } from './progress.js';
import { CONNECTION_OPTIONS, connect, unreachableMessage } from './server-connection.js';
import { fail, readArgs } from './cli-args.js';


const USAGE = `Usage: npm run import -- <file> --tenant <id> --environment <id> [options]

  <file>                 .csv, .tsv/.txt (Google Merchant TSV), .jsonl, .xml (Google Merchant RSS/Atom); .gz too
  --format <f>           csv, tsv, jsonl or xml, when the file name does not tell
  --map <to=from,...>    columns to attributes, e.g. id=StockCode,title=Description,price=UnitPrice
  --only-mapped          import only the mapped columns (and known Merchant fields), not every column
  --schema <file>        item schema JSON ({"name","attributes":[{"name","type"}]}) instead of inferred types
  --currency <code>      currency of prices that do not name one (e.g. GBP)
  --duplicates <how>     error (default), first or last: what a repeated id does
  --skip-invalid         import the valid records and list the invalid ones, instead of refusing the feed
  --dry-run              check the whole file and print the summary; send nothing
  --promote              make the imported catalog the active one (search serves it when built)
  --url <server>         the running server (env DISCOVERY_URL; default http://localhost:8787)
  --client-id <id>       service account of the tenant (default demo-backoffice, with the demo key)
  --key <pem>            its private key
  --batch <n>            items per API call (default 2000)
  --quiet                no progress bar`;

function parseMapping(text: string | undefined): Record<string, string> {
  const columns: Record<string, string> = {};
  if (text === undefined) return columns;
  for (const pair of text.split(',')) {
    const cut = pair.indexOf('=');
    if (cut <= 0 || cut === pair.length - 1) fail(`--map: "${pair}" is not target=column (e.g. title=Description)`);
    columns[pair.slice(0, cut).trim()] = pair.slice(cut + 1).trim();
  }
  return columns;
}

async function readSchema(file: string): Promise<{ name?: string; attributes: Array<{ name: string; type: AttributeType }> }> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    fail(`--schema ${file}: ${(error as Error).message}`);
  }
  const schema = parsed as { name?: unknown; attributes?: unknown };
  if (!Array.isArray(schema.attributes)) fail(`--schema ${file}: attributes: expected an array of {name, type}`);
  const attributes = schema.attributes.map((a: { name?: unknown; type?: unknown }, i: number) => {
    if (typeof a.name !== 'string' || (a.type !== 'TEXT' && a.type !== 'INTEGER')) fail(`--schema ${file}: attributes[${i}]: expected {"name": string, "type": "TEXT" | "INTEGER"}`);
    return { name: a.name, type: a.type as AttributeType };
  });
  return typeof schema.name === 'string' ? { name: schema.name, attributes } : { attributes };
}

function printSummary(summary: FeedImportSummary, dryRun: boolean): void {
  const shown = summary.issues.slice(0, SHOWN_ISSUES);
  for (const issue of shown) console.error(`line ${issue.line}: ${issue.field}: ${issue.message}`);
  if (summary.issues.length > shown.length) console.error(`… and ${summary.issues.length - shown.length} more issues`);
  const types = Object.entries(summary.attributes).map(([name, type]) => `${name}:${type}`).join(', ');
  console.error(`records: ${summary.records}, products: ${summary.products}, variants: ${summary.variants}, invalid records skipped: ${summary.skipped}, repeated ids: ${summary.duplicates}`);
  console.error(`attributes: ${types}`);
  if (summary.deletedVersion !== undefined) console.error(`deleted inactive catalog version ${summary.deletedVersion} to make room (at most 2 catalogs are held)`);
  if (dryRun) console.error('dry run: nothing was sent');
  else if (summary.catalogVersion !== undefined) console.error(`catalog version ${summary.catalogVersion}: ${summary.state}`);
}

async function main(): Promise<void> {
  const { values, positionals } = readArgs(USAGE, {
    tenant: { type: 'string' },
    environment: { type: 'string' },
    format: { type: 'string' },
    map: { type: 'string' },
    'only-mapped': { type: 'boolean' },
    schema: { type: 'string' },
    currency: { type: 'string' },
    duplicates: { type: 'string' },
    'skip-invalid': { type: 'boolean' },
    'dry-run': { type: 'boolean' },
    promote: { type: 'boolean' },
    ...CONNECTION_OPTIONS,
    batch: { type: 'string' },
    quiet: { type: 'boolean' },
  });
  const file = positionals[0];
  if (file === undefined || positionals.length > 1) fail(USAGE);
  if (values.tenant === undefined || values.environment === undefined) fail(`--tenant and --environment are required.\n\n${USAGE}`);
  const duplicates = values.duplicates ?? 'error';
  if (duplicates !== 'error' && duplicates !== 'first' && duplicates !== 'last') fail(`--duplicates must be error, first or last, not "${duplicates}".`);
  const batchSize = Number(values.batch ?? '2000');
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10_000) fail(`--batch must be an integer from 1 to 10000, not "${values.batch}".`);
  if (values.currency !== undefined && !/^[A-Z]{3}$/.test(values.currency)) fail(`--currency must be a three-letter code such as GBP, not "${values.currency}".`);
  const format = detectFormat(file, values.format);
  const dryRun = values['dry-run'] === true;

  let client: CatalogClient | undefined;
  if (!dryRun) {
    const { server, tokens } = await connect(values, values.tenant);
    client = new CatalogClient({ baseUrl: server, tenant: values.tenant, environment: values.environment, getToken: () => tokens.getToken() });
  }

  const progress: Partial<Record<'check' | 'load', Progress>> = {};
  const showProgress = values.quiet !== true;
  const summary = await importFeed({
    file,
    format,
    mapping: { columns: parseMapping(values.map), onlyMapped: values['only-mapped'] === true, ...(values.currency === undefined ? {} : { currency: values.currency }) },
    ...(values.schema === undefined ? {} : { schema: await readSchema(values.schema) }),
    duplicates,
    skipInvalid: values['skip-invalid'] === true,
    dryRun,
    promote: values.promote === true,
    batchSize,
    ...(client === undefined ? {} : { client }),
    onProgress(phase, done, total) {
      if (phase === 'check') {
        // The first pass cannot know the total: it counts records read.
        if (showProgress && process.stderr.isTTY) process.stderr.write(`\rChecking ${file}: ${done.toLocaleString('en-GB')} records`);
        return;
      }
      progress.load ??= createProgress({ label: `Loading into ${values.tenant}/${values.environment}`, total, enabled: showProgress });
      progress.load.update(done);
    },
  });
  if (showProgress && process.stderr.isTTY) process.stderr.write('\r\u001b[2K');
  progress.load?.finish();
  printSummary(summary, dryRun);
}

main().catch((error: unknown) => {
  if (error instanceof FeedImportError) {
    printSummary(error.summary, false);
    console.error(error.message);
    process.exit(1);
  }
  if (error instanceof FeedFormatError || error instanceof CatalogApiError) fail(error.message, 1);
  const unreachable = unreachableMessage(error);
  if (unreachable !== undefined) fail(unreachable, 1);
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
