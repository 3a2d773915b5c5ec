// long-file: one directory whose identity links, merges, erasures and (lazy) shard writes share the shards and the merge maps, and must stay in one class.
/**
 * One profile per shopper per tenant behind every identity: the older tracker's profile id and
 * datasources, the collection API's identity repositories and anonymous session id. When identities
 * that were separate profiles turn out to be one shopper, the anonymous profile is merged into the
 * nominative one and keeps pointing at it, so that old profile ids still find the whole history.
 *
 * Storage: profiles and the claim index are spread over PROFILE_SHARDS documents each, by a hash of
 * the profile id or claim key, so that a new shopper's identify rewrites two small files instead of
 * one file holding every shopper (which grew the cost of each new profile with the number of profiles).
 *
 * An anonymous shopper's profile (claims naming only a session id: most of a shop's traffic) is never
 * written to the shards: it is nothing but its session id, its profile id and when it began, and every
 * activity logged for it carries the first two. So the log holds it, as rows (one per activity), and
 * the activity snapshot holds those whose records a snapshot's cursor skips (`saveAnonymous`). A start's
 * replay, and the fold of another process's records on a shared log, adopt it (`adoptSession`). A new
 * shopper therefore costs no document write here and no shard reload in other processes. It moves into
 * the shards, written before the answer, the moment anything more is claimed of it (a person, details,
 * a profile id with another session, a merge): `promote`.
 */
import { hash } from 'node:crypto';
import { randomBase64Url } from '../../platform/random-id.js';
import { DomainError } from '../../platform/domain-error.js';
import { KeyFilter } from '../../platform/collections/key-filter.js';
import type { DocumentStore, StoredDocument } from '../../platform/store/document-store.js';

export interface DatasourceRef {
  id: string;
  original_id: string;
}

export interface Profile {
  id: string;
  createdAt: number;
  datasources: DatasourceRef[];
  identities: Record<string, string>;
  sessions: string[];
  infos: Record<string, unknown>;
  segments: Record<string, unknown>;
  /** Set when this profile was merged into another one. */
  mergedInto?: string;
}

/** Keys that find a profile: `profile:<id>`, `ds:<datasource>:<id>`, `id:<repository>:<id>`, `session:<id>`. */
export interface IdentityClaims {
  profileId?: string;
  datasources?: DatasourceRef[];
  identities?: Record<string, string>;
  sessionId?: string;
  infos?: Record<string, unknown>;
  segments?: Record<string, unknown>;
}

interface ProfilesData {
  profiles: Record<string, Profile>;
  index: Record<string, string>;
}

interface ProfileShard {
  profiles: Record<string, Profile>;
}

interface IndexShard {
  index: Record<string, string>;
}

/**
 * Bytes of JSON a profile's `infos` (and, apart, its `segments`) may hold once merged: identify is
 * public, and every byte stays in memory and in the profile's shard file.
 */
export const PROFILE_DETAILS_BYTES = 16 * 1024;
/** Datasource ids one profile keeps; each is also an index entry. */
export const PROFILE_DATASOURCES = 20;

/** Documents per kind and tenant; a shard holds about 1/128 of the tenant's shoppers. */
export const PROFILE_SHARDS = 128;

/** The shard of a key: the first 32 bits of its SHA-1 (stored data is placed by it; the one-shot `hash` is the same digest without a Hash object per call). */
function shardOf(key: string): number {
  return hash('sha1', key, 'buffer').readUInt32BE(0) % PROFILE_SHARDS;
}

export interface ResolvedProfile {
  profile: Profile;
  created: boolean;
  /** Profiles merged into `profile` by this call, whose histories must follow. */
  merged: string[];
}

/**
 * An anonymous session's profile: nothing is claimed of it, so its datasources, identities, infos and
 * segments are shared frozen empties (about 200 of its 520 bytes, held for every anonymous shopper),
 * replaced by its own when it is promoted into the shards (`promote`, before anything is written to them).
 */
function anonymousProfile(id: string, createdAt: number, sessions: string[]): Profile {
  return { id, createdAt, datasources: NO_DATASOURCES, identities: NOTHING, sessions, infos: NOTHING, segments: NOTHING };
}
const NO_DATASOURCES = Object.freeze([]) as unknown as DatasourceRef[];
const NOTHING = Object.freeze({}) as Record<string, never>;

