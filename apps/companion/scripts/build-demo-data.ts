/** `npm run demo:data`: rebuilds apps/companion/demo/data from the Online Retail source file, when that file is present. */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { writeDemoData } from './demo-data/build-demo-data.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

const USAGE = `Usage: npm run demo:data -- [--source <online-retail.csv.gz>] [--out <dir>]
  --source  default ../shared/data/online-retail.csv.gz, beside the repository
  --out     default apps/companion/demo/data`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      source: { type: 'string', default: resolve(repoRoot, '../shared/data/online-retail.csv.gz') },
      out: { type: 'string', default: resolve(repoRoot, 'apps/companion/demo/data') },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const source = resolve(values.source);
  const out = resolve(values.out);
  // The generated files are checked in, so a missing source only matters to whoever regenerates them.
  if (!existsSync(source)) {
    console.error(`Source not found: ${source}\nThe checked-in demo data in ${out} is unchanged.\n${USAGE}`);
    process.exitCode = 1;
    return;
  }
  const files = await writeDemoData(source, out);
  const kb = (name: string) => `${Math.round(statSync(resolve(out, name)).size / 1024)} KB`;
  console.log(
    `Wrote ${out}: ${files.products.length} products (${files.products.filter((p) => p.variants).length} with variants), ` +
      `catalog.json ${kb('catalog.json')}; ${files.activities.length} activities, activities.jsonl.gz ${kb('activities.jsonl.gz')}.`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
