/**
 * One profile per shopper per tenant behind every identity: the older tracker's profile id and
 * datasources, the collection API's identity repositories and anonymous session id. When identities
 * that were separate profiles turn out to be one shopper, the anonymous profile is merged into the
 * nominative one and keeps pointing at it, so that old profile ids still find the whole history.
 */
import { randomBytes } from 'node:crypto';
import type { DocumentStore, StoredDocument } from '../store/document-store.js';

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

export interface ResolvedProfile {
  profile: Profile;
  created: boolean;
  /** Profiles merged into `profile` by this call, whose histories must follow. */
  merged: string[];
}

export function newProfileId(): string {
  return `p_${randomBytes(12).toString('base64url')}`;
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

export class ProfileDirectory {
  private readonly doc: StoredDocument<ProfilesData>;

  private constructor(doc: StoredDocument<ProfilesData>) {
    this.doc = doc;
  }

  static async open(store: DocumentStore, tenant: string): Promise<ProfileDirectory> {
    return new ProfileDirectory(await store.document<ProfilesData>(`tenants/${tenant}/profiles`, () => ({ profiles: {}, index: {} })));
  }

  /** The profile an id now stands for, following merges. */
  get(profileId: string): Profile | undefined {
    let profile = this.doc.data.profiles[profileId];
    for (let hops = 0; profile?.mergedInto !== undefined && hops < 32; hops++) profile = this.doc.data.profiles[profile.mergedInto];
    return profile;
  }

  canonicalId(profileId: string): string {
    return this.get(profileId)?.id ?? profileId;
  }

  /** Finds a profile by a datasource or identity-repository id, without creating one. */
  find(claims: IdentityClaims): Profile | undefined {
    if (claims.profileId !== undefined) return this.get(claims.profileId);
    for (const key of claimKeys(claims)) {
      const id = this.doc.data.index[key];
      if (id !== undefined) return this.get(id);
    }
    return undefined;
  }

  /** Finds or creates the one profile behind these claims, linking new identities and merging profiles they join. */
  async resolve(claims: IdentityClaims, now: number): Promise<ResolvedProfile> {
    const quick = this.unchanged(claims);
    if (quick !== undefined) return { profile: quick, created: false, merged: [] };
    return this.doc.update((data) => this.link(data, claims, now));
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
      const id = this.doc.data.index[key];
      if (id === undefined) return undefined;
      found.add(this.canonicalId(id));
    }
    if (found.size !== 1) return undefined;
    return this.get([...found][0]!);
  }

  private link(data: ProfilesData, claims: IdentityClaims, now: number): ResolvedProfile {
    const canonical = (id: string) => this.get(id)?.id;
    const candidates: Profile[] = [];
    const add = (id: string | undefined) => {
      const profile = id === undefined ? undefined : data.profiles[canonical(id) ?? ''];
      if (profile !== undefined && !candidates.includes(profile)) candidates.push(profile);
    };
    if (claims.profileId !== undefined) add(claims.profileId);
    for (const key of claimKeys(claims)) add(data.index[key]);

    // A nominative profile wins; two different nominative shoppers are never merged into one.
    const target = candidates.find(isNominative) ?? candidates[0];
    let created = false;
    let profile: Profile;
    if (target === undefined) {
      profile = { id: newProfileId(), createdAt: now, datasources: [], identities: {}, sessions: [], infos: {}, segments: {} };
      data.profiles[profile.id] = profile;
      created = true;
    } else {
      profile = target;
    }
    const merged: string[] = [];
    for (const other of candidates) {
      if (other === profile || isNominative(other)) continue;
      this.absorb(data, profile, other);
      merged.push(other.id);
    }
    for (const ds of claims.datasources ?? []) {
      if (!profile.datasources.some((d) => d.id === ds.id && d.original_id === ds.original_id)) profile.datasources.push({ ...ds });
      data.index[`ds:${ds.id}:${ds.original_id}`] = profile.id;
    }
    for (const [repository, id] of Object.entries(claims.identities ?? {})) {
      profile.identities[repository] = id;
      data.index[`id:${repository}:${id}`] = profile.id;
    }
    if (claims.sessionId !== undefined) {
      if (!profile.sessions.includes(claims.sessionId)) profile.sessions.push(claims.sessionId);
      // Keep the newest sessions only: an anonymous id matters for the visit it belongs to.
      if (profile.sessions.length > 20) profile.sessions.shift();
      data.index[`session:${claims.sessionId}`] = profile.id;
    }
    Object.assign(profile.infos, claims.infos ?? {});
    Object.assign(profile.segments, claims.segments ?? {});
    return { profile, created, merged };
  }

  private absorb(data: ProfilesData, into: Profile, from: Profile): void {
    from.mergedInto = into.id;
    for (const session of from.sessions) {
      if (!into.sessions.includes(session)) into.sessions.push(session);
      data.index[`session:${session}`] = into.id;
    }
    into.infos = { ...from.infos, ...into.infos };
    into.segments = { ...from.segments, ...into.segments };
  }
}