export function newProfileId(): string {
  return `p_${randomBase64Url(12)}`;
}

function isNominative(profile: Profile): boolean {
  return profile.datasources.length > 0 || Object.keys(profile.identities).length > 0;
}

function claimKeys(claims: IdentityClaims): string[] {
  const keys: string[] = [];
  for (const ds of claims.datasources ?? []) keys.push(`ds:${ds.id}:${ds.original_id}`);
  for (const [repository, id] of Object.entries(claims.identities ?? {})) keys.push(`id:${repository}:${id}`);
  if (claims.sessionId !== undefined) keys.push(`session:${claims.sessionId}`);
  return keys;
}

/** Anonymous profiles per snapshot chunk. */
const ANONYMOUS_CHUNK_ROWS = 5_000;

/** Claims that name an anonymous session and nothing else. */
function isSessionOnly(claims: IdentityClaims): boolean {
  return claims.sessionId !== undefined && claims.profileId === undefined && claims.infos === undefined && claims.segments === undefined && (claims.datasources?.length ?? 0) === 0 && Object.keys(claims.identities ?? {}).length === 0;
}

export class ProfileDirectory {
  /** Shards with a write queued that has not started yet: a change made now is written by it. */
  private readonly queued = new Map<StoredDocument<object>, Promise<unknown>>();
  /** Anonymous profiles (see the header), by profile id: never in the shards while they are here. */
  private readonly anonymous = new Map<string, Profile>();
  /** Their session ids → profile id. */
  private readonly anonymousSessions = new Map<string, string>();

  /** Merged profile id → the profile it joined: a few per nominative shopper. */
  private readonly mergedInto = new Map<string, string>();
  /** The same links the other way: profile id → the ids merged straight into it. */
  private readonly mergedFrom = new Map<string, Set<string>>();
  private readonly mergeListeners: Array<(from: string, into: string) => void> = [];
  /**
   * Every profile id and index key the shards hold (and some they no longer do): a key it has never
   * seen is not looked for in the shards, which costs a SHA-1 of the key to find its shard. Most
   * lookups are of a new shopper's session or profile id, here and in every process that folds its
   * activities (docs/scale-out.md). Rebuilt for twice the keys the shards hold when it passes its capacity.
   */
  private keys: KeyFilter;

  private constructor(
    private readonly profileShards: StoredDocument<ProfileShard>[],
    private readonly indexShards: StoredDocument<IndexShard>[],
  ) {
    for (const shard of profileShards) {
      for (const profile of Object.values(shard.data.profiles)) if (profile.mergedInto !== undefined) this.recordMerge(profile.id, profile.mergedInto);
      // A shared store (PostgreSQL): merges another process made arrive with the shard's new data.
      shard.onChange?.(() => {
        this.noteKeys(Object.keys(shard.data.profiles));
        this.adoptMerges(shard);
      });
    }
    for (const shard of indexShards) shard.onChange?.(() => this.noteKeys(Object.keys(shard.data.index)));
    this.keys = this.filledKeys();
  }

  /**
   * A key filter sized for twice the keys the shards hold (at least 1,024) and filled from them. Sized
   * by what the shards hold, not by what was added: a shard another process rewrites is added whole
   * again at each reload, and must not grow the filter.
   */
  private filledKeys(): KeyFilter {
    const lists = [...this.profileShards.map((shard) => Object.keys(shard.data.profiles)), ...this.indexShards.map((shard) => Object.keys(shard.data.index))];
    const filter = new KeyFilter(Math.max(1024, 2 * lists.reduce((sum, keys) => sum + keys.length, 0)));
    for (const keys of lists) for (const key of keys) filter.add(key);
    return filter;
  }

  /** Keys now in the shards (written here, or loaded from another process's write). */
  private noteKeys(keys: Iterable<string>): void {
    for (const key of keys) this.keys.add(key);
    if (this.keys.overfull) this.keys = this.filledKeys();
  }

  /** Calls `listener` for each merge another process made, once the shard holding it has reloaded. */
  onMergedElsewhere(listener: (from: string, into: string) => void): void {
    this.mergeListeners.push(listener);
  }

