/** `npm run build`: builds every browser bundle of vite.config.ts into dist/sdk (or the directory given). */
import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';
import { CONSOLE_BUILDS, SDK_BUILDS, sdkConfig } from '../vite.config.js';

export async function buildSdk(outDir = resolve('dist/sdk')): Promise<string[]> {
  await rm(outDir, { recursive: true, force: true });
  for (const sdk of SDK_BUILDS) await build({ configFile: false, ...sdkConfig(sdk, outDir) });
  return SDK_BUILDS.map((sdk) => resolve(outDir, sdk.file));
}

/** The console and the API reference page (dist/console), served at /console/ and /docs/. */
export async function buildConsole(outDir = resolve('dist/console')): Promise<string[]> {
  await rm(outDir, { recursive: true, force: true });
  for (const entry of CONSOLE_BUILDS) await build({ configFile: false, ...sdkConfig(entry, outDir) });
  return CONSOLE_BUILDS.map((entry) => resolve(outDir, entry.file));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const files = await buildSdk(process.argv[2] === undefined ? undefined : resolve(process.argv[2]));
  console.error(`built ${files.length} bundles: ${files.join(', ')}`);
  if (process.argv[2] === undefined) {
    const pages = await buildConsole();
    console.error(`built the console: ${pages.join(', ')}`);
  }
}
