/**
 * Each profile's most recent activities, newest last: the history endpoint and "recently viewed" read
 * it. Memory holds at most HISTORY_LIMIT activities per profile and `budget` in all: past the budget,
 * the lists of the profiles least recently active leave memory (their counts stay, and history pages
 * read what memory lacks from the log), so a flood of new shoppers cannot grow it without bound.
 * An activity recorded (or replayed from the log) is kept as the object the log holds; one restored from
 * a snapshot as its JSON text, so a restore parses nothing (a history page or recently-viewed parses it
 * when asked). Making a text for every replayed activity fragmented the heap: a whole-log start held
 * 1.3-1.56 GB of RSS against 1 GB for the same live heap (docs/operations.md).
 */
import type { LoggedActivity } from './activity-record.js';
import { ChunkReader, ChunkWriter, activityOf, textOf, type KeptActivity } from './snapshot-encoding.js';
import { takeOldest } from '../../platform/collections/oldest-first.js';
import { BoundedMap } from '../../platform/collections/bounded-map.js';

/** Activities kept per profile; older ones stay in the log but leave memory. */
export const HISTORY_LIMIT = 500;
/** Activities kept in memory over all of a tenant's profiles, by default (`activityLog.historyInMemory`). */
export const HISTORY_BUDGET = 250_000;
/** Profiles whose newest read-back activities are remembered (see `readAhead`), and how many of each one's newest. */
const READ_AHEAD_PROFILES = 256;
const READ_AHEAD_IDS = 50;
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

/** Bytes of one snapshot chunk of histories, about: restoring one stays well inside a slice. */
const SAVED_CHUNK_BYTES = 64 * 1024;

/** Kind keys, shared by every profile's counts (one string each instead of one per profile); bounded, as types come from the public. */
const kinds = new Map<string, string>();
function interned(key: string): string {
  const known = kinds.get(key);
  if (known !== undefined) return known;
  if (kinds.size < 1_000) kinds.set(key, key);
  return key;
}

const kindKey = (type: string, verb: string) => interned(`${type}\u0000${verb}`);

/** Adds to a flat `[kind, n...]` count list (a new kind only while fewer than MAX_COUNTED_KINDS are counted). */
function addCount(counts: Array<string | number>, key: string, n: number): void {
  for (let at = 0; at < counts.length; at += 2) {
    if (counts[at] !== key) continue;
    (counts[at + 1] as number) += n;
    return;
  }
  if (counts.length < MAX_COUNTED_KINDS * 2) counts.push(key, n);
}

export class ProfileHistory {
  /** Lists in order of their profile's last activity, least recent first (an LRU by insertion order). */
  private readonly byProfile = new Map<string, KeptActivity[]>();
  /** Activities in all lists. */
  private resident = 0;

  constructor(private readonly budget = HISTORY_BUDGET) {}

  /** Activities held in memory now (at most the budget). */
  get size(): number {
    return this.resident;
  }

  /** Per profile, how many activities of each (type, verb) were folded, including those that left memory: `[kind, n, kind, n...]` (a flat array costs a fraction of a Map). */
  private readonly counts = new Map<string, Array<string | number>>();
  /** Per profile, the ids of profiles merged into it under which some of its activities were logged. */
  private readonly aliases = new Map<string, Set<string>>();

  /**
   * Per profile whose history was read back lately, the ids of the newest activities that read found:
   * one committed while the read ran is folded after it, and is then counted without being listed twice.
   */
  private readonly readAhead = new BoundedMap<string, Set<string>>(READ_AHEAD_PROFILES);

  add(profileId: string, activity: LoggedActivity): void {
    if (activity.profileId !== profileId) this.addAlias(profileId, activity.profileId);
    let list = this.byProfile.get(profileId);
    const listed = this.readAhead.size > 0 && this.readAhead.get(profileId)?.delete(activity.id) === true;
    // Moved to the end: the most recently active profile is the last one let go.
    if (list !== undefined) {
      this.byProfile.delete(profileId);
      this.byProfile.set(profileId, list);
      if (!listed) list.push(activity);
    } else if (!listed) {
      // A literal of one: most shoppers have one or two activities, and an array grown from [] by a push holds room for 17.
      this.byProfile.set(profileId, (list = [activity]));
    }
    // (Listed by a read-back whose list has left memory since: only counted, as any activity not kept.)
    if (list !== undefined && !listed) {
      this.resident++;
      if (list.length > HISTORY_LIMIT) this.resident -= list.splice(0, list.length - HISTORY_LIMIT).length;
      this.keepWithinBudget();
    }
    const counts = this.counts.get(profileId);
    // As the list: a literal pair for the profile's first kind, not an empty array grown by a push.
    if (counts === undefined) this.counts.set(profileId, [kindKey(activity.type, activity.verb), 1]);
    else addCount(counts, kindKey(activity.type, activity.verb), 1);
  }

  private keepWithinBudget(): void {
    while (this.resident > this.budget && this.byProfile.size > 1) {
      // Not `entries().next()`: that walks every hole earlier evictions left (oldest-first.ts).
      const [, list] = takeOldest(this.byProfile)!;
      this.resident -= list.length;
    }
  }

  /** Whether memory lacks the newest activities counted for the profile (it left memory): the log has them. */
  missesNewest(profileId: string): boolean {
    const kept = this.byProfile.get(profileId)?.length ?? 0;
    return kept < Math.min(this.count(profileId), HISTORY_LIMIT);
  }

