// Runs one of the companion's command-line tools (`npm run import`, `backup`, `account`, ...):
// from the TypeScript source through tsx in a development install, so an edit takes effect at once,
// and from the compiled dist/server (`npm run build`) in a production install, which has no tsx.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const [name, ...args] = process.argv.slice(2);
if (name === undefined || !/^[a-z-]+$/.test(name)) {
  console.error('usage: node scripts/run-tool.mjs <tool> [arguments]');
  process.exit(2);
}
const source = fileURLToPath(new URL(`../apps/companion/src/${name}.ts`, import.meta.url));
const compiled = fileURLToPath(new URL(`../dist/server/${name}.js`, import.meta.url));
// The tool reads its own arguments from process.argv, as if started directly.
process.argv = [process.argv[0], source, ...args];

let tsx;
try {
  tsx = await import('tsx/esm/api');
} catch {
  tsx = undefined;
}
if (tsx !== undefined && existsSync(source)) {
  tsx.register();
  await import(pathToFileURL(source).href);
} else if (existsSync(compiled)) {
  process.argv[1] = compiled;
  await import(pathToFileURL(compiled).href);
} else {
  console.error(`${name}: no compiled build here and no tsx to run the source: run npm run build first.`);
  process.exit(2);
}
