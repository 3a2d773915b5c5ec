// Profiles on disk: spread over shard documents (a new shopper rewrites two small files, not one file
// of every shopper), durable across a restart of the store, and moved over from the single document
// that earlier versions wrote.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LowdbStore } from '../src/platform/store/lowdb-store.js';
import { PROFILE_SHARDS, ProfileDirectory, type Profile } from '../src/domains/tracking/profiles.js';

const dirs: string[] = [];
after(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'discovery-profiles-'));
  dirs.push(dir);
  return dir;
}

describe('profile storage', () => {
  it('spreads profiles over shard documents and finds every one after a restart', async () => {
    const dir = await dataDir();
    let store = new LowdbStore({ directory: dir });
    let profiles = await ProfileDirectory.open(store, 'shop');
    const created = await Promise.all(Array.from({ length: 300 }, (_, i) => profiles.resolve({ sessionId: `s-${i}` }, 1_000 + i)));
    assert.equal(new Set(created.map((r) => r.profile.id)).size, 300);
    const joined = await profiles.resolve({ sessionId: 's-7', identities: { 'customer-id': 'c-7' } }, 2_000);
    // Anonymous sessions are written lazily (profiles.ts): the tracking service flushes them at shutdown.
    await profiles.flush();
    await store.close();

    store = new LowdbStore({ directory: dir });
    const written = (await store.list('tenants/shop/profiles/')).filter((name) => name.startsWith('tenants/shop/profiles/'));
    assert.ok(written.length > PROFILE_SHARDS / 2 && written.length <= PROFILE_SHARDS, `${written.length} profile shard files`);
    profiles = await ProfileDirectory.open(store, 'shop');
    // Session s-7 joined the person its customer id made (a profile of its own: see profiles.ts `link`).
    assert.notEqual(joined.profile.id, created[7]!.profile.id);
    for (const [i, { profile }] of created.entries()) assert.equal(profiles.find({ sessionId: `s-${i}` })?.id, i === 7 ? joined.profile.id : profile.id, `session s-${i}`);
    assert.equal(profiles.find({ identities: { 'customer-id': 'c-7' } })?.id, joined.profile.id);
    await store.close();
  });

  it("writes an anonymous session's profile after the answer, and takes it back from the log when that write never happened", async () => {
    const dir = await dataDir();
    let store = new LowdbStore({ directory: dir });
    let profiles = await ProfileDirectory.open(store, 'shop');
    const { profile } = await profiles.resolve({ sessionId: 's-lazy' }, 1_000);
    assert.equal(profiles.find({ sessionId: 's-lazy' })?.id, profile.id, 'known at once to the next request');
    // A crash before the background write: the shards never held it.
    await store.close();
    store = new LowdbStore({ directory: dir });
    profiles = await ProfileDirectory.open(store, 'shop');
    assert.equal(profiles.find({ sessionId: 's-lazy' }), undefined);
    // The replay of the activity logged with it (its profile id and session id) adopts it, as it was.
    profiles.adoptSession(profile.id, 's-lazy', 1_000, true);
    assert.equal(profiles.find({ sessionId: 's-lazy' })?.id, profile.id);
    await profiles.flush();
    await store.close();
    store = new LowdbStore({ directory: dir });
    profiles = await ProfileDirectory.open(store, 'shop');
    assert.equal(profiles.find({ sessionId: 's-lazy' })?.id, profile.id, 'and written this time');
    await store.close();
  });

  it('moves the single profiles document of earlier versions into the shards, once', async () => {
    const dir = await dataDir();
    let store = new LowdbStore({ directory: dir });
    const anonymous: Profile = { id: 'p_old1', createdAt: 1, datasources: [], identities: {}, sessions: ['s-old'], infos: {}, segments: {}, mergedInto: 'p_old2' };
    const known: Profile = { id: 'p_old2', createdAt: 2, datasources: [{ id: 'crm', original_id: 'u-1' }], identities: { 'customer-id': 'c-1' }, sessions: ['s-old'], infos: { tier: 'gold' }, segments: {} };
    const legacy = await store.document<{ profiles: Record<string, Profile>; index: Record<string, string> }>('tenants/shop/profiles', () => ({ profiles: {}, index: {} }));
    await legacy.update((data) => {
      data.profiles = { p_old1: anonymous, p_old2: known };
      data.index = { 'session:s-old': 'p_old2', 'ds:crm:u-1': 'p_old2', 'id:customer-id:c-1': 'p_old2' };
    });
    await store.close();

    store = new LowdbStore({ directory: dir });
    let profiles = await ProfileDirectory.open(store, 'shop');
    assert.equal(profiles.get('p_old1')?.id, 'p_old2', 'a merged profile id still leads to its shopper');
    assert.equal(profiles.find({ datasources: [{ id: 'crm', original_id: 'u-1' }] })?.infos.tier, 'gold');
    assert.equal(profiles.find({ sessionId: 's-old' })?.id, 'p_old2');
    const emptied = await store.document<{ profiles: Record<string, Profile> }>('tenants/shop/profiles', () => ({ profiles: {} }));
    assert.deepEqual(emptied.data.profiles, {});
    await store.close();

    store = new LowdbStore({ directory: dir });
    profiles = await ProfileDirectory.open(store, 'shop');
    assert.equal(profiles.find({ identities: { 'customer-id': 'c-1' } })?.id, 'p_old2', 'still there once the old document is empty');
    await store.close();
  });
});
