/** Each profile's most recent activities, newest last: the history endpoint and "recently viewed" read it. */
import type { LoggedActivity } from './activity-record.js';

/** Activities kept per profile; older ones stay in the log but leave memory. */
export const HISTORY_LIMIT = 500;
/** Distinct (type, verb) pairs counted per profile; verbs are configured and types are few, so this is never reached in practice. */
const MAX_COUNTED_KINDS = 64;

/** Comma lists of JSON:API filters: an activity matches when its type is one of `types` and its verb one of `verbs`. */
export interface HistoryFilters {
  types?: readonly string[];
  verbs?: readonly string[];
}

export function matchesHistoryFilters(activity: Pick<LoggedActivity, 'type' | 'verb'>, filters: HistoryFilters): boolean {
  return (filters.types === undefined || filters.types.includes(activity.type)) && (filters.verbs === undefined || filters.verbs.includes(activity.verb));
}

const SAVED_PROFILES_PER_CHUNK = 200;

export type HistoryChunk = Array<[profileId: string, activities: LoggedActivity[], counts: Array<[string, number]>, aliases: string[]]>;

const kindKey = (type: string, verb: string) => `${type}\u0000${verb}`;

export class ProfileHistory {
  private readonly byProfile = new Map<string, LoggedActivity[]>();
  /** Per profile, how many activities of each (type, verb) were folded, including those that left memory. */
  private readonly counts = new Map<string, Map<string, number>>();
  /** Per profile, the ids of profiles merged into it under which some of its activities were logged. */
  private readonly aliases = new Map<string, Set<string>>();

  add(profileId: string, activity: LoggedActivity): void {
    if (activity.profileId !== profileId) this.addAlias(profileId, activity.profileId);
    let list = this.byProfile.get(profileId);
    if (list === undefined) this.byProfile.set(profileId, (list = []));
    list.push(activity);
    if (list.length > HISTORY_LIMIT) list.splice(0, list.length - HISTORY_LIMIT);
    let counts = this.counts.get(profileId);
    if (counts === undefined) this.counts.set(profileId, (counts = new Map()));
    const key = kindKey(activity.type, activity.verb);
    if (counts.has(key) || counts.size < MAX_COUNTED_KINDS) counts.set(key, (counts.get(key) ?? 0) + 1);
  }

  /** Newest first. */
  list(profileId: string): LoggedActivity[] {
    return [...(this.byProfile.get(profileId) ?? [])].reverse();
  }

  /** How many activities matching `filters` the profile has, counting those no longer kept in memory. */
  count(profileId: string, filters: HistoryFilters = {}): number {
    let total = 0;
    for (const [key, n] of this.counts.get(profileId) ?? []) {
      const [type, verb] = key.split('\u0000') as [string, string];
      if (matchesHistoryFilters({ type, verb }, filters)) total += n;
    }
    return total;
  }

  /** Every profile id the profile's activities may be logged under: its own and those merged into it. */
  loggedIds(profileId: string): string[] {
    return [profileId, ...(this.aliases.get(profileId) ?? [])];
  }

  private addAlias(profileId: string, alias: string): void {
    let set = this.aliases.get(profileId);
    if (set === undefined) this.aliases.set(profileId, (set = new Set()));
    set.add(alias);
  }

  /** Erasure: drops everything kept about the profile (its activities, counts and aliases). */
  forget(profileId: string): void {
    this.byProfile.delete(profileId);
    this.counts.delete(profileId);
    this.aliases.delete(profileId);
  }

  /** Snapshot chunks: `[profileId, activities (oldest first), [kind, count][], aliases][]`, a few hundred profiles each. */
  *save(): Iterable<HistoryChunk> {
    let chunk: HistoryChunk = [];
    for (const profileId of new Set([...this.byProfile.keys(), ...this.counts.keys(), ...this.aliases.keys()])) {
      chunk.push([profileId, this.byProfile.get(profileId) ?? [], [...(this.counts.get(profileId) ?? [])], [...(this.aliases.get(profileId) ?? [])]]);
      if (chunk.length >= SAVED_PROFILES_PER_CHUNK) {
        yield chunk;
        chunk = [];
      }
    }
    if (chunk.length > 0) yield chunk;
  }

  restore(chunk: HistoryChunk): void {
    for (const [profileId, activities, counts, aliases] of chunk) {
      if (activities.length > 0) this.byProfile.set(profileId, activities);
      if (counts.length > 0) this.counts.set(profileId, new Map(counts));
      if (aliases.length > 0) this.aliases.set(profileId, new Set(aliases));
    }
  }

  clear(): void {
    this.byProfile.clear();
    this.counts.clear();
    this.aliases.clear();
  }

  has(profileId: string): boolean {
    return this.byProfile.has(profileId);
  }

  /** Folds an anonymous profile's history into the one it was merged into, in time order. */
  merge(from: string, into: string): void {
    this.addAlias(into, from);
    for (const alias of this.aliases.get(from) ?? []) this.addAlias(into, alias);
    this.aliases.delete(from);
    const movedCounts = this.counts.get(from);
    if (movedCounts !== undefined) {
      this.counts.delete(from);
      let counts = this.counts.get(into);
      if (counts === undefined) this.counts.set(into, (counts = new Map()));
      for (const [key, n] of movedCounts) counts.set(key, (counts.get(key) ?? 0) + n);
    }
    const moved = this.byProfile.get(from);
    if (moved === undefined) return;
    this.byProfile.delete(from);
    const merged = [...(this.byProfile.get(into) ?? []), ...moved].sort((a, b) => a.receivedAt - b.receivedAt);
    this.byProfile.set(into, merged.slice(-HISTORY_LIMIT));
  }
}
