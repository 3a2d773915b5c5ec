// Builds the browser bundle into dist/sdk: discovery.js (ES module) and discovery.iife.js (classic script tag).
import { defineConfig } from 'vite';

export default defineConfig({
  build: {
    outDir: 'dist/sdk',
    emptyOutDir: true,
    target: 'es2020',
    sourcemap: true,
    lib: {
      entry: 'packages/tracker/src/index.ts',
      name: 'DiscoveryKit',
      formats: ['es', 'iife'],
      fileName: (format) => (format === 'es' ? 'discovery.js' : 'discovery.iife.js'),
    },
  },
});
