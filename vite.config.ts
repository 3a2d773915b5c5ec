/**
 * The browser bundles, built into dist/sdk by `npm run build` (scripts/build-sdk.ts runs each one):
 * - discovery.js: the embed (tracker + elements + Lit), ES module syntax without exports, so the same
 *   file works in `<script src async>` and in `<script type="module">`;
 * - discovery.iife.js: the same embed as a classic script for pages that want one explicitly;
 * - discovery-tracker.js: the tracker alone, for shops that only record activities;
 * - discovery-pages.js: the elements only some pages use (search results, e-mail block), which the embed
 *   imports when such a tag is on the page; it uses the embed's Lit (published on globalThis) rather than a copy.
 * Each is one self-contained file (no shared chunks: a script tag cannot import them).
 * `vite build` alone builds discovery.js.
 */
import { defineConfig, type Plugin, type UserConfig } from 'vite';

export interface SdkBuild {
  file: string;
  entry: string;
  format: 'es' | 'iife';
  /** `lit` is the embed's copy, found on globalThis.__discoveryKitLit (see lazy-elements.ts). */
  sharedLit?: boolean;
}

const SHARED_LIT = '\0discovery-shared-lit';

function sharedLit(): Plugin {
  return {
    name: 'discovery-shared-lit',
    enforce: 'pre',
    resolveId: (id) => (id === 'lit' ? SHARED_LIT : null),
    load: (id) =>
      id === SHARED_LIT
        ? 'const lit = globalThis.__discoveryKitLit; export const LitElement = lit.LitElement, html = lit.html, css = lit.css, nothing = lit.nothing;'
        : null,
  };
}

export const SDK_BUILDS: SdkBuild[] = [
  { file: 'discovery.js', entry: 'packages/elements/src/embed.ts', format: 'es' },
  { file: 'discovery.iife.js', entry: 'packages/elements/src/embed.ts', format: 'iife' },
  { file: 'discovery-tracker.js', entry: 'packages/tracker/src/embed.ts', format: 'es' },
  { file: 'discovery-pages.js', entry: 'packages/elements/src/lazy-entry.ts', format: 'es', sharedLit: true },
];

/** The console's pages (dist/console, `npm run build`): not part of the shop's bundle, built with the same settings. */
export const CONSOLE_BUILDS: SdkBuild[] = [
  { file: 'console.js', entry: 'apps/console/src/main.ts', format: 'es' },
  { file: 'reference.js', entry: 'apps/console/src/reference/main.ts', format: 'es' },
];

export function sdkConfig(sdk: SdkBuild, outDir = 'dist/sdk'): UserConfig {
  return {
    logLevel: 'warn',
    plugins: sdk.sharedLit ? [sharedLit()] : [],
    // Lit's production build (no dev-mode warnings) is picked by this condition.
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      outDir,
      emptyOutDir: false,
      target: 'es2020',
      sourcemap: true,
      minify: true,
      reportCompressedSize: false,
      // Library mode keeps whitespace in ES output so that a bundler can tree-shake it later; these
      // files go straight to browsers and export nothing, so they are minified fully.
      rolldownOptions: { output: { minify: true } },
      lib: {
        entry: sdk.entry,
        name: 'DiscoveryKitEmbed',
        formats: [sdk.format],
        fileName: () => sdk.file,
      },
    },
  };
}

export default defineConfig(sdkConfig(SDK_BUILDS[0]!));
