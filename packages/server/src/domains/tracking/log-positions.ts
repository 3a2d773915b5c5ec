/**
 * Where in the activity log each profile id's activities are: per id, the positions (file segments)
 * its records were appended to, newest last. A history that left memory (the profile evicted past
 * `historyInMemory`, or older than memory's 500) is then read back from those few segments instead of
 * every segment of the log. Memory is bounded per profile id: at most MAX_POSITIONS positions, each a
 * reference to one shared string per segment; past that the oldest are dropped and the id is marked
 * partial (its newest activities are still found; a whole-history page reads every segment).
 */
import { ChunkReader, ChunkWriter } from './snapshot-encoding.js';

/** Segments remembered per profile id; a segment holds days to weeks of a shop's activity, so this covers months. */
export const MAX_POSITIONS = 16;

/** Bytes of one snapshot chunk of positions, about. */
const SAVED_CHUNK_BYTES = 64 * 1024;

export class LogPositions {
  /** Profile id (as logged) → its positions, oldest first. */
  private readonly byProfile = new Map<string, string[]>();
  /** Ids that had more positions than MAX_POSITIONS: the older ones are not listed. */
  private readonly partial = new Set<string>();
  /** One string per segment name, shared by every profile's list. */
  private readonly names = new Map<string, string>();
  /** False after a restore from a snapshot saved without positions (an older version): every read then scans the whole log. */
  private trustworthy = true;

  /** The state came from a snapshot that held no positions: the index knows only what came after it. */
  distrust(): void {
    this.trustworthy = false;
  }

  /** False until a start replays the whole log, once restored from a snapshot without positions (such an index is not saved either). */
  get trusted(): boolean {
    return this.trustworthy;
  }

  /** Notes that a record of `profileId` was appended (or replayed) at `position`. */
  note(profileId: string, position: string): void {
    let list = this.byProfile.get(profileId);
    if (list === undefined) this.byProfile.set(profileId, (list = []));
    // Records come in log order, so a position already noted is the last one.
    if (list.at(-1) === position) return;
    list.push(this.intern(position));
    if (list.length > MAX_POSITIONS) {
      list.shift();
      this.partial.add(profileId);
    }
  }

  /** The positions holding the records of every id in `profileIds`, or undefined when some id's are not all known. */
  positionsOf(profileIds: readonly string[]): string[] | undefined {
    if (!this.trustworthy) return undefined;
    const out = new Set<string>();
    for (const id of profileIds) {
      if (this.partial.has(id)) return undefined;
      for (const position of this.byProfile.get(id) ?? []) out.add(position);
    }
    return [...out];
  }

  /** The newest positions of every id in `profileIds` (enough for its newest activities, even when partial); undefined when not trusted. */
  newestOf(profileIds: readonly string[]): string[] | undefined {
    if (!this.trustworthy) return undefined;
    const out = new Set<string>();
    for (const id of profileIds) for (const position of this.byProfile.get(id) ?? []) out.add(position);
    return [...out];
  }

  /** Erasure: the ids' positions go with their records. */
  forget(profileIds: Iterable<string>): void {
    for (const id of profileIds) {
      this.byProfile.delete(id);
      this.partial.delete(id);
    }
  }

  /** Retention dropped these segments: nothing is read there any more. */
  dropped(positions: readonly string[]): void {
    if (positions.length === 0) return;
    const gone = new Set(positions);
    for (const [id, list] of this.byProfile) {
      const kept = list.filter((position) => !gone.has(position));
      if (kept.length === 0) this.byProfile.delete(id);
      else if (kept.length !== list.length) this.byProfile.set(id, kept);
    }
    for (const position of positions) this.names.delete(position);
  }

  /** Snapshot chunks: per profile id, its id, whether it is partial, and its positions. */
  *save(): Iterable<Buffer> {
    const out = new ChunkWriter();
    for (const [id, list] of this.byProfile) {
      out.string(id);
      out.u32(this.partial.has(id) ? 1 : 0);
      out.u32(list.length);
      for (const position of list) out.string(position);
      if (out.length >= SAVED_CHUNK_BYTES) yield out.take();
    }
    if (out.length > 0) yield out.take();
  }

  restore(chunk: Buffer): void {
    const read = new ChunkReader(chunk);
    while (!read.done) {
      const id = read.string();
      if (read.u32() === 1) this.partial.add(id);
      const list = new Array<string>(read.u32());
      for (let at = 0; at < list.length; at++) list[at] = this.intern(read.string());
      this.byProfile.set(id, list);
    }
  }

  clear(): void {
    this.trustworthy = true;
    this.byProfile.clear();
    this.partial.clear();
    this.names.clear();
  }

  private intern(position: string): string {
    const known = this.names.get(position);
    if (known !== undefined) return known;
    this.names.set(position, position);
    return position;
  }
}
