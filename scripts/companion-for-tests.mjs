// Starts a real companion server (demo configuration, fresh temporary data directory) for the browser tests,
// and stops it when they end. The tests read its address from window.DISCOVERY_TEST_SERVER.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../apps/companion/src/main.ts', import.meta.url));

export function companionServerPlugin() {
  let child;
  let dataDir;
  let url;
  return {
    name: 'discovery-companion',
    async serverStart() {
      dataDir = mkdtempSync(join(tmpdir(), 'discovery-browser-'));
      child = spawn(process.execPath, ['--import', 'tsx', MAIN, '--port', '0', '--data-dir', dataDir, '--log-level', 'warn'], {
        stdio: ['ignore', 'inherit', 'pipe'],
      });
      url = await new Promise((resolve, reject) => {
        let text = '';
        const timer = setTimeout(() => reject(new Error(`The companion server did not start: ${text}`)), 120000);
        child.stderr.on('data', (chunk) => {
          text += chunk.toString();
          const match = /listening on (http:\/\/\S+) /.exec(text);
          // Ready, and the demo history (imported in the background on a first start) complete,
          // so that every test sees the same recommendations.
          if (match && /is ready after/.test(text) && /history: done/.test(text)) {
            clearTimeout(timer);
            resolve(match[1]);
          }
        });
        child.on('exit', (code) => reject(new Error(`The companion server exited with ${code}: ${text}`)));
      });
    },
    async serverStop() {
      if (child && child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
    transform(context) {
      // Hands the server's address to every test page.
      if (context.response.is('html')) {
        return { body: context.body.replace('<head>', `<head><script>window.DISCOVERY_TEST_SERVER = ${JSON.stringify(url)};</script>`) };
      }
      return undefined;
    },
  };
}
