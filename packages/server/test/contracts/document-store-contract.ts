/**
 * What every DocumentStore adapter must do (the promises in src/platform/store/document-store.ts), as
 * a suite an adapter's test file calls with a way to open it: `documentStoreContract('LowdbStore', ...)`.
 * Behaviour only, through the port; an adapter's own test file adds what is particular to its storage.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { DocumentStore } from '../../src/platform/store/document-store.js';

/** One empty place to store into (a directory, a database schema) for one test. */
export interface DocumentStorePlace {
  /** Opens the adapter on the place; an open after the previous one closed sees everything it stored. */
  open(): DocumentStore | Promise<DocumentStore>;
  /** Deletes the place; called once, after the last store opened on it is closed. */
  dispose(): Promise<void>;
}

type Names = { names: string[] };
type Values = { values: number[] };
const names = (): Names => ({ names: [] });
const values = (): Values => ({ values: [] });

export function documentStoreContract(adapter: string, makePlace: () => Promise<DocumentStorePlace>): void {
  /** Runs `test` on a fresh place, disposing of it whatever happens. */
  const withPlace = async (test: (place: DocumentStorePlace) => Promise<void>) => {
    const place = await makePlace();
    try {
      await test(place);
    } finally {
      await place.dispose();
    }
  };

  describe(`DocumentStore contract: ${adapter}`, () => {
    it('returns the same document for the same name, and starts a new one from its defaults', () =>
      withPlace(async (place) => {
        const store = await place.open();
        const first = await store.document('tenants/a/profiles', () => ({ names: ['default'] }));
        const again = await store.document('tenants/a/profiles', names);
        assert.equal(again, first);
        assert.deepEqual(first.data, { names: ['default'] });
        await store.close();
      }));

    it('keeps every document apart and gives each back after a reopen, listed by prefix', () =>
      withPlace(async (place) => {
        const store = await place.open();
        const a = await store.document('tenants/a/profiles', names);
        const b = await store.document('tenants/b/profiles', names);
        await a.update((data) => data.names.push('alice'));
        await b.update((data) => data.names.push('bob'));
        await store.close();
        const reopened = await place.open();
        const again = await reopened.document('tenants/b/profiles', names);
        assert.deepEqual(again.data.names, ['bob']);
        assert.deepEqual((await reopened.document('tenants/a/profiles', names)).data.names, ['alice']);
        assert.deepEqual(await reopened.list('tenants/'), ['tenants/a/profiles', 'tenants/b/profiles']);
        await reopened.close();
      }));

    it('applies concurrent updates one at a time in call order, none lost, and resolves each with its result', () =>
      withPlace(async (place) => {
        const store = await place.open();
        const doc = await store.document('counter', values);
        const results = await Promise.all(Array.from({ length: 200 }, (_, i) => doc.update((data) => data.values.push(i))));
        assert.deepEqual(results, Array.from({ length: 200 }, (_, i) => i + 1));
        assert.deepEqual(doc.data.values, Array.from({ length: 200 }, (_, i) => i));
        await store.close();
        const reopened = await place.open();
        assert.deepEqual((await reopened.document('counter', values)).data.values, Array.from({ length: 200 }, (_, i) => i));
        await reopened.close();
      }));

    it('rolls back an update whose mutator throws, so a refused request changes nothing', () =>
      withPlace(async (place) => {
        const store = await place.open();
        const doc = await store.document('items', () => ({ items: [] as string[] }));
        await doc.update((data) => data.items.push('kept'));
        await assert.rejects(
          doc.update((data) => {
            data.items.push('half-done');
            throw new Error('invalid item');
          }),
          /invalid item/,
        );
        assert.deepEqual(doc.data.items, ['kept']);
        await doc.update((data) => data.items.push('next'));
        await store.close();
        const reopened = await place.open();
        assert.deepEqual((await reopened.document('items', () => ({ items: [] as string[] }))).data.items, ['kept', 'next']);
        await reopened.close();
      }));

    it('changes several documents in one updateMany after their earlier updates, or none of them when a mutator throws', () =>
      withPlace(async (place) => {
        const store = await place.open();
        const a = await store.document('batch/a', values);
        const b = await store.document('batch/b', values);
        const earlier = a.update((data) => data.values.push(1));
        await store.updateMany([
          { document: a, mutate: (data) => (data as Values).values.push(2) },
          { document: b, mutate: (data) => (data as Values).values.push(2) },
        ]);
        await earlier;
        assert.deepEqual([a.data.values, b.data.values], [[1, 2], [2]]);
        await assert.rejects(
          store.updateMany([
            { document: a, mutate: (data) => (data as Values).values.push(3) },
            {
              document: b,
              mutate: () => {
                throw new Error('refused batch');
              },
            },
          ]),
          /refused batch/,
        );
        assert.deepEqual([a.data.values, b.data.values], [[1, 2], [2]]);
        await store.close();
        const reopened = await place.open();
        assert.deepEqual([(await reopened.document('batch/a', values)).data.values, (await reopened.document('batch/b', values)).data.values], [[1, 2], [2]]);
        await reopened.close();
      }));

    it('settles a document only once every update started before is durable', () =>
      withPlace(async (place) => {
        const store = await place.open();
        const doc = await store.document('settling', values);
        const done: number[] = [];
        for (let i = 0; i < 5; i++) void doc.update((data) => data.values.push(i)).then(() => done.push(i));
        await doc.settled();
        assert.deepEqual(done, [0, 1, 2, 3, 4]);
        await store.close();
      }));

    it('flushes every update of every document, and close writes what was acknowledged before it', () =>
      withPlace(async (place) => {
        const store = await place.open();
        const a = await store.document('flush/a', values);
        const b = await store.document('flush/b', values);
        let acknowledged = 0;
        for (let i = 0; i < 10; i++) {
          void a.update((data) => data.values.push(i)).then(() => acknowledged++);
          void b.update((data) => data.values.push(i)).then(() => acknowledged++);
        }
        await store.flush();
        assert.equal(acknowledged, 20);
        const last = a.update((data) => data.values.push(10));
        await store.close();
        await last;
        const reopened = await place.open();
        assert.deepEqual((await reopened.document('flush/a', values)).data.values, Array.from({ length: 11 }, (_, i) => i));
        assert.deepEqual((await reopened.document('flush/b', values)).data.values, Array.from({ length: 10 }, (_, i) => i));
        await reopened.close();
      }));

    it('refuses documents once closed, and closes twice without harm', () =>
      withPlace(async (place) => {
        const store = await place.open();
        await store.close();
        await store.close();
        await assert.rejects(store.document('late', values), /closed/);
      }));

    it('lists the names under a prefix, sorted, nested ones included', () =>
      withPlace(async (place) => {
        const store = await place.open();
        for (const name of ['tenants/b/catalogs/2', 'tenants/a/catalogs/1', 'tenants/a/catalogs/deep/3', 'tenants/a/profiles', 'other']) {
          const doc = await store.document(name, values);
          await doc.update((data) => data.values.push(1));
        }
        assert.deepEqual(await store.list('tenants/a/catalogs/'), ['tenants/a/catalogs/1', 'tenants/a/catalogs/deep/3']);
        assert.deepEqual(await store.list('tenants/'), ['tenants/a/catalogs/1', 'tenants/a/catalogs/deep/3', 'tenants/a/profiles', 'tenants/b/catalogs/2']);
        assert.deepEqual(await store.list('nothing/'), []);
        await store.close();
      }));

    it('removes a document: gone from the list, back to its defaults, also after a reopen', () =>
      withPlace(async (place) => {
        const store = await place.open();
        const doc = await store.document('gone/soon', values);
        await doc.update((data) => data.values.push(1));
        await store.document('gone/kept', values).then((kept) => kept.update((data) => data.values.push(2)));
        await store.remove('gone/soon');
        await store.remove('gone/never-was');
        assert.deepEqual(await store.list('gone/'), ['gone/kept']);
        assert.deepEqual((await store.document('gone/soon', values)).data.values, []);
        await store.close();
        const reopened = await place.open();
        assert.deepEqual((await reopened.document('gone/soon', values)).data.values, []);
        assert.deepEqual(await reopened.list('gone/'), ['gone/kept']);
        await reopened.close();
      }));

    it('refuses unsafe document names and stores nothing for them', () =>
      withPlace(async (place) => {
        const store = await place.open();
        await assert.rejects(store.document('../escape', () => ({})), /Invalid document name/);
        await assert.rejects(store.document('a//b', () => ({})), /Invalid document name/);
        for (const name of ['', '/rooted', 'a/./b', 'a/..', 'trailing/', 'sp ace', '.hidden']) {
          await assert.rejects(store.document(name, () => ({})), /Invalid document name/, name);
        }
        await assert.rejects(store.remove('../escape'), /Invalid document name/);
        assert.deepEqual(await store.list(''), []);
        await store.close();
      }));
  });
}
