/** The blob port's file adapter: the BlobStore contract over real files, then its place in the data directory. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FileBlobStore } from '../src/platform/blob-store/file-blob-store.js';
import { makeDataDir } from './support/test-server.js';
import { blobStoreContract } from './contracts/blob-store-contract.js';

blobStoreContract('FileBlobStore', async () => {
  const dir = await makeDataDir();
  return { open: () => new FileBlobStore({ directory: dir }), dispose: () => rm(dir, { recursive: true, force: true }) };
});

describe('FileBlobStore files', () => {
  it('keeps a blob at its name under the data directory, with no temporary file left', async () => {
    const dir = await makeDataDir();
    const blobs = new FileBlobStore({ directory: dir });
    await blobs.put('models/demo.item-model', Buffer.from('model bytes'));
    await blobs.put('models/demo.item-model', Buffer.from('newer model bytes'));
    assert.equal(await readFile(join(dir, 'models', 'demo.item-model'), 'utf8'), 'newer model bytes');
    assert.deepEqual(await readdir(join(dir, 'models')), ['demo.item-model']);
    await rm(dir, { recursive: true, force: true });
  });

  it("removes the temporary files an interrupted put left, at the next put of that blob only", async () => {
    const dir = await makeDataDir();
    await mkdir(join(dir, 'models'), { recursive: true });
    await writeFile(join(dir, 'models', '.demo.item-model.0a1b2c3d4e5f.tmp'), 'half a model');
    await writeFile(join(dir, 'models', '.other.item-model.0a1b2c3d4e5f.tmp'), 'another blob, in progress');
    const blobs = new FileBlobStore({ directory: dir });
    await Promise.all([blobs.put('models/demo.item-model', Buffer.from('one')), blobs.put('models/demo.item-model', Buffer.from('two'))]);
    assert.deepEqual((await readdir(join(dir, 'models'))).sort(), ['.other.item-model.0a1b2c3d4e5f.tmp', 'demo.item-model']);
    assert.match(await readFile(join(dir, 'models', 'demo.item-model'), 'utf8'), /^(one|two)$/);
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses the names of the store and event-log files beside it', async () => {
    const dir = await makeDataDir();
    const blobs = new FileBlobStore({ directory: dir });
    for (const name of ['documents/tenants.json', 'journal/x.json', 'activities/demo/segment-000001.jsonl', 'server.lock', 'models/a.tmp']) {
      await assert.rejects(blobs.put(name, Buffer.from('x')), /Invalid blob name/, name);
    }
    assert.deepEqual(await readdir(dir), []);
    await rm(dir, { recursive: true, force: true });
  });
});