  private adoptMerges(shard: StoredDocument<ProfileShard>): void {
    for (const profile of Object.values(shard.data.profiles)) {
      // Another process promoted (or merged) an anonymous profile this one holds: the shard's copy wins.
      if (this.anonymous.has(profile.id)) this.forgetAnonymous(this.anonymous.get(profile.id)!);
      const into = profile.mergedInto;
      if (into === undefined || this.mergedInto.get(profile.id) === into) continue;
      this.recordMerge(profile.id, into);
      for (const listener of this.mergeListeners) listener(profile.id, into);
    }
  }

  static async open(store: DocumentStore, tenant: string): Promise<ProfileDirectory> {
    const shard = (i: number) => String(i).padStart(3, '0');
    const profileShards = await Promise.all(Array.from({ length: PROFILE_SHARDS }, (_, i) => store.document<ProfileShard>(`tenants/${tenant}/profiles/${shard(i)}`, () => ({ profiles: {} }))));
    const indexShards = await Promise.all(Array.from({ length: PROFILE_SHARDS }, (_, i) => store.document<IndexShard>(`tenants/${tenant}/profile-index/${shard(i)}`, () => ({ index: {} }))));
    const directory = new ProfileDirectory(profileShards, indexShards);
    await directory.migrateSingleDocument(store, tenant);
    return directory;
  }

  /**
   * Earlier versions kept every profile in one document (`tenants/<tenant>/profiles`): its entries move
   * into the shards, which are written before the old document is emptied, so a crash in between only
   * repeats the move at the next start.
   */
  private async migrateSingleDocument(store: DocumentStore, tenant: string): Promise<void> {
    const name = `tenants/${tenant}/profiles`;
    if (!(await store.list(`tenants/${tenant}/`)).includes(name)) return;
    const old = await store.document<ProfilesData>(name, () => ({ profiles: {}, index: {} }));
    const entries = Object.keys(old.data.profiles ?? {}).length + Object.keys(old.data.index ?? {}).length;
    if (entries === 0) return;
    for (const profile of Object.values(old.data.profiles)) {
      this.profileShard(profile.id).data.profiles[profile.id] = profile;
      this.noteKeys([profile.id]);
      if (profile.mergedInto !== undefined) this.recordMerge(profile.id, profile.mergedInto);
    }
    for (const [key, id] of Object.entries(old.data.index)) this.indexShard(key).data.index[key] = id;
    this.noteKeys(Object.keys(old.data.index));
    await Promise.all([...this.profileShards, ...this.indexShards].map((doc) => doc.update(() => undefined)));
    await old.update((data) => {
      data.profiles = {};
      data.index = {};
    });
  }

  private profileShard(id: string): StoredDocument<ProfileShard> {
    return this.profileShards[shardOf(id)]!;
  }

  private indexShard(key: string): StoredDocument<IndexShard> {
    return this.indexShards[shardOf(key)]!;
  }

  // Own keys only: ids come from the public, and "constructor" must not find Object's.
  private stored(id: string): Profile | undefined {
    const anonymous = this.anonymous.get(id);
    if (anonymous !== undefined) return anonymous;
    if (!this.keys.mightHave(id)) return undefined;
    const profiles = this.profileShard(id).data.profiles;
    return Object.hasOwn(profiles, id) ? profiles[id] : undefined;
  }

  private indexed(key: string): string | undefined {
    if (key.startsWith('session:')) {
      const anonymous = this.anonymousSessions.get(key.slice('session:'.length));
      if (anonymous !== undefined) return anonymous;
    }
    if (!this.keys.mightHave(key)) return undefined;
    const index = this.indexShard(key).data.index;
    return Object.hasOwn(index, key) ? index[key] : undefined;
  }

  private keepAnonymous(profile: Profile): void {
    this.anonymous.set(profile.id, profile);
    for (const session of profile.sessions) this.anonymousSessions.set(session, profile.id);
  }

  private forgetAnonymous(profile: Profile): void {
    this.anonymous.delete(profile.id);
    for (const session of profile.sessions) if (this.anonymousSessions.get(session) === profile.id) this.anonymousSessions.delete(session);
  }

