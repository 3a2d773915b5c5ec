/**
 * `npm run eval`: runs every evaluation in eval/*.eval.ts (or those named on the command line) and
 * prints its figures as tables and JSON. Evaluations measure quality; they never fail a build.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';

export interface EvalResult {
  name: string;
  /** Facts of the run that the figures depend on: data, seed, split. */
  setup: Record<string, string | number>;
  tables: Array<{ title: string; rows: Array<Record<string, string | number>> }>;
  notes?: string[];
}

/** Undefined when the evaluation cannot run here (its data is absent); it says why itself. */
export type Evaluation = () => Promise<EvalResult | undefined>;

const dir = fileURLToPath(new URL('.', import.meta.url));
// Words starting with -- are an evaluation's own options (recommendations: --seed 7, --original-dates).
const only = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && !(all[i - 1]?.startsWith('--') === true && !all[i - 1]!.includes('=') && /^\d/.test(a)));
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.eval.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
if (files.length === 0) console.error(`No evaluation matches ${only.join(', ')}.`);

const results: EvalResult[] = [];
for (const file of files) {
  const module = (await import(pathToFileURL(join(dir, file)).href)) as { default: Evaluation };
  console.error(`\n▶ ${file}`);
  const result = await module.default();
  if (result === undefined) continue;
  results.push(result);
  console.log(`\n## ${result.name}`);
  for (const [key, value] of Object.entries(result.setup)) console.log(`  ${key}: ${value}`);
  for (const table of result.tables) {
    console.log(`\n### ${table.title}`);
    console.table(table.rows);
  }
  for (const note of result.notes ?? []) console.log(`  ${note}`);
}
console.log('\nJSON:');
console.log(JSON.stringify({ node: process.version, results }, null, 2));
