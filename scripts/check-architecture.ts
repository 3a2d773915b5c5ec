/**
 * `npm run check:architecture`: the layout rules of docs/architecture.md, checked over the source.
 * - no import cycle anywhere in packages/ and apps/ (type-only imports count: a cycle of types is
 *   still a circle a reader has to untangle);
 * - in the server, imports only go down: platform ← domains ← apis ← app (← the package entry);
 *   platform and domains never import Koa, so they cannot speak HTTP;
 * - browser packages (protocol, tracker, elements, client) never import Node built-ins;
 * - no source file over 400 lines unless its first lines say why (`long-file: <reason>`);
 * - every path docs/architecture.md's change table names exists.
 * Prints every finding and exits 1 when there is one; the test suite runs the same checks.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export const MAX_LINES = 400;
const SOURCE = /\.(ts|mts)$/;
const SPECIFIER = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
const BROWSER_PACKAGES = ['protocol', 'tracker', 'elements', 'client'];
const SERVER_LAYERS = ['platform', 'domains', 'apis', 'app'] as const;
const HTTP_MODULES = new Set(['koa', '@koa/router']);

export interface SourceFile {
  path: string;
  lines: number;
  imports: Array<{ specifier: string; target: string | undefined }>;
}

/** Every TypeScript source file under `src/` of each workspace (tests, builds and node_modules excluded). */
export function sourceFiles(root: string): SourceFile[] {
  const files: string[] = [];
  for (const group of ['packages', 'apps']) {
    const groupDir = join(root, group);
    if (!existsSync(groupDir)) continue;
    for (const workspace of readdirSync(groupDir)) {
      const src = join(groupDir, workspace, 'src');
      if (existsSync(src)) walk(src, files);
    }
  }
  return files.map((path) => {
    const text = readFileSync(path, 'utf8');
    return { path, lines: text.split('\n').length, imports: importsOf(root, path, text) };
  });
}

function walk(dir: string, out: string[]): void {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else if (SOURCE.test(name) && !name.endsWith('.d.ts')) out.push(full);
  }
}

function importsOf(root: string, file: string, text: string): SourceFile['imports'] {
  const found: SourceFile['imports'] = [];
  for (const match of text.matchAll(SPECIFIER)) {
    const specifier = match[1] ?? match[2]!;
    found.push({ specifier, target: resolveSpecifier(root, file, specifier) });
  }
  return found;
}

/** A relative import's file, or a workspace package's entry (`@discovery-kit/server` → packages/server/src/index.ts). */
function resolveSpecifier(root: string, file: string, specifier: string): string | undefined {
  if (specifier.startsWith('.')) {
    const base = resolve(dirname(file), specifier);
    for (const candidate of [base.replace(/\.js$/, '.ts'), base.replace(/\.mjs$/, '.mts'), base, `${base}.ts`, join(base, 'index.ts')]) {
      if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
    }
    return undefined;
  }
  const workspace = /^@discovery-kit\/([a-z-]+)$/.exec(specifier);
  if (workspace === null) return undefined;
  for (const group of ['packages', 'apps']) {
    const entry = join(root, group, workspace[1]!, 'src', 'index.ts');
    if (existsSync(entry)) return entry;
  }
  return undefined;
}

/** Every import circle, each as the files around it (strongly connected components of two or more, or a file importing itself). */
export function findCycles(files: readonly SourceFile[]): string[][] {
  const edges = new Map(files.map((f) => [f.path, [...new Set(f.imports.map((i) => i.target).filter((t): t is string => t !== undefined))]]));
  // Tarjan's algorithm, iterative so that a deep chain of imports cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let counter = 0;
  for (const start of edges.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; next: number }> = [{ node: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work.at(-1)!;
      const targets = edges.get(frame.node) ?? [];
      if (frame.next < targets.length) {
        const target = targets[frame.next++]!;
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, next: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      const parent = work.at(-1);
      if (parent !== undefined) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        if (component.length > 1 || targets.includes(frame.node)) cycles.push(component.sort());
      }
    }
  }
  return cycles;
}

