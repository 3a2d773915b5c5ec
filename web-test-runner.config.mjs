// Browser tests: real elements in Debian's Chromium (CHROME_PATH overrides), TypeScript compiled by esbuild.
import { chromeLauncher } from '@web/test-runner-chrome';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { companionServerPlugin } from './scripts/companion-for-tests.mjs';

const executablePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';

export default {
  files: ['packages/*/test/**/*.browser.test.ts'],
  // Lit's production build, as the bundle ships it (and no dev-mode warning in every test's log).
  nodeResolve: { exportConditions: ['production'] },
  concurrency: 1,
  plugins: [esbuildPlugin({ ts: true, tsconfig: 'tsconfig.json', target: 'es2022' }), companionServerPlugin()],
  browsers: [
    chromeLauncher({
      launchOptions: {
        executablePath,
        headless: true,
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-dev-shm-usage',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-quic',
          '--no-first-run',
          '--disable-sync',
        ],
      },
    }),
  ],
  testFramework: { config: { timeout: 10000 } },
};
