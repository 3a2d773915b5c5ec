/**
 * `npm run bench`: runs every benchmark in bench/*.bench.ts (or those named on the command line),
 * prints each one's figures as a table and all of them as JSON. Benchmarks measure; they never fail a build.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

export interface BenchResult {
  name: string;
  /** Rows of the printed table: a label and its figures. */
  rows: Array<Record<string, string | number | boolean>>;
  /** Further tables, each printed under its title after the rows. */
  tables?: Array<{ title: string; rows: Array<Record<string, string | number | boolean>> }>;
  notes?: string[];
}

export type Benchmark = () => Promise<BenchResult>;

// Compiled into bench/.build (what `npm run bench` runs: scripts/build-bench.ts) or from source under tsx.
// The build points `import.meta.url` at the source file, so the script being run tells which.
const compiled = process.argv[1]?.endsWith('.js') === true;
const dir = compiled ? dirname(process.argv[1]!) : fileURLToPath(new URL('.', import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith(compiled ? '.bench.js' : '.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

const results: BenchResult[] = [];
for (const file of files) {
  const module = (await import(pathToFileURL(join(dir, file)).href)) as { default: Benchmark };
  console.error(`\n▶ ${file}`);
  const result = await module.default();
  results.push(result);
  console.log(`\n## ${result.name}`);
  console.table(result.rows);
  for (const table of result.tables ?? []) {
    console.log(`\n### ${table.title}`);
    console.table(table.rows);
  }
  for (const note of result.notes ?? []) console.log(`  ${note}`);
}
console.log('\nJSON:');
console.log(JSON.stringify({ node: process.version, results }, null, 2));
