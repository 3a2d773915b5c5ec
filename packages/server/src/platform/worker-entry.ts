/**
 * Starts one of the server's worker threads (recommendations' training, search threads) from wherever
 * the server runs:
 *
 * - from TypeScript sources under tsx (tests, `npm run dev`): the worker loads the `.ts` entry and, on
 *   Node 20, registers tsx's hooks itself first (a worker does not inherit them);
 * - from the compiled build (`npm run build:server`, production, `npm run bench`): the entry is its
 *   own compiled file beside this bundle (build-server.ts `WORKER_ENTRIES`), and plain Node loads it.
 *   No TypeScript runtime is involved: production installs without dev dependencies.
 *
 * build: keep import.meta.url (build-server.ts `sourceLocations` leaves this file's URL the bundle's)
 */
import { Worker, type WorkerOptions } from 'node:worker_threads';

const here = import.meta.url;

/** Whether this code runs compiled (from the build's bundle) rather than from TypeScript sources. */
export const COMPILED = !here.endsWith('.ts');

/**
 * A worker running `name`: the compiled `<name>.js` beside the bundle, or `source` (the entry's `.ts`
 * file, as the caller's `new URL('./x.ts', import.meta.url)`) under tsx.
 */
export function startWorker(name: string, source: URL, options: WorkerOptions = {}): Worker {
  if (COMPILED) return new Worker(new URL(`./${name}.js`, here), options);
  const register = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  return new Worker(`import(${register}).then((tsx) => { tsx.register(); return import(${JSON.stringify(source.href)}); });`, { ...options, eval: true });
}
