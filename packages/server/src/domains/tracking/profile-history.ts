/**
 * Each profile's most recent activities, newest last: the history endpoint and "recently viewed" read
 * it. Memory holds at most HISTORY_LIMIT activities per profile and `budget` in all: past the budget,
 * the lists of the profiles least recently active leave memory (their counts stay, and history pages
 * read what memory lacks from the log), so a flood of new shoppers cannot grow it without bound.
 */
import type { LoggedActivity } from './activity-record.js';

/** Activities kept per profile; older ones stay in the log but leave memory. */
export const HISTORY_LIMIT = 500;
/** Activities kept in memory over all of a tenant's profiles, by default (`activityLog.historyInMemory`). */
export const HISTORY_BUDGET = 250_000;
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
  /** Lists in order of their profile's last activity, least recent first (an LRU by insertion order). */
  private readonly byProfile = new Map<string, LoggedActivity[]>();
  /** Activities in all lists. */
  private resident = 0;

  constructor(private readonly budget = HISTORY_BUDGET) {}

  /** Activities held in memory now (at most the budget). */
  get size(): number {
    return this.resident;
  }

  /** Per profile, how many activities of each (type, verb) were folded, including those that left memory. */
  private readonly counts = new Map<string, Map<string, number>>();
  /** Per profile, the ids of profiles merged into it under which some of its activities were logged. */
  private readonly aliases = new Map<string, Set<string>>();

  add(profileId: string, activity: LoggedActivity): void {
    if (activity.profileId !== profileId) this.addAlias(profileId, activity.profileId);
    let list = this.byProfile.get(profileId);
    // Moved to the end: the most recently active profile is the last one let go.
    if (list !== undefined) this.byProfile.delete(profileId);
    this.byProfile.set(profileId, (list ??= []));
    list.push(activity);
    this.resident++;
    if (list.length > HISTORY_LIMIT) this.resident -= list.splice(0, list.length - HISTORY_LIMIT).length;
    this.keepWithinBudget();
    let counts = this.counts.get(profileId);
    if (counts === undefined) this.counts.set(profileId, (counts = new Map()));
    const key = kindKey(activity.type, activity.verb);
    if (counts.has(key) || counts.size < MAX_COUNTED_KINDS) counts.set(key, (counts.get(key) ?? 0) + 1);
  }

  private keepWithinBudget(): void {
    while (this.resident > this.budget && this.byProfile.size > 1) {
      const [oldest, list] = this.byProfile.entries().next().value!;
      this.byProfile.delete(oldest);
      this.resident -= list.length;
    }
  }

  /** Whether memory holds every activity counted for the profile (else the log has the rest). */
  complete(profileId: string): boolean {
    return (this.byProfile.get(profileId)?.length ?? 0) >= this.count(profileId);
  }

  /** Newest first: the newest activities memory holds (see `complete`). */
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
    this.resident -= this.byProfile.get(profileId)?.length ?? 0;
    this.byProfile.delete(profileId);
    this.counts.delete(profileId);
    this.aliases.delete(profileId);
  }

  /** Snapshot chunks: `[profileId, activities (oldest first), [kind, count][], aliases][]`, a few hundred profiles each. */
  *save(): Iterable<HistoryChunk> {
    let chunk: HistoryChunk = [];
    // Lists in their LRU order first (a restore keeps it), then profiles memory keeps only counts or aliases of.
    const profiles = (function* (history: ProfileHistory) {
      yield* history.byProfile.keys();
      for (const id of history.counts.keys()) if (!history.byProfile.has(id)) yield id;
      for (const id of history.aliases.keys()) if (!history.byProfile.has(id) && !history.counts.has(id)) yield id;
    })(this);
    for (const profileId of profiles) {
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
      if (activities.length > 0) {
        this.resident += activities.length - (this.byProfile.get(profileId)?.length ?? 0);
        this.byProfile.set(profileId, activities);
      }
      if (counts.length > 0) this.counts.set(profileId, new Map(counts));
      if (aliases.length > 0) this.aliases.set(profileId, new Set(aliases));
    }
    this.keepWithinBudget();
  }

  clear(): void {
    this.resident = 0;
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
    const kept = this.byProfile.get(into) ?? [];
    this.byProfile.delete(into);
    const merged = [...kept, ...moved].sort((a, b) => a.receivedAt - b.receivedAt).slice(-HISTORY_LIMIT);
    this.resident += merged.length - kept.length - moved.length;
    this.byProfile.set(into, merged);
  }
}
