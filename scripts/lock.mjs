// `npm run lock`: brings package-lock.json up to date with every package.json, then adds the
// platform packages of optional native dependencies (rollup, esbuild, rolldown, lightningcss, ...)
// that npm leaves out when the lock is made on one platform, so `npm ci` works on Linux, macOS and
// Windows alike. Re-run it after adding or upgrading a dependency; it changes nothing when the lock
// is already complete. `--check` only reports what is missing (exit 1), for CI.
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
const lockPath = `${root}/package-lock.json`;
const checkOnly = process.argv.includes('--check');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

if (!checkOnly) {
  // Syncs the lock with package.json without touching node_modules or running any script.
  await run(npm, ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: root });
}

const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const packages = lock.packages;

/** Where Node would find `name` from the package at `from`: its own node_modules, then each ancestor's. */
function resolveFrom(from, name) {
  let dir = from;
  for (;;) {
    const candidate = dir === '' ? `node_modules/${name}` : `${dir}/node_modules/${name}`;
    if (packages[candidate] !== undefined) return candidate;
    if (dir === '') return undefined;
    const cut = dir.lastIndexOf('/node_modules/');
    dir = cut === -1 ? '' : dir.slice(0, cut);
  }
}

function missingOptionals() {
  const missing = [];
  for (const [path, entry] of Object.entries(packages)) {
    if (path === '' || entry.link === true) continue;
    for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
      if (resolveFrom(path, name) === undefined) missing.push({ parent: path, name, spec, dev: entry.dev === true });
    }
  }
  return missing;
}

const missing = missingOptionals();
if (checkOnly) {
  for (const m of missing) console.log(`missing: ${m.name}@${m.spec} (optional dependency of ${m.parent})`);
  console.log(missing.length === 0 ? 'package-lock.json lists every optional platform package.' : `${missing.length} optional packages missing: run npm run lock`);
  process.exit(missing.length === 0 ? 0 : 1);
}

/** The registry's metadata for the highest version matching `spec`, through npm's own client. */
async function metadata(name, spec) {
  try {
    const { stdout } = await run(npm, ['view', `${name}@${spec}`, '--json'], { cwd: root, maxBuffer: 16 * 1024 * 1024 });
    const parsed = JSON.parse(stdout);
    return Array.isArray(parsed) ? parsed[parsed.length - 1] : parsed;
  } catch (error) {
    // A registry (or mirror) without that build: npm skips an optional package it cannot fetch, so
    // this is reported, not fatal.
    if (/E404/.test(String(error.stdout ?? '') + String(error.stderr ?? ''))) return undefined;
    throw error;
  }
}

function lockEntry(meta, dev) {
  const entry = { version: meta.version, integrity: meta.dist.integrity };
  for (const key of ['cpu', 'libc', 'os']) if (meta[key] !== undefined) entry[key] = meta[key];
  if (dev) entry.dev = true;
  if (meta.license !== undefined) entry.license = meta.license;
  entry.optional = true;
  if (meta.dependencies !== undefined && Object.keys(meta.dependencies).length > 0) entry.dependencies = meta.dependencies;
  if (meta.engines !== undefined) entry.engines = meta.engines;
  return entry;
}

let added = 0;
const unavailable = [];
// A platform package can have dependencies of its own (a wasm binding's runtime), hence the queue.
const queue = [...missing];
while (queue.length > 0) {
  const batch = queue.splice(0, 8);
  const metas = await Promise.all(batch.map((m) => metadata(m.name, m.spec)));
  batch.forEach((m, i) => {
    if (resolveFrom(m.parent, m.name) !== undefined) return;
    if (metas[i] === undefined) {
      unavailable.push(`${m.name}@${m.spec}`);
      return;
    }
    // Hoisted to the top when that place is free, as npm does; nested under its parent otherwise.
    const path = packages[`node_modules/${m.name}`] === undefined ? `node_modules/${m.name}` : `${m.parent}/node_modules/${m.name}`;
    packages[path] = lockEntry(metas[i], m.dev);
    added++;
    for (const [name, spec] of Object.entries(metas[i].dependencies ?? {})) {
      if (resolveFrom(path, name) === undefined) queue.push({ parent: path, name, spec, dev: m.dev });
    }
  });
}

// npm keeps the entries sorted by path; so do we, so that a re-run by npm leaves no diff.
const sorted = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b, 'en'))));
lock.packages = sorted;
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
if (unavailable.length > 0) console.warn(`Not on the registry (left out; npm skips them as optional): ${unavailable.join(', ')}`);
console.log(added === 0 ? 'package-lock.json already lists every optional platform package.' : `Added ${added} optional platform packages to package-lock.json.`);
