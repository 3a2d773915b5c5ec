/**
 * The layout rules of docs/architecture.md hold over the whole source tree (scripts/check-architecture.ts),
 * every file its change table names exists, and the checker itself finds each kind of breach when one is planted in a scratch tree.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { checkArchitecture, MAX_LINES } from '../../../scripts/check-architecture.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

describe('architecture', () => {
  const scratch: string[] = [];
  after(async () => {
    for (const dir of scratch) await rm(dir, { recursive: true, force: true });
  });

  async function tree(files: Record<string, string>): Promise<string> {
    const root = await mkdtemp(join(tmpdir(), 'dk-arch-'));
    scratch.push(root);
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), text);
    }
    return root;
  }

  it('finds no import cycle, no import up a layer, no overlong file and no missing path in the change table of the repository', () => {
    const { cycles, layers, long, stale } = checkArchitecture(ROOT);
    assert.deepEqual(cycles, []);
    assert.deepEqual(layers, []);
    assert.deepEqual(long, []);
    assert.deepEqual(stale, []);
  });

  it('lists every page of docs/ in the docs index, and links only pages that exist', () => {
    const index = readFileSync(join(ROOT, 'docs/README.md'), 'utf8');
    const linked = new Set([...index.matchAll(/\]\(([\w/.-]+\.md)\)/g)].map((m) => m[1]!).filter((link) => !link.startsWith('../')));
    const pages = readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md') && name !== 'README.md');
    assert.deepEqual(pages.filter((page) => !linked.has(page)), [], 'pages the index does not list');
    assert.deepEqual([...linked].filter((link) => !existsSync(join(ROOT, 'docs', link))), [], 'links to pages that do not exist');
  });

  it('reports a path the change table names that the tree does not hold', async () => {
    const root = await tree({
      'packages/server/src/domains/recommendations/strategies.ts': 'export const s = 1;\n',
      'packages/server/test/recommendations-one.test.ts': '',
      'docs/architecture.md': [
        '# Architecture',
        'Above the table `domains/gone/before.ts` is not checked.',
        '## Where does my change go',
        '| change | rooms |',
        '|---|---|',
        '| A strategy | `domains/recommendations/strategies.ts`, a test in `packages/server/test/recommendations-*.test.ts`, `apps/console/src/gone.ts` and docs/missing.md |',
      ].join('\n'),
    });
    assert.deepEqual(checkArchitecture(root).stale, ['apps/console/src/gone.ts', 'docs/missing.md']);
  });

  it('reports a planted cycle, an upward import, HTTP in a domain, Node in browser code and a long file', async () => {
    const server = 'packages/server/src';
    const root = await tree({
      [`${server}/domains/a/one.ts`]: "import { two } from './two.js';\nexport const one = two;\n",
      [`${server}/domains/a/two.ts`]: "import type { one } from './one.js';\nexport const two = 2;\nexport type T = typeof one;\n",
      [`${server}/domains/b/uses-api.ts`]: "import { route } from '../../apis/route.js';\nimport Koa from 'koa';\nexport const x = [route, Koa];\n",
      [`${server}/apis/route.ts`]: 'export const route = 1;\n',
      [`${server}/platform/clock.ts`]: "export { one } from '../domains/a/one.js';\n",
      'packages/tracker/src/index.ts': "import { readFile } from 'node:fs/promises';\nexport const r = readFile;\n",
      'packages/elements/src/long.ts': 'export const n = 1;\n'.repeat(MAX_LINES + 1),
      'packages/elements/src/long-with-reason.ts': `// long-file: one table the reader scans, not code\n${'export const m = 1;\n'.repeat(MAX_LINES + 1)}`,
    });
    const { cycles, layers, long } = checkArchitecture(root);
    assert.deepEqual(cycles, [[`${server}/domains/a/one.ts`, `${server}/domains/a/two.ts`]]);
    assert.deepEqual(layers.sort(), [
      'packages/server/src/domains/b/uses-api.ts: domains code imports koa (HTTP belongs to apis/)',
      'packages/server/src/domains/b/uses-api.ts: domains imports packages/server/src/apis/route.ts from apis above it',
      'packages/server/src/platform/clock.ts: platform imports packages/server/src/domains/a/one.ts from domains above it',
      'packages/tracker/src/index.ts: browser code imports node:fs/promises',
    ]);
    assert.deepEqual(long, [`packages/elements/src/long.ts: ${MAX_LINES + 2} lines`]);
  });
});
