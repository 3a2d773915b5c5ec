/**
 * Browser bundle sizes: builds every bundle of vite.config.ts into a temporary directory and prints
 * raw and gzip (level 9) bytes against the budgets (tracker alone ≤ 5 KB, whole bundle with Lit ≤ 20 KB),
 * beside Lit alone (one trivial LitElement, built the same way in the same run) as the baseline.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import type { Benchmark } from './run.js';
import { round } from './harness.js';
import { buildConsole, buildSdk } from '../scripts/build-sdk.js';
import { sdkConfig } from '../vite.config.js';

const BUDGETS: Record<string, number> = {
  'discovery.js': 20 * 1024,
  'discovery.iife.js': 20 * 1024,
  'discovery-tracker.js': 5 * 1024,
  // The console and the reference page are not on shops' pages, but they load on every visit of a merchandiser.
  'console.js': 25 * 1024,
  'reference.js': 5 * 1024,
};

async function sizes(file: string): Promise<{ bytes: number; gzip: number }> {
  const body = await readFile(file);
  return { bytes: body.length, gzip: gzipSync(body, { level: 9 }).length };
}

const bundle: Benchmark = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'discovery-bundle-'));
  try {
    const files = [...(await buildSdk(join(dir, 'sdk'))), ...(await buildConsole(join(dir, 'console')))];
    // The baseline: what Lit alone costs when a page defines one element with it.
    const litEntry = resolve('bench/.lit-baseline.ts');
    await writeFile(litEntry, "import { LitElement, html, css } from 'lit';\nclass X extends LitElement { static styles = css`:host{display:block}`; render() { return html`<p>x</p>`; } }\ncustomElements.define('x-baseline', X);\n");
    try {
      await build({ configFile: false, ...sdkConfig({ file: 'lit-alone.js', entry: litEntry, format: 'es' }, join(dir, 'baseline')) });
    } finally {
      await rm(litEntry, { force: true });
    }
    const lit = await sizes(join(dir, 'baseline', 'lit-alone.js'));
    const rows: Array<Record<string, string | number | boolean>> = [{ bundle: 'lit alone (baseline)', bytes: lit.bytes, gzipBytes: lit.gzip, gzipKB: round(lit.gzip / 1024, 2), budgetKB: '-', withinBudget: '-', xLit: 1 }];
    for (const file of files) {
      const name = file.slice(file.lastIndexOf('/') + 1);
      const { bytes, gzip } = await sizes(file);
      const budget = BUDGETS[name];
      rows.push({ bundle: name, bytes, gzipBytes: gzip, gzipKB: round(gzip / 1024, 2), budgetKB: budget === undefined ? '-' : budget / 1024, withinBudget: budget === undefined ? '-' : gzip <= budget, xLit: round(gzip / lit.gzip, 2) });
    }
    // A results page loads the tag and then the page elements: what it downloads in all.
    const gzipOf = (name: string) => Number(rows.find((row) => row.bundle === name)?.gzipBytes ?? 0);
    const searchPage = gzipOf('discovery.js') + gzipOf('discovery-pages.js');
    rows.push({ bundle: 'search page: discovery.js + discovery-pages.js', bytes: '-', gzipBytes: searchPage, gzipKB: round(searchPage / 1024, 2), budgetKB: '-', withinBudget: '-', xLit: round(searchPage / lit.gzip, 2) });
    return {
      name: 'browser bundle sizes (minified, gzip -9)',
      rows,
      notes: [
        'Budgets: tracker alone ≤ 5 KB, whole bundle with Lit ≤ 20 KB, console with Lit ≤ 25 KB, reference page ≤ 5 KB (gzip). For scale: Lit 5.9 KB, Snowplow tracker 17.5 KB, Algolia autocomplete 23.3 KB.',
        'discovery-pages.js (search results, e-mail block) is fetched by the tag only on pages holding one of those elements; it reuses the tag\'s Lit.',
      ],
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

export default bundle;
