// Makes sure the browser tests have a Chromium: CHROME_PATH, or Debian's chromium, installed with apt-get when we are root.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const candidates = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].filter(Boolean);
const found = candidates.find((path) => existsSync(path));
if (found) {
  console.log(`Browser tests will use ${found}`);
  process.exit(0);
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = existsSync('/usr/bin/apt-get');
if (isRoot && hasApt) {
  console.log("Installing Debian's chromium package for the browser tests (apt-get)...");
  const run = (args) => spawnSync('apt-get', args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (run(['update']).status === 0 && run(['install', '-y', '--no-install-recommends', 'chromium']).status === 0 && existsSync('/usr/bin/chromium')) {
    process.exit(0);
  }
  console.error("apt-get could not install the chromium package.");
  process.exit(1);
}

console.error(
  'The browser tests need Chromium and none was found.\n' +
    "  On Debian or Ubuntu: sudo apt-get install chromium   (the package is named chromium)\n" +
    '  Or point CHROME_PATH at a Chrome or Chromium binary.',
);
process.exit(1);