  /**
   * An anonymous profile something more is now claimed of moves into the shards, with its session ids
   * in the index; `touched` collects the shards to write before the answer.
   */
  private promote(profile: Profile, touched: Set<StoredDocument<object>>): void {
    if (this.anonymous.get(profile.id) !== profile) return;
    this.forgetAnonymous(profile);
    // Its own containers from now on: what is claimed of it is written into them (anonymousProfile shares frozen empty ones).
    profile.datasources = [];
    profile.identities = {};
    profile.infos = {};
    profile.segments = {};
    const shard = this.profileShard(profile.id);
    shard.data.profiles[profile.id] = profile;
    this.noteKeys([profile.id]);
    touched.add(shard);
    for (const session of profile.sessions) {
      const key = `session:${session}`;
      const indexShard = this.indexShard(key);
      if (indexShard.data.index[key] === profile.id) continue;
      indexShard.data.index[key] = profile.id;
      this.noteKeys([key]);
      touched.add(indexShard);
    }
  }

  /** Writes `doc` soon; one write covers every change made before it starts. */
  private persist(doc: StoredDocument<object>): Promise<unknown> {
    let pending = this.queued.get(doc);
    if (pending === undefined) {
      // The mutator runs as the write starts: changes after that need the next write.
      pending = doc.update(() => {
        this.queued.delete(doc);
      });
      this.queued.set(doc, pending);
    }
    return pending;
  }

  /** Profiles held, merged ones included (a pass over the shards: for reports, not per request). */
  count(): number {
    let count = 0;
    for (const shard of this.profileShards) count += Object.keys(shard.data.profiles).length;
    return count + this.anonymous.size;
  }

  /** The profile an id now stands for, following merges. */
  get(profileId: string): Profile | undefined {
    let profile = this.stored(profileId);
    for (let hops = 0; profile?.mergedInto !== undefined && hops < 32; hops++) profile = this.stored(profile.mergedInto);
    return profile;
  }

  /** Follows merges through a map of merged ids: called for every activity folded, it must not hash ids. */
  canonicalId(profileId: string): string {
    let id = profileId;
    for (let hops = 0; hops < 32; hops++) {
      const next = this.mergedInto.get(id);
      if (next === undefined) return id;
      id = next;
    }
    return id;
  }

  /** Finds a profile by a datasource or identity-repository id, without creating one. */
  find(claims: IdentityClaims): Profile | undefined {
    if (claims.profileId !== undefined) return this.get(claims.profileId);
    for (const key of claimKeys(claims)) {
      const id = this.indexed(key);
      if (id !== undefined) return this.get(id);
    }
    return undefined;
  }

  /** Names a new anonymous session's profile (ResponseIds `anonymousProfileId`); without it, ids are random. */
  private anonymousIds: ((sessionId: string) => Promise<string>) | undefined;

  /**
   * Anonymous profile ids from now on are derived from the session id under the tenant's key, so that
   * every process sharing the store gives a new session the same profile (docs/scale-out.md).
   */
  nameAnonymousBy(name: (sessionId: string) => Promise<string>): void {
    this.anonymousIds = name;
  }

  /** Finds or creates the one profile behind these claims, linking new identities and merging profiles they join. */
  async resolve(claims: IdentityClaims, now: number): Promise<ResolvedProfile> {
    const quick = this.unchanged(claims);
    if (quick !== undefined) return { profile: quick, created: false, merged: [] };
    // A new anonymous session (an indexed one was `unchanged` above): the activity's log record will hold it (see the header).
    if (isSessionOnly(claims)) {
      const id = this.anonymousIds === undefined ? newProfileId() : await this.anonymousIds(claims.sessionId!);
      // Another request of the same session may have made it while the id was computed.
      const meanwhile = this.unchanged(claims);
      if (meanwhile !== undefined) return { profile: meanwhile, created: false, merged: [] };
      const profile = anonymousProfile(id, now, [claims.sessionId!]);
      this.keepAnonymous(profile);
      return { profile, created: true, merged: [] };
    }
    this.checkDetails(claims);
    // The change is made in memory at once (so the next request sees it), then the shards it touched are written.
    const touched = new Set<StoredDocument<object>>();
    const resolved = this.link(claims, now, touched);
    await Promise.all([...touched].map((doc) => this.persist(doc)));
    return resolved;
  }

