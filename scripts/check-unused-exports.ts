/**
 * `npm run lint` (second half): exported names that nothing uses. Biome sees one file at a time, so it
 * finds unused locals and imports but not an export that no other file imports (two error helpers
 * lived on that way). Declarations in a file whose opening comment (or the declaration's own) says "Compile-time only" are checks
 * the compiler runs, not code, and are left alone. A name counts as used when it appears anywhere else in the tree's TypeScript and JavaScript
 * (sources, tests, benches, evals, scripts) — a comment naming it counts too, which errs towards silence.
 * Prints every finding and exits 1 when there is one.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

const CODE = /\.(ts|mts|js|mjs)$/;
const EXPORTED = /^export\s+(?:declare\s+)?(?:async\s+)?(?:abstract\s+)?(?:function\*?|const|let|class|interface|type)\s+([A-Za-z_$][\w$]*)/gm;
const WORD = /[A-Za-z_$][\w$]*/g;
const SKIP = new Set(['node_modules', 'dist', '.build', '.data', 'results']);

function walk(dir: string, out: string[]): void {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name)) continue;
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else if (CODE.test(name) && !name.endsWith('.d.ts')) out.push(full);
  }
}

/** `file: name` for each name exported by a workspace's `src/` that appears nowhere but its own declaration. */
export function unusedExports(root: string): string[] {
  const everything: string[] = [];
  for (const top of ['packages', 'apps', 'scripts', 'bench', 'eval']) walk(join(root, top), everything);
  const uses = new Map<string, number>();
  const texts = new Map<string, string>();
  for (const file of everything) {
    const text = readFileSync(file, 'utf8');
    texts.set(file, text);
    for (const [word] of text.matchAll(WORD)) uses.set(word, (uses.get(word) ?? 0) + 1);
  }
  const found: string[] = [];
  for (const [file, text] of texts) {
    const path = relative(root, file);
    // Only workspace sources export for others; a package entry's exports are its public surface.
    if (!/^(packages|apps)\/[^/]+\/src\//.test(path) || /\/src\/index\.ts$/.test(path)) continue;
    const compileTimeOnly = text.slice(0, 400).includes('Compile-time only');
    for (const match of text.matchAll(EXPORTED)) {
      const name = match[1]!;
      if (compileTimeOnly || text.slice(Math.max(0, match.index - 300), match.index).includes('Compile-time only')) continue;
      if (uses.get(name) === 1) found.push(`${path}: ${name}`);
    }
  }
  return found.sort();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const found = unusedExports(join(import.meta.dirname, '..'));
  for (const line of found) console.log(`unused export: ${line}`);
  if (found.length > 0) {
    console.log(`${found.length} exported names are used nowhere: delete them (or use them).`);
    process.exit(1);
  }
}
