/**
 * Each fast path of the search engine says in its opening comment which reference it must equal and
 * which test holds it to that ("Fast path of <reference>: must equal it (<test>)."). Here: every such
 * header names a test that exists, and the test names the file (imports it, or says what it exercises).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

const SRC = new URL('../src/', import.meta.url).pathname;
const TESTS = new URL('./', import.meta.url).pathname;
const HEADER = /Fast path of .+: must equal (?:it|them)[^(]*\(([a-z0-9-]+\.test\.ts)\)/;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? sources(full) : name.endsWith('.ts') ? [full] : [];
  });
}

describe('fast paths', () => {
  it('each name the test that holds them to their reference, and that test names them', () => {
    const found: string[] = [];
    for (const file of sources(SRC)) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(new RegExp(HEADER, 'g'))) {
        const test = join(TESTS, match[1]!);
        assert.ok(existsSync(test), `${file} names ${match[1]}, which does not exist`);
        const module = basename(file, '.ts');
        assert.ok(readFileSync(test, 'utf8').includes(module), `${match[1]} does not name ${module}`);
        found.push(basename(file));
      }
    }
    // The pairs docs/search.md lists: the matcher's one-term pass, facets, filters, input and the two serialisers.
    assert.deepEqual(found.sort(), ['facet-pass.ts', 'filter-bits.ts', 'json-bytes.ts', 'matcher.ts', 'response-text.ts', 'search-input.ts']);
  });
});