  /**
   * A logged activity names `profileId` under `sessionId`: when nothing here knows either (a replay
   * after a restart, or another process made the profile), the anonymous profile is taken back as it was.
   */
  adoptSession(profileId: string, sessionId: string, createdAt: number): void {
    // A visitor already adopted, the common case, without building the index key (`indexed` looks here first).
    if (this.anonymousSessions.has(sessionId)) return;
    if (this.indexed(`session:${sessionId}`) !== undefined || this.stored(profileId) !== undefined) return;
    this.keepAnonymous(anonymousProfile(profileId, createdAt, [sessionId]));
  }

  /**
   * Points a logged activity of an anonymous profile at the profile's own id and session strings: a
   * record parsed from the log (or from a request) carries copies of them, two more objects for the
   * collector to visit in every activity the history keeps (docs/scale-out.md). The values are the same.
   */
  shareStrings(record: { profileId: string; sessionId?: string | undefined }): void {
    const profile = this.anonymous.get(record.profileId);
    if (profile === undefined) return;
    record.profileId = profile.id;
    const session = profile.sessions[0];
    if (record.sessionId === session) record.sessionId = session;
  }

  /** Anonymous profiles held (see the header). */
  get anonymousCount(): number {
    return this.anonymous.size;
  }

  /**
   * The anonymous profiles, for the activity snapshot (whose cursor skips the records that would adopt
   * them again): chunks of JSON `[id, createdAt, sessions]` rows.
   */
  *saveAnonymous(): Iterable<Buffer> {
    let rows: Array<[string, number, string[]]> = [];
    for (const profile of this.anonymous.values()) {
      rows.push([profile.id, profile.createdAt, profile.sessions]);
      if (rows.length === ANONYMOUS_CHUNK_ROWS) {
        yield Buffer.from(JSON.stringify(rows));
        rows = [];
      }
    }
    if (rows.length > 0) yield Buffer.from(JSON.stringify(rows));
  }

  /**
   * One chunk `saveAnonymous` wrote. A profile (or session) already held anonymously is kept as it is;
   * those the shards hold since (promoted after the snapshot was taken) are let go once every chunk is
   * in, by `dropPromotedAnonymous`: one pass over the shards instead of two shard lookups (each a SHA-1)
   * per restored profile, which were a sixth of a restart's CPU.
   */
  restoreAnonymous(chunk: Buffer): void {
    const rows: unknown = JSON.parse(chunk.toString('utf8'));
    if (!Array.isArray(rows)) throw new Error('anonymous profiles: a chunk that is not a list');
    for (const row of rows) {
      if (!Array.isArray(row) || typeof row[0] !== 'string' || typeof row[1] !== 'number' || !Array.isArray(row[2]) || !row[2].every((s) => typeof s === 'string')) throw new Error('anonymous profiles: a row that is not [id, createdAt, sessions]');
      const [id, createdAt, sessions] = row as [string, number, string[]];
      if (this.anonymous.has(id) || sessions.some((session) => this.anonymousSessions.has(session))) continue;
      this.keepAnonymous(anonymousProfile(id, createdAt, [...sessions]));
    }
  }

  /** After a snapshot's anonymous profiles are restored: lets go of those the shards hold, by id or by a session. */
  dropPromotedAnonymous(): void {
    if (this.anonymous.size === 0) return;
    for (const shard of this.profileShards) {
      for (const id of Object.keys(shard.data.profiles)) {
        const anonymous = this.anonymous.get(id);
        if (anonymous !== undefined) this.forgetAnonymous(anonymous);
      }
    }
    for (const shard of this.indexShards) {
      for (const key of Object.keys(shard.data.index)) {
        if (!key.startsWith('session:')) continue;
        const owner = this.anonymousSessions.get(key.slice('session:'.length));
        const anonymous = owner === undefined ? undefined : this.anonymous.get(owner);
        if (anonymous !== undefined) this.forgetAnonymous(anonymous);
      }
    }
  }

  /** Forgets every anonymous profile (a snapshot set aside: the replay of the whole log adopts them again). */
  clearAnonymous(): void {
    this.anonymous.clear();
    this.anonymousSessions.clear();
  }

