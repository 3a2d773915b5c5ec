/**
 * The embedded store: the DocumentStore contract over real files, then what is particular to lowdb's
 * files: one JSON file per document, atomic rewrites without leftovers, one server per data directory.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LowdbStore } from '../src/platform/store/lowdb-store.js';
import { DataDirectoryLockedError } from '../src/platform/store/data-dir-lock.js';
import { makeDataDir } from './support/test-server.js';
import { documentStoreContract } from './contracts/document-store-contract.js';

documentStoreContract('LowdbStore', async () => {
  const dir = await makeDataDir();
  return { open: () => new LowdbStore({ directory: dir }), dispose: () => rm(dir, { recursive: true, force: true }) };
});

describe('LowdbStore files', () => {
  it('writes each document to its own file and reads it back after a restart, even under NODE_ENV=test', async () => {
    const dir = await makeDataDir();
    const previous = process.env.NODE_ENV;
    process.env.NODE_ENV = 'test';
    try {
      const store = new LowdbStore({ directory: dir });
      const a = await store.document('tenants/a/profiles', () => ({ names: [] as string[] }));
      const b = await store.document('tenants/b/profiles', () => ({ names: [] as string[] }));
      await a.update((data) => data.names.push('alice'));
      await b.update((data) => data.names.push('bob'));
      await store.close();
      assert.deepEqual(JSON.parse(await readFile(join(dir, 'documents/tenants/a/profiles.json'), 'utf8')), { names: ['alice'] });
      const reopened = new LowdbStore({ directory: dir });
      const again = await reopened.document('tenants/b/profiles', () => ({ names: [] as string[] }));
      assert.deepEqual(again.data.names, ['bob']);
      assert.deepEqual(await reopened.list('tenants/'), ['tenants/a/profiles', 'tenants/b/profiles']);
      await reopened.close();
    } finally {
      process.env.NODE_ENV = previous;
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('applies concurrent updates in order, none lost, and leaves no temporary files', async () => {
    const dir = await makeDataDir();
    const store = new LowdbStore({ directory: dir });
    const doc = await store.document('counter', () => ({ values: [] as number[] }));
    await Promise.all(Array.from({ length: 200 }, (_, i) => doc.update((data) => data.values.push(i))));
    await store.close();
    const saved = JSON.parse(await readFile(join(dir, 'documents/counter.json'), 'utf8'));
    assert.deepEqual(saved.values, Array.from({ length: 200 }, (_, i) => i));
    assert.deepEqual(await readdir(join(dir, 'documents')), ['counter.json']);
    await rm(dir, { recursive: true, force: true });
  });

  it('leaves the file of a rolled-back update as it was before', async () => {
    const dir = await makeDataDir();
    const store = new LowdbStore({ directory: dir });
    const doc = await store.document('items', () => ({ items: [] as string[] }));
    await doc.update((data) => data.items.push('kept'));
    await assert.rejects(
      doc.update((data) => {
        data.items.push('half-done');
        throw new Error('invalid item');
      }),
      /invalid item/,
    );
    assert.deepEqual(JSON.parse(await readFile(join(dir, 'documents/items.json'), 'utf8')).items, ['kept']);
    await doc.update((data) => data.items.push('next'));
    await store.close();
    assert.deepEqual(JSON.parse(await readFile(join(dir, 'documents/items.json'), 'utf8')).items, ['kept', 'next']);
    await rm(dir, { recursive: true, force: true });
  });

  it('removes the file of a removed document', async () => {
    const dir = await makeDataDir();
    const store = new LowdbStore({ directory: dir });
    const doc = await store.document('tenants/a/old', () => ({ n: 0 }));
    await doc.update((data) => (data.n = 1));
    await store.remove('tenants/a/old');
    assert.deepEqual(await readdir(join(dir, 'documents/tenants/a')), []);
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses a second store on the same data directory while the first is open, and takes over a stale lock', async () => {
    const dir = await makeDataDir();
    const first = new LowdbStore({ directory: dir });
    assert.throws(() => new LowdbStore({ directory: dir }), DataDirectoryLockedError);
    await first.close();
    await writeFile(join(dir, 'server.lock'), '999999999\n');
    const second = new LowdbStore({ directory: dir });
    await second.close();
    await rm(dir, { recursive: true, force: true });
  });
});
