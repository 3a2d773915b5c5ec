/**
 * `npm run build:server`: compiles the companion and its command-line tools to plain JavaScript in
 * dist/server, so that production runs on `node` alone (no TypeScript runtime, no dev dependencies).
 * Our workspace packages are bundled in; npm packages stay external and load from node_modules.
 */
import { readFile, rm } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

/** Every runnable entry: the server and the tools an operator runs next to it. */
export const SERVER_ENTRIES = ['main', 'account-cli', 'token-cli', 'import-cli', 'privacy-cli', 'backup-cli', 'console-password-cli', 'migrate-cli'];

/**
 * Worker threads' entries, compiled beside the server's (platform/worker-entry.ts starts them from
 * there): a worker runs a file of its own, not the bundle that starts it.
 */
export const WORKER_ENTRIES = [
  { in: 'packages/server/src/domains/recommendations/model-worker.ts', out: 'model-worker' },
  { in: 'packages/server/src/domains/search/threads/search-thread.ts', out: 'search-thread' },
];

const WORKSPACE_SCOPE = '@discovery-kit/';

/** npm packages load from node_modules at run time; our own TypeScript packages are compiled in. */
const externalNpmPackages: Plugin = {
  name: 'external-npm-packages',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith(WORKSPACE_SCOPE) || args.path.startsWith('node:')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/**
 * Modules find their data (demo catalog, configuration, the shop's assets) next to their source
 * through `import.meta.url`. In one bundle every module would share the bundle's URL, so each
 * module's `import.meta.url` becomes its source file's URL, computed from the bundle's location at
 * run time: the build stays relocatable (a container copies the tree elsewhere) and the data files
 * stay where they are in the repository.
 */
function sourceLocations(outDir: string): Plugin {
  return {
    name: 'source-import-meta-url',
    setup(builder) {
      builder.onLoad({ filter: /\.ts$/ }, async (args) => {
        const text = await readFile(args.path, 'utf8');
        // A file that needs the bundle's own URL (worker-entry.ts, to find the worker entries) says so.
        if (!text.includes('import.meta.url') || text.includes('build: keep import.meta.url')) return undefined;
        const fromBundle = relative(outDir, args.path).split('\\').join('/');
        const contents = text.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`);
        return { contents, loader: 'ts', resolveDir: dirname(args.path) };
      });
    },
  };
}

/**
 * Compiles `entries` (paths relative to the checkout, each with its output name) and the worker
 * threads' entries into a fresh `outDir`, as production runs them: the server's build and the
 * benchmarks' (build-bench.ts) share these settings.
 */
export async function compileForNode(entries: readonly { in: string; out: string }[], outDir: string): Promise<void> {
  await rm(outDir, { recursive: true, force: true });
  await build({
    entryPoints: [...entries, ...WORKER_ENTRIES].map((entry) => ({ in: resolve(entry.in), out: entry.out })),
    outdir: outDir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Shared code goes to chunks instead of being copied into each entry; beside the entries, since
    // `sourceLocations` computes each module's URL from the output directory.
    splitting: true,
    chunkNames: '[name]-[hash]',
    sourcemap: true,
    logLevel: 'warning',
    plugins: [externalNpmPackages, sourceLocations(outDir)],
  });
}

export async function buildServer(outDir = resolve('dist/server')): Promise<string[]> {
  await compileForNode(SERVER_ENTRIES.map((name) => ({ in: `apps/companion/src/${name}.ts`, out: name })), outDir);
  return SERVER_ENTRIES.map((name) => resolve(outDir, `${name}.js`));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const files = await buildServer(process.argv[2] === undefined ? undefined : resolve(process.argv[2]));
  console.error(`built the server: ${files.map((file) => relative(process.cwd(), file)).join(', ')}`);
}