  /** Waits for the shard writes queued (before a snapshot, at shutdown). */
  async flush(): Promise<void> {
    await Promise.all(this.queued.values());
  }

  /** The profile when the claims add nothing new: the common case, answered without a write. */
  private unchanged(claims: IdentityClaims): Profile | undefined {
    if (claims.infos !== undefined || claims.segments !== undefined) return undefined;
    const found = new Set<string>();
    if (claims.profileId !== undefined) {
      const profile = this.get(claims.profileId);
      if (profile === undefined) return undefined;
      found.add(profile.id);
    }
    for (const key of claimKeys(claims)) {
      const id = this.indexed(key);
      if (id === undefined) return undefined;
      found.add(this.canonicalId(id));
    }
    if (found.size !== 1) return undefined;
    return this.get([...found][0]!);
  }

  /** Refuses, before anything changes, details that would pass the size bound on the profile they reach. */
  private checkDetails(claims: IdentityClaims): void {
    const existing = this.find(claims);
    for (const field of ['infos', 'segments'] as const) {
      const added = claims[field];
      if (added === undefined) continue;
      const bytes = Buffer.byteLength(JSON.stringify({ ...existing?.[field], ...added }));
      if (bytes > PROFILE_DETAILS_BYTES) throw new DomainError('invalid', `The profile's ${field} would hold ${bytes} bytes of JSON; the limit is ${PROFILE_DETAILS_BYTES}.`, field);
    }
    const datasources = new Set([...(existing?.datasources ?? []), ...(claims.datasources ?? [])].map((d) => `${d.id}\u0000${d.original_id}`));
    if (datasources.size > PROFILE_DATASOURCES) throw new DomainError('invalid', `A profile keeps at most ${PROFILE_DATASOURCES} datasource ids.`, 'datasources');
  }

  private link(claims: IdentityClaims, now: number, touched: Set<StoredDocument<object>>): ResolvedProfile {
    const changed = (profile: Profile) => {
      this.promote(profile, touched);
      touched.add(this.profileShard(profile.id));
    };
    const index = (key: string, id: string) => {
      const shard = this.indexShard(key);
      if (shard.data.index[key] === id) return;
      shard.data.index[key] = id;
      this.noteKeys([key]);
      touched.add(shard);
    };
    const candidates: Profile[] = [];
    const add = (id: string | undefined) => {
      const profile = id === undefined ? undefined : this.get(id);
      if (profile !== undefined && !candidates.includes(profile)) candidates.push(profile);
    };
    if (claims.profileId !== undefined) add(claims.profileId);
    for (const key of claimKeys(claims)) add(this.indexed(key));

    // A nominative profile wins; two different nominative shoppers are never merged into one. The first
    // claim of a person (a datasource or identity-repository id) makes a new profile for that person
    // rather than turning the caller's anonymous profile into it: ids handed to the public (identify's
    // answer, a cookie) then always stand for one browser's share of the person, never for the person,
    // so whoever claims a guessable CRM id first cannot read what that shopper does elsewhere
    // (docs/privacy.md, "Who sees a profile's history").
    const claimsPerson = (claims.datasources?.length ?? 0) > 0 || Object.keys(claims.identities ?? {}).length > 0;
    const target = candidates.find(isNominative) ?? (claimsPerson ? undefined : candidates[0]);
    let created = false;
    let profile: Profile;
    if (target === undefined) {
      profile = { id: newProfileId(), createdAt: now, datasources: [], identities: {}, sessions: [], infos: {}, segments: {} };
      this.profileShard(profile.id).data.profiles[profile.id] = profile;
      this.noteKeys([profile.id]);
      created = true;
    } else {
      profile = target;
    }
    changed(profile);
    const merged: string[] = [];
    for (const other of candidates) {
      if (other === profile || isNominative(other)) continue;
      // Into the shards first, so that the merge's index entries (to `profile`) are the ones that stay.
      changed(other);
      this.absorb(profile, other, index);
      merged.push(other.id);
    }
    for (const ds of claims.datasources ?? []) {
      if (!profile.datasources.some((d) => d.id === ds.id && d.original_id === ds.original_id)) profile.datasources.push({ ...ds });
      index(`ds:${ds.id}:${ds.original_id}`, profile.id);
    }
    for (const [repository, id] of Object.entries(claims.identities ?? {})) {
      profile.identities[repository] = id;
      index(`id:${repository}:${id}`, profile.id);
    }
    if (claims.sessionId !== undefined) {
      if (!profile.sessions.includes(claims.sessionId)) profile.sessions.push(claims.sessionId);
      // Keep the newest sessions only: an anonymous id matters for the visit it belongs to.
      if (profile.sessions.length > 20) profile.sessions.shift();
      index(`session:${claims.sessionId}`, profile.id);
    }
    Object.assign(profile.infos, claims.infos ?? {});
    Object.assign(profile.segments, claims.segments ?? {});
    return { profile, created, merged };
  }

