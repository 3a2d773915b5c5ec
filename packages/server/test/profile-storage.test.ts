// Profiles on disk: spread over shard documents (a claim rewrites two small files, not one file of every
// shopper), durable across a restart of the store, and moved over from the single document that earlier
// versions wrote. An anonymous session's profile is held by the log and snapshots, never by the shards.
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
    // Details make a profile more than an anonymous session (profiles.ts): these are written before the answer.
    await Promise.all(created.map(({ profile }, i) => profiles.resolve({ profileId: profile.id, sessionId: `s-${i}`, infos: { n: i } }, 1_500)));
    const joined = await profiles.resolve({ sessionId: 's-7', identities: { 'customer-id': 'c-7' } }, 2_000);
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

  it("keeps an anonymous session's profile out of the shards, takes it back from the log, and writes it once a person is claimed", async () => {
    const dir = await dataDir();
    let store = new LowdbStore({ directory: dir });
    let profiles = await ProfileDirectory.open(store, 'shop');
    const { profile, created } = await profiles.resolve({ sessionId: 's-anon' }, 1_000);
    assert.equal(created, true);
    assert.equal(profiles.find({ sessionId: 's-anon' })?.id, profile.id, 'known at once to the next request');
    assert.equal((await profiles.resolve({ sessionId: 's-anon' }, 1_500)).profile.id, profile.id, 'the same session finds the same profile');
    assert.equal(profiles.anonymousCount, 1);
    await profiles.flush();
    assert.deepEqual((await store.list('tenants/shop/profile')).length, 0, 'no shard was written for it');
    await store.close();

    // A restart: only the log's activity (its profile id and session id) holds it, and the replay adopts it.
    store = new LowdbStore({ directory: dir });
    profiles = await ProfileDirectory.open(store, 'shop');
    assert.equal(profiles.find({ sessionId: 's-anon' }), undefined);
    profiles.adoptSession(profile.id, 's-anon', 1_000);
    assert.equal(profiles.find({ sessionId: 's-anon' })?.id, profile.id);
    assert.equal(profiles.get(profile.id)?.createdAt, 1_000);

    // The snapshot's rows bring it back too, and a second session of the same shopper stays apart.
    const rows = [...profiles.saveAnonymous()];
    const other = await ProfileDirectory.open(new LowdbStore({ directory: await dataDir() }), 'shop');
    for (const chunk of rows) other.restoreAnonymous(chunk);
    assert.equal(other.find({ sessionId: 's-anon' })?.id, profile.id);
    assert.throws(() => other.restoreAnonymous(Buffer.from('[["p_x", "not a time", []]]')), /anonymous profiles/);

    // Claiming a person joins the session to a new nominative profile: both are written before the answer.
    const person = await profiles.resolve({ sessionId: 's-anon', identities: { 'customer-id': 'c-9' } }, 2_000);
    assert.notEqual(person.profile.id, profile.id);
    assert.deepEqual(person.merged, [profile.id]);
    assert.equal(profiles.anonymousCount, 0);
    await store.close();
    store = new LowdbStore({ directory: dir });
    profiles = await ProfileDirectory.open(store, 'shop');
    assert.equal(profiles.find({ sessionId: 's-anon' })?.id, person.profile.id, 'the session leads to the person after a restart, with no log replayed');
    assert.equal(profiles.get(profile.id)?.id, person.profile.id, 'and the anonymous id follows the merge');
    // A snapshot taken before the claim, restored after it (a crash in between): the shards' person wins over the snapshot's row.
    for (const chunk of rows) profiles.restoreAnonymous(chunk);
    profiles.dropPromotedAnonymous();
    assert.equal(profiles.anonymousCount, 0);
    assert.equal(profiles.find({ sessionId: 's-anon' })?.id, person.profile.id, 'the session still leads to the person');
    await store.close();
  });

  it('gives an anonymous profile its own details once something is claimed of it, leaving other anonymous shoppers as they were', async () => {
    const store = new LowdbStore({ directory: await dataDir() });
    const profiles = await ProfileDirectory.open(store, 'shop');
    const a = (await profiles.resolve({ sessionId: 's-a' }, 1_000)).profile;
    const b = (await profiles.resolve({ sessionId: 's-b' }, 1_000)).profile;
    const claimed = await profiles.resolve({ sessionId: 's-a', infos: { tier: 'gold' }, segments: { vip: true }, datasources: [] }, 2_000);
    assert.equal(claimed.profile.id, a.id, 'details alone keep the same profile');
    assert.deepEqual(profiles.find({ sessionId: 's-a' })?.infos, { tier: 'gold' });
    assert.deepEqual(profiles.find({ sessionId: 's-a' })?.segments, { vip: true });
    assert.deepEqual(profiles.find({ sessionId: 's-b' })?.infos, {}, "another anonymous shopper's details stay empty");
    assert.deepEqual(profiles.find({ sessionId: 's-b' })?.segments, {});
    assert.equal(profiles.anonymousCount, 1, 'only the claimed one moved into the shards');
    // A person claimed of the second: a new nominative profile, the anonymous one merged into it.
    const person = await profiles.resolve({ sessionId: 's-b', identities: { 'customer-id': 'c-b' }, infos: { since: 2026 } }, 3_000);
    assert.deepEqual(person.merged, [b.id]);
    assert.deepEqual(profiles.find({ identities: { 'customer-id': 'c-b' } })?.infos, { since: 2026 });
    assert.deepEqual(profiles.find({ sessionId: 's-a' })?.infos, { tier: 'gold' });
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

  it('finds every identified shopper past the key filter growing, and after a restart, while new sessions stay unknown', async () => {
    const dir = await dataDir();
    let store = new LowdbStore({ directory: dir });
    let profiles = await ProfileDirectory.open(store, 'shop');
    // 1,500 customers, each with a session and a customer id: 4,500 shard keys, past the filter's first 1,024.
    const people: Profile[] = [];
    for (let i = 0; i < 1_500; i++) people.push((await profiles.resolve({ sessionId: `visit-${i}`, identities: { 'customer-id': `c-${i}` } }, 1_000 + i)).profile);
    const check = (directory: ProfileDirectory) => {
      for (let i = 0; i < 1_500; i += 7) {
        assert.equal(directory.find({ identities: { 'customer-id': `c-${i}` } })?.id, people[i]!.id, `customer c-${i}`);
        assert.equal(directory.find({ sessionId: `visit-${i}` })?.id, people[i]!.id, `session visit-${i}`);
        assert.equal(directory.get(people[i]!.id)?.id, people[i]!.id);
      }
      assert.equal(directory.find({ sessionId: 'never-seen' }), undefined);
      assert.equal(directory.get('p_never-made'), undefined);
    };
    check(profiles);
    await store.close();
    store = new LowdbStore({ directory: dir });
    profiles = await ProfileDirectory.open(store, 'shop');
    check(profiles);
    await store.close();
  });
});