  /**
   * Puts a history read back from the log (oldest first) into memory as the profile's list, as the most
   * recently active one; activities recorded while it was read (already in memory) are kept once.
   * The budget holds: other profiles' lists leave memory as usual.
   */
  readmit(profileId: string, read: readonly LoggedActivity[]): void {
    const kept = this.byProfile.get(profileId) ?? [];
    const known = new Set(read.map((a) => a.id));
    const since = kept.filter((k) => !known.has(activityOf(k).id));
    const list: KeptActivity[] = [...read, ...since].slice(-HISTORY_LIMIT);
    // Activities not folded here yet can only be among the newest the read found.
    const folded = new Set(kept.map((k) => activityOf(k).id));
    const ahead = new Set(read.slice(-READ_AHEAD_IDS).filter((a) => !folded.has(a.id)).map((a) => a.id));
    if (ahead.size > 0) this.readAhead.set(profileId, ahead);
    else this.readAhead.delete(profileId);
    this.byProfile.delete(profileId);
    this.byProfile.set(profileId, list);
    this.resident += list.length - kept.length;
    this.keepWithinBudget();
  }

  /** Whether memory holds every activity counted for the profile (else the log has the rest). */
  complete(profileId: string): boolean {
    return (this.byProfile.get(profileId)?.length ?? 0) >= this.count(profileId);
  }

  /** Newest first: the newest activities memory holds (see `complete`). */
  list(profileId: string): LoggedActivity[] {
    return this.newest(profileId, () => true, Infinity);
  }

  /**
   * Newest first, the first `limit` kept activities `accept` takes (it sees them in that order): a reader
   * of the newest few does not copy, or parse (those a snapshot restored as text), the whole list.
   */
  newest(profileId: string, accept: (activity: LoggedActivity) => boolean, limit: number): LoggedActivity[] {
    const out: LoggedActivity[] = [];
    const kept = this.byProfile.get(profileId);
    if (kept === undefined) return out;
    for (let at = kept.length - 1; at >= 0 && out.length < limit; at--) {
      const activity = activityOf(kept[at]!);
      if (accept(activity)) out.push(activity);
    }
    return out;
  }

  /** How many activities matching `filters` the profile has, counting those no longer kept in memory. */
  count(profileId: string, filters: HistoryFilters = {}): number {
    let total = 0;
    const counts = this.counts.get(profileId) ?? [];
    for (let at = 0; at < counts.length; at += 2) {
      const [type, verb] = (counts[at] as string).split('\u0000') as [string, string];
      if (matchesHistoryFilters({ type, verb }, filters)) total += counts[at + 1] as number;
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
    this.readAhead.delete(profileId);
    this.resident -= this.byProfile.get(profileId)?.length ?? 0;
    this.byProfile.delete(profileId);
    this.counts.delete(profileId);
    this.aliases.delete(profileId);
  }

  /**
   * Snapshot chunks (binary, snapshot-encoding.ts), per profile: its id, its activities' count and
   * JSON texts (oldest first), its counts (`kind, n` pairs) and its aliases. Lists in their LRU order
   * first (a restore keeps it), then profiles memory keeps only counts or aliases of.
   */
  *save(): Iterable<Buffer> {
    const out = new ChunkWriter();
    const profiles = (function* (history: ProfileHistory) {
      yield* history.byProfile.keys();
      for (const id of history.counts.keys()) if (!history.byProfile.has(id)) yield id;
      for (const id of history.aliases.keys()) if (!history.byProfile.has(id) && !history.counts.has(id)) yield id;
    })(this);
    for (const profileId of profiles) {
      out.string(profileId);
      const list = this.byProfile.get(profileId) ?? [];
      out.u32(list.length);
      for (const kept of list) out.string(textOf(kept));
      const counts = this.counts.get(profileId) ?? [];
      out.u32(counts.length / 2);
      for (let at = 0; at < counts.length; at += 2) {
        out.string(counts[at] as string);
        out.f64(counts[at + 1] as number);
      }
      const aliases = this.aliases.get(profileId);
      out.u32(aliases?.size ?? 0);
      for (const alias of aliases ?? []) out.string(alias);
      if (out.length >= SAVED_CHUNK_BYTES) yield out.take();
    }
    if (out.length > 0) yield out.take();
  }

  restore(chunk: Buffer): void {
    const read = new ChunkReader(chunk);
    while (!read.done) {
      const profileId = read.string();
      const activities = new Array<KeptActivity>(read.u32());
      for (let at = 0; at < activities.length; at++) activities[at] = read.string();
      const counts = new Array<string | number>(read.u32() * 2);
      for (let at = 0; at < counts.length; at += 2) {
        counts[at] = interned(read.string());
        counts[at + 1] = read.f64();
      }
      const aliases = read.u32();
      if (activities.length > 0) {
        this.resident += activities.length - (this.byProfile.get(profileId)?.length ?? 0);
        this.byProfile.set(profileId, activities);
      }
      if (counts.length > 0) this.counts.set(profileId, counts);
      if (aliases > 0) {
        const set = new Set<string>();
        for (let at = 0; at < aliases; at++) set.add(read.string());
        this.aliases.set(profileId, set);
      }
    }
    this.keepWithinBudget();
  }

  clear(): void {
    this.resident = 0;
    this.readAhead.clear();
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
      if (counts === undefined) this.counts.set(into, (counts = []));
      for (let at = 0; at < movedCounts.length; at += 2) addCount(counts, movedCounts[at] as string, movedCounts[at + 1] as number);
    }
    const moved = this.byProfile.get(from);
    if (moved === undefined) return;
    this.byProfile.delete(from);
    const kept = this.byProfile.get(into) ?? [];
    this.byProfile.delete(into);
    const merged = [...kept, ...moved]
      .map((kept) => ({ kept, at: activityOf(kept).receivedAt }))
      .sort((a, b) => a.at - b.at)
      .slice(-HISTORY_LIMIT)
      .map((entry) => entry.kept);
    this.resident += merged.length - kept.length - moved.length;
    this.byProfile.set(into, merged);
  }
}