  /** The profile an id stands for and every profile merged into it (directly or through others), canonical first. */
  members(profileId: string): Profile[] {
    const canonical = this.get(profileId);
    if (canonical === undefined) return [];
    return [...this.mergedUnder(canonical.id)].map((id) => this.stored(id)).filter((p): p is Profile => p !== undefined);
  }

  /**
   * `profileId` and the ids merged into it, directly or through others — not the profile it was merged
   * into: what one holder of that id (a browser) has shown of the person.
   */
  mergedUnder(profileId: string): Set<string> {
    const ids = new Set([profileId]);
    for (const id of ids) for (const from of this.mergedFrom.get(id) ?? []) ids.add(from);
    return ids;
  }

  /**
   * Another process erased these profiles (its erasure's notice in the shared log): the stored profiles
   * and index entries are gone already (their documents reload here), so only what this process keeps
   * in memory goes: anonymous profiles taken from the log and their sessions, and merges.
   */
  forgetErased(profileIds: readonly string[]): void {
    for (const id of profileIds) {
      const anonymous = this.anonymous.get(id);
      if (anonymous !== undefined) this.forgetAnonymous(anonymous);
      this.forgetMerges(id);
    }
  }

  /**
   * Erasure: removes these profiles and every index entry that finds them (datasource, identity and
   * session ids), durably. Activities already logged under their ids then belong to nobody; the
   * caller removes them from the log.
   */
  async erase(profiles: readonly Profile[]): Promise<void> {
    const touched = new Set<StoredDocument<object>>();
    const ids = new Set(profiles.map((p) => p.id));
    for (const profile of profiles) {
      const keys = [
        ...profile.datasources.map((ds) => `ds:${ds.id}:${ds.original_id}`),
        ...Object.entries(profile.identities).map(([repository, id]) => `id:${repository}:${id}`),
        ...profile.sessions.map((session) => `session:${session}`),
      ];
      for (const key of keys) {
        const shard = this.indexShard(key);
        if (Object.hasOwn(shard.data.index, key) && ids.has(shard.data.index[key]!)) {
          delete shard.data.index[key];
          touched.add(shard);
        }
      }
      if (this.anonymous.get(profile.id) === profile) this.forgetAnonymous(profile);
      const shard = this.profileShard(profile.id);
      if (Object.hasOwn(shard.data.profiles, profile.id)) {
        delete shard.data.profiles[profile.id];
        touched.add(shard);
      }
      this.forgetMerges(profile.id);
    }
    await Promise.all([...touched].map((doc) => this.persist(doc)));
  }

  /** Drops the merges an erased profile took part in (memory only). */
  private forgetMerges(id: string): void {
    const into = this.mergedInto.get(id);
    if (into !== undefined) this.mergedFrom.get(into)?.delete(id);
    this.mergedInto.delete(id);
    this.mergedFrom.delete(id);
  }

  private recordMerge(from: string, into: string): void {
    this.mergedInto.set(from, into);
    let set = this.mergedFrom.get(into);
    if (set === undefined) this.mergedFrom.set(into, (set = new Set()));
    set.add(from);
  }

  private absorb(into: Profile, from: Profile, index: (key: string, id: string) => void): void {
    from.mergedInto = into.id;
    this.recordMerge(from.id, into.id);
    for (const session of from.sessions) {
      if (!into.sessions.includes(session)) into.sessions.push(session);
      index(`session:${session}`, into.id);
    }
    into.infos = { ...from.infos, ...into.infos };
    into.segments = { ...from.segments, ...into.segments };
  }
}
