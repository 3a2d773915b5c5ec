/**
 * Keeps docs/conformance.md (the interface document) and docs/search-definition.md (the published
 * search definition) true: every rule row names a test that exists, under that exact title, in the
 * named file; rows are numbered in order; only rules the interface leaves "not shown" go untested.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const TESTS = fileURLToPath(new URL('./', import.meta.url));
const docsPage = (name: string) => fileURLToPath(new URL(`../../../docs/${name}`, import.meta.url));
const STATUSES = new Set(['as written', 'lenient', 'decided', 'not shown']);

interface Row {
  number: number;
  rule: string;
  status: string;
  reference: string;
}

function rows(markdown: string): Row[] {
  const out: Row[] = [];
  for (const line of markdown.split('\n')) {
    const match = /^\| (\d+) \| (.+) \| ([a-z ]+) \| (.+) \|$/.exec(line);
    if (match !== null) out.push({ number: Number(match[1]), rule: match[2]!, status: match[3]!, reference: match[4]! });
  }
  return out;
}

/** Titles given to `it`, `test` and `describe` in a test file, with escaped quotes unescaped. */
function titlesIn(source: string): Set<string> {
  const titles = new Set<string>();
  for (const match of source.matchAll(/\b(?:it|test|describe)\(\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1/g)) {
    titles.add(match[2]!.replace(/\\(['"`\\])/g, '$1'));
  }
  return titles;
}

for (const { page, least } of [
  { page: 'conformance.md', least: 150 },
  { page: 'search-definition.md', least: 40 },
]) describe(`conformance table (docs/${page})`, () => {
  const table = rows(readFileSync(docsPage(page), 'utf8'));

  it('numbers its rules 1 to n, each with a known status', () => {
    assert.ok(table.length >= least, `only ${table.length} rows`);
    assert.deepEqual(table.map((r) => r.number), table.map((_, i) => i + 1));
    for (const row of table) assert.ok(STATUSES.has(row.status), `rule ${row.number}: status "${row.status}"`);
  });

  it('names, for every rule, a test that exists under that title in that file', () => {
    const cache = new Map<string, Set<string>>();
    const problems: string[] = [];
    for (const row of table) {
      if (row.reference === '—') {
        if (row.status !== 'not shown') problems.push(`rule ${row.number} has no test but is "${row.status}"`);
        continue;
      }
      const match = /^`([\w./-]+\.test\.ts)` — (.+)$/.exec(row.reference);
      if (match === null) {
        problems.push(`rule ${row.number}: reference "${row.reference}" is not \`file.test.ts\` — title`);
        continue;
      }
      const [, file, title] = match as unknown as [string, string, string];
      const path = `${TESTS}${file}`;
      if (!existsSync(path)) {
        problems.push(`rule ${row.number}: no file ${file}`);
        continue;
      }
      let titles = cache.get(file);
      if (titles === undefined) cache.set(file, (titles = titlesIn(readFileSync(path, 'utf8'))));
      if (!titles.has(title)) problems.push(`rule ${row.number}: no test "${title}" in ${file}`);
    }
    assert.deepEqual(problems, []);
  });
});
