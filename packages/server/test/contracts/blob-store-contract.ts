/**
 * What every BlobStore adapter must do (the promises in src/platform/blob-store/blob-store.ts), as a
 * suite an adapter's test file calls with a way to open it. Behaviour only, through the port.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { BlobStore } from '../../src/platform/blob-store/blob-store.js';

/** One empty place to store blobs into (a directory, a database schema) for one test. */
export interface BlobStorePlace {
  /** Opens the adapter on the place; a second open sees what the first stored. */
  open(): BlobStore | Promise<BlobStore>;
  dispose(): Promise<void>;
}

export function blobStoreContract(adapter: string, makePlace: () => Promise<BlobStorePlace>): void {
  const withPlace = async (test: (place: BlobStorePlace) => Promise<void>) => {
    const place = await makePlace();
    try {
      await test(place);
    } finally {
      await place.dispose();
    }
  };

  describe(`BlobStore contract: ${adapter}`, () => {
    it('gives back the bytes last put, byte for byte, also when opened again', () =>
      withPlace(async (place) => {
        const blobs = await place.open();
        const bytes = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 31) % 256);
        await blobs.put('models/shop.item-model', bytes);
        assert.deepEqual(new Uint8Array((await blobs.get('models/shop.item-model'))!), bytes);
        await blobs.put('models/shop.item-model', Buffer.from('second'));
        assert.equal((await blobs.get('models/shop.item-model'))!.toString(), 'second');
        const again = await place.open();
        assert.equal((await again.get('models/shop.item-model'))!.toString(), 'second');
      }));

    it('stores bytes put in pieces as one blob, in order, replacing the whole one before', () =>
      withPlace(async (place) => {
        const blobs = await place.open();
        await blobs.put('snapshots/shop/activities.snapshot.gz', Buffer.alloc(300_000, 7));
        const pieces = [Buffer.from('head-'), Buffer.alloc(0), Uint8Array.from({ length: 200_000 }, (_, i) => i % 251), Buffer.from('-tail')];
        await blobs.put('snapshots/shop/activities.snapshot.gz', pieces);
        assert.deepEqual(new Uint8Array((await blobs.get('snapshots/shop/activities.snapshot.gz'))!), new Uint8Array(Buffer.concat(pieces)));
      }));

    it('answers undefined for a blob never put, and after it is removed', () =>
      withPlace(async (place) => {
        const blobs = await place.open();
        assert.equal(await blobs.get('models/none.item-model'), undefined);
        await blobs.put('models/gone.item-model', Buffer.from('x'));
        await blobs.put('models/kept.item-model', Buffer.from('y'));
        await blobs.remove('models/gone.item-model');
        await blobs.remove('models/never-was.item-model');
        assert.equal(await blobs.get('models/gone.item-model'), undefined);
        assert.equal((await blobs.get('models/kept.item-model'))!.toString(), 'y');
      }));

    it('ends concurrent puts of one name with one of them whole, never a mix', () =>
      withPlace(async (place) => {
        const blobs = await place.open();
        const versions = Array.from({ length: 8 }, (_, i) => Buffer.alloc(100_000, 65 + i));
        await Promise.all(versions.map((version) => blobs.put('models/race.item-model', version)));
        const stored = (await blobs.get('models/race.item-model'))!;
        assert.ok(versions.some((version) => version.equals(stored)));
      }));

    it('refuses unsafe names and stores nothing under them', () =>
      withPlace(async (place) => {
        const blobs = await place.open();
        for (const name of ['', '../escape', 'a//b', '/rooted', 'a/./b', 'a/..']) {
          await assert.rejects(blobs.put(name, Buffer.from('x')), /Invalid blob name/, name);
          await assert.rejects(blobs.get(name), /Invalid blob name/, name);
          await assert.rejects(blobs.remove(name), /Invalid blob name/, name);
        }
      }));
  });
}
