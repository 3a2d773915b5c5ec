/**
 * `npm run bench` first compiles the benchmarks with the server's own build settings (build-server.ts
 * `compileForNode`: esbuild, our packages bundled in, npm packages external, the worker threads'
 * entries beside), into bench/.build, and then runs the compiled `run.js` with plain `node`. The
 * figures are then those of the code production runs: under tsx, esbuild's `keepNames` wraps every
 * closure the hot paths create in a `__name` call, which production's bundle does not have (about a
 * tenth of an uncached search's time in process). The servers some benchmarks start as processes of
 * their own (the reliability bench's child, the scale-out bench's companions) are compiled beside them
 * and started with plain `node` too: under tsx a start also spent about half a second in its loader.
 */
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { compileForNode } from './build-server.js';

const entries = readdirSync(resolve('bench')).filter((file) => file === 'run.ts' || file === 'reliability-child.ts' || file.endsWith('.bench.ts'));
await compileForNode(
  [...entries.map((file) => ({ in: `bench/${file}`, out: file.replace(/\.ts$/, '') })), { in: 'apps/companion/src/main.ts', out: 'companion' }],
  resolve('bench/.build'),
);
