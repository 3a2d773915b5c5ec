/**
 * `npm run bench` first compiles the benchmarks with the server's own build settings (build-server.ts:
 * esbuild, our packages bundled in, npm packages external), into bench/.build, and then runs the
 * compiled `run.js` with plain `node`. The figures are then those of the code production runs: under
 * tsx, esbuild's `keepNames` wraps every closure the hot paths create in a `__name` call, which
 * production's bundle does not have (about a tenth of an uncached search's time in process).
 */
import { readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { build } from 'esbuild';
import { externalNpmPackages, sourceLocations, WORKER_ENTRIES } from './build-server.js';

const outDir = resolve('bench/.build');
await rm(outDir, { recursive: true, force: true });
const entries = readdirSync(resolve('bench')).filter((file) => file === 'run.ts' || file.endsWith('.bench.ts'));
await build({
  // The server's worker threads too: compiled code starts their compiled entries (platform/worker-entry.ts).
  entryPoints: [...entries.map((file) => ({ in: resolve('bench', file), out: file.replace(/\.ts$/, '') })), ...WORKER_ENTRIES.map((entry) => ({ in: resolve(entry.in), out: entry.out }))],
  outdir: outDir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  splitting: true,
  // Chunks beside the entries: `sourceLocations` computes each module's URL from the output directory.
  chunkNames: '[name]-[hash]',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [externalNpmPackages, sourceLocations(outDir)],
});