/** Imports that run against the layers: up the server's layers, HTTP below the API layer, Node in browser packages. */
export function layerViolations(root: string, files: readonly SourceFile[]): string[] {
  const serverSrc = join(root, 'packages', 'server', 'src');
  const layerOf = (path: string): number | undefined => {
    if (!path.startsWith(serverSrc)) return undefined;
    const first = relative(serverSrc, path).split(/[\\/]/)[0]!;
    const layer = SERVER_LAYERS.indexOf(first as (typeof SERVER_LAYERS)[number]);
    return layer === -1 ? SERVER_LAYERS.length : layer;
  };
  const found: string[] = [];
  for (const file of files) {
    const name = relative(root, file.path);
    const layer = layerOf(file.path);
    const browser = BROWSER_PACKAGES.some((p) => file.path.startsWith(join(root, 'packages', p, 'src')));
    for (const { specifier, target } of file.imports) {
      if (browser && (specifier.startsWith('node:') || specifier === 'fs' || specifier === 'path')) found.push(`${name}: browser code imports ${specifier}`);
      if (layer === undefined) continue;
      if (layer <= 1 && HTTP_MODULES.has(specifier)) found.push(`${name}: ${SERVER_LAYERS[layer]} code imports ${specifier} (HTTP belongs to apis/)`);
      const targetLayer = target === undefined ? undefined : layerOf(target);
      if (targetLayer !== undefined && targetLayer > layer) {
        found.push(`${name}: ${SERVER_LAYERS[layer]} imports ${relative(root, target!)} from ${SERVER_LAYERS[targetLayer] ?? 'the package entry'} above it`);
      }
    }
  }
  return found;
}

/** Source files over MAX_LINES lines whose first lines give no `long-file:` reason. */
export function longFiles(root: string, files: readonly SourceFile[]): string[] {
  return files
    .filter((f) => f.lines > MAX_LINES && !readFileSync(f.path, 'utf8').split('\n', 30).some((line) => line.includes('long-file:')))
    .map((f) => `${relative(root, f.path)}: ${f.lines} lines`);
}

/**
 * Paths named in docs/architecture.md's "Where does my change go" table that do not exist. A path is a
 * backticked or bare word with a slash: from the repository root when it starts with packages/, apps/
 * or docs/, else inside packages/server/src (`domains/…`, `platform/…`); a `*` matches within a name.
 */
export function staleChangeTable(root: string): string[] {
  const doc = join(root, 'docs', 'architecture.md');
  if (!existsSync(doc)) return [];
  const text = readFileSync(doc, 'utf8');
  const table = text.slice(text.indexOf('## Where does my change go'));
  const found = new Set<string>();
  for (const [, path] of table.matchAll(/(?:^|[\s`(])((?:packages|apps|docs|domains|platform|apis|app)\/[\w./*-]*[\w*])/g)) {
    const full = /^(packages|apps|docs)\//.test(path!) ? join(root, path!) : join(root, 'packages/server/src', path!);
    if (!pathExists(full)) found.add(path!);
  }
  return [...found];
}

function pathExists(path: string): boolean {
  if (!path.includes('*')) return existsSync(path);
  const dir = dirname(path);
  const name = new RegExp(`^${path.slice(dir.length + 1).replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
  return existsSync(dir) && readdirSync(dir).some((entry) => name.test(entry));
}

export function checkArchitecture(root: string): { cycles: string[][]; layers: string[]; long: string[]; stale: string[] } {
  const files = sourceFiles(root);
  return {
    cycles: findCycles(files).map((cycle) => cycle.map((path) => relative(root, path))),
    layers: layerViolations(root, files),
    long: longFiles(root, files),
    stale: staleChangeTable(root),
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = resolve(process.argv[2] ?? '.');
  const { cycles, layers, long, stale } = checkArchitecture(root);
  const files = sourceFiles(root).length;
  for (const cycle of cycles) console.log(`import cycle: ${cycle.join(' → ')}`);
  for (const line of layers) console.log(`layering: ${line}`);
  for (const line of long) console.log(`too long: ${line}`);
  for (const path of stale) console.log(`docs/architecture.md names a missing path: ${path}`);
  const problems = cycles.length + layers.length + long.length + stale.length;
  console.log(`${files} source files: ${cycles.length} import cycles, ${layers.length} layering violations, ${long.length} files over ${MAX_LINES} lines without a reason, ${stale.length} missing paths in the change table`);
  process.exitCode = problems > 0 ? 1 : 0;
}
