// Runs every Node test file (test/**/*.test.ts in each workspace, browser tests excluded) with Node's own runner.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const files = [];
function walk(dir) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules') continue;
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full);
    else if (name.endsWith('.test.ts') && !name.endsWith('.browser.test.ts')) files.push(relative(root, full));
  }
}
for (const group of ['packages', 'apps']) {
  for (const workspace of readdirSync(join(root, group))) {
    const tests = join(root, group, workspace, 'test');
    if (existsSync(tests)) walk(tests);
  }
}
// A test that hangs fails after this long instead of holding the whole run (and CI) until it is killed.
const TEST_TIMEOUT_MS = 10 * 60 * 1000;
const only = process.argv.slice(2);
const selected = only.length > 0 ? files.filter((f) => only.some((o) => f.includes(o))) : files;
if (selected.length === 0) {
  console.error('No test files matched.');
  process.exit(1);
}
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', `--test-timeout=${TEST_TIMEOUT_MS}`, ...selected.sort()], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: 'test' },
});
process.exit(result.status ?? 1);
