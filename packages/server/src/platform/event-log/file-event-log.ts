// long-file: one adapter whose appends, replay, compaction and retention share the segment state and must stay in one class.
/**
 * The event log's file adapter: an append-only, segmented log of JSON lines with group commit. Appends
 * wait in memory while the previous batch is being fsynced, then go to disk together, so durability
 * costs one fsync per batch rather than per record. An append's promise resolves only after the fsync
 * that covers it. Positions are segment file names; retention deletes whole closed segments.
 *
 * A cursor is `<compactions>:<segment number>:<byte offset after a complete line>`. Compaction (`remove`)
 * moves the lines of the segments it rewrites, so it first counts itself in the `compactions` file:
 * every cursor given before then names an older count and is refused as stale.
 */
import { constants } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { StaleCursorError, type EventLog, type ReplayOptions, type ReplayStats, type ScanQuery } from './event-log.js';
import { COMPACTIONS_SIDE_FILE, endsLineAt, formatFileCursor, parseFileCursor, readCompactions, writeCompactions } from './file-log-cursor.js';
import { readNewestNote, removeNewestNote, writeNewestNote } from './segment-notes.js';
import { cutTornTail, readCompleteLines, readLines, readLinesHolding } from './segment-lines.js';

export interface FileEventLogOptions {
  directory: string;
  /** A segment is closed and a new one started once it would pass this size. */
  segmentBytes: number;
  /** The top-level field holding a record's time (ms), which `dropBefore` compares. */
  timeField: string;
  /** Told once, when `close` starts (the factory forgets the log). */
  onClose?: () => void;
}

interface Pending {
  data: string;
  /** The newest record time in this append, for retention (-Infinity: none). */
  newest: number;
  /** With the segment the append went to (scans by position read only that segment). */
  resolve: (position: string) => void;
  reject: (error: unknown) => void;
}

const SEGMENT_NAME = /^segment-(\d{6,})\.jsonl$/;
/**
 * The segment being written is opened with O_DSYNC where the platform has it (Linux, macOS): each write
 * returns once its data (and the size needed to read it) is on the disk, as a write followed by
 * fdatasync would, in one trip to the thread pool instead of two, so a group commit costs one turn of
 * the loop less. Without it (Windows), each batch is written, then fdatasync'd.
 */
const DSYNC = constants.O_DSYNC;
const OPEN_EXISTING = DSYNC === undefined ? 'r+' : constants.O_RDWR | DSYNC;
const OPEN_NEW = DSYNC === undefined ? 'wx+' : constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | DSYNC;
/** A segment being rewritten without erased records; one left by a crash is deleted at open. */
const REWRITE_SUFFIX = '.rewrite';

export function segmentName(index: number): string {
  return `segment-${String(index).padStart(6, '0')}.jsonl`;
}

export class FileEventLog implements EventLog {
  readonly directory: string;
  private readonly segmentBytes: number;
  private readonly timeField: string;
  private readonly onClose: (() => void) | undefined;
  private handle: FileHandle | undefined;
  private segmentIndex = 0;
  private segmentSize = 0;
  private compactions = 0;
  private queue: Pending[] = [];
  private flushing: Promise<void> = Promise.resolve();
  /** Cleared in the same tick the queue is seen empty, so an append never waits for a drain that already ended. */
  private draining = false;
  private closed = false;
  /** The compaction or retention pass in progress, if any. */
  private maintenance: Promise<unknown> = Promise.resolve();
  /** Fsynced writes so far: group commit keeps this far below the number of appends under load. */
  durableWrites = 0;
  /** Newest record time per segment, for retention; trusted only for the segments in `known`. */
  private readonly newest = new Map<string, number>();
  /** Segments whose every record this instance has seen (replayed, scanned for retention, or written since it began). */
  private readonly known = new Set<string>();

  private constructor(options: FileEventLogOptions) {
    this.directory = options.directory;
    this.segmentBytes = options.segmentBytes;
    this.timeField = options.timeField;
    this.onClose = options.onClose;
  }

  /** Opens the log, cutting off a line torn by a crash so that new lines never join it. */
  static async open(options: FileEventLogOptions): Promise<FileEventLog> {
    const log = new FileEventLog(options);
    await mkdir(options.directory, { recursive: true });
    for (const name of await readdir(options.directory)) {
      if (name.endsWith(REWRITE_SUFFIX) || name === COMPACTIONS_SIDE_FILE) await rm(join(options.directory, name), { force: true });
    }
    log.compactions = await readCompactions(options.directory);
    const segments = await log.segments();
    const last = segments.at(-1);
    if (last === undefined) {
      await log.startSegment(1);
    } else {
      log.segmentIndex = last.index;
      log.handle = await open(join(options.directory, last.name), OPEN_EXISTING);
      log.segmentSize = await cutTornTail(log.handle);
    }
    return log;
  }

  /** Segment files, oldest first. */
  async segments(): Promise<Array<{ name: string; index: number }>> {
    const names = await readdir(this.directory);
    return names
      .map((name) => ({ name, match: SEGMENT_NAME.exec(name) }))
      .filter((entry): entry is { name: string; match: RegExpExecArray } => entry.match !== null)
      .map(({ name, match }) => ({ name, index: Number(match[1]) }))
      .sort((a, b) => a.index - b.index);
  }

  readonly scansByPosition = true;

  get currentSegment(): string {
    return segmentName(this.segmentIndex);
  }

  /** Appends records as one group; resolves once they are on disk, with the segment holding them. */
  append(records: readonly unknown[]): Promise<string> {
    if (this.closed) return Promise.reject(new Error('The event log is closed.'));
    if (records.length === 0) return Promise.resolve(this.currentSegment);
    let data = '';
    let newest = -Infinity;
    for (const record of records) {
      data += `${JSON.stringify(record)}\n`;
      newest = Math.max(newest, this.timeOf(record));
    }
    return new Promise<string>((resolve, reject) => {
      this.queue.push({ data, newest, resolve, reject });
      if (!this.draining) this.flushing = this.drain();
    });
  }

  /**
   * Reads every line of every segment (after the cursor `after`, when given), oldest first; a line that
   * does not parse (torn by a crash) is skipped. So is a record `visit` throws on: one bad record must
   * not stop a start-up. The segment being written is read up to its last durable append.
   */
  async replay(visit: (record: unknown, position: string) => void, options: ReplayOptions = {}): Promise<ReplayStats & { cursor: string }> {
    const segments = await this.segments();
    const from = options.after === undefined ? { index: segments[0]?.index ?? this.segmentIndex, offset: 0 } : await this.resume(options.after, segments);
    let records = 0;
    let skipped = 0;
    let cursor = { index: from.index, offset: from.offset };
    for (const { name, index } of segments) {
      if (index < from.index) continue;
      const start = index === from.index ? from.offset : 0;
      let newest = -Infinity;
      const read = await readCompleteLines(join(this.directory, name), { start, ...(index === this.segmentIndex ? { end: this.segmentSize } : {}) }, (line) => {
        if (line === '') return;
        try {
          const record: unknown = JSON.parse(line);
          newest = Math.max(newest, this.timeOf(record));
          visit(record, name);
          records++;
        } catch {
          skipped++;
        }
      });
      // A closed segment ending without a newline ends with a line torn by a crash.
      if (read.tail > 0 && index !== this.segmentIndex) skipped++;
      cursor = { index, offset: read.offset };
      this.noteNewest(name, newest);
      if (start === 0) this.known.add(name);
      if (start === 0 && index !== this.segmentIndex) await this.writeNewestNote(name);
    }
    return { records, skipped, cursor: formatFileCursor({ compactions: this.compactions, ...cursor }) };
  }

  cursor(): string {
    return formatFileCursor({ compactions: this.compactions, index: this.segmentIndex, offset: this.segmentSize });
  }

  /** Where a replay after `cursor` starts, or StaleCursorError when that place cannot be trusted. */
  private async resume(cursor: string, segments: ReadonlyArray<{ name: string; index: number }>): Promise<{ index: number; offset: number }> {
    const parsed = parseFileCursor(cursor);
    if (parsed === undefined) throw new StaleCursorError(cursor, 'it is not a cursor of this log');
    const { compactions, index, offset } = parsed;
    if (compactions !== this.compactions) throw new StaleCursorError(cursor, 'the log was compacted since');
    if (index > this.segmentIndex) throw new StaleCursorError(cursor, 'it names a segment this log has not written');
    const at = segments.findIndex((s) => s.index === index);
    // Segments are numbered one after another: a gap after the cursor's is a segment retention dropped.
    if (at === -1 || segments.slice(at).some((s, i) => s.index !== index + i)) throw new StaleCursorError(cursor, 'records after it were dropped by retention');
    const file = join(this.directory, segments[at]!.name);
    const size = index === this.segmentIndex ? this.segmentSize : (await stat(file)).size;
    if (offset > size) throw new StaleCursorError(cursor, 'it is past the end of its segment');
    if (offset > 0 && !(await endsLineAt(file, offset))) throw new StaleCursorError(cursor, 'it is not at the end of a line');
    return { index, offset };
  }

  /**
   * Lines are this class's JSON.stringify output, so a matching record holds `"<field>":"<value>"`
   * verbatim: only the lines holding that text are parsed (a few thousand of a million), then checked.
   */
  async scan(query: ScanQuery, visit: (record: unknown) => void): Promise<void> {
    const wanted = new Set(query.values);
    const needles = query.values.map((value) => Buffer.from(`${JSON.stringify(query.field)}:${JSON.stringify(value)}`));
    if (needles.length === 0) return;
    const only = query.positions === undefined ? undefined : new Set(query.positions);
    for (const { name } of await this.segments()) {
      if (only !== undefined && !only.has(name)) continue;
      try {
        await readLinesHolding(join(this.directory, name), needles, (line) => {
          let record: unknown;
          try {
            record = JSON.parse(line);
          } catch {
            return; // a torn or unreadable line: replay skips it too
          }
          const value = typeof record === 'object' && record !== null ? (record as Record<string, unknown>)[query.field] : undefined;
          if (typeof value === 'string' && wanted.has(value)) visit(record);
        });
      } catch (error) {
        // Retention may drop a closed segment while it is read: its records are past retention anyway.
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw error;
      }
    }
  }

  /**
   * Compaction for erasure: the segment being written is closed first (appends go on in a new one
   * meanwhile), then each closed segment holding a matching record is rewritten without it — to a
   * side file, fsynced, renamed over the segment — so a crash leaves either the old segment or the new.
   */
  remove(query: ScanQuery): Promise<number> {
    const wanted = new Set(query.values);
    const needles = query.values.map((value) => `${JSON.stringify(query.field)}:${JSON.stringify(value)}`);
    if (needles.length === 0) return Promise.resolve(0);
    return this.maintained(async () => {
      await this.withWriterPaused(async () => {
        if (this.segmentSize > 0) await this.startSegment(this.segmentIndex + 1);
      });
      let removed = 0;
      // Counted before the first segment is replaced: a crash then leaves cursors stale, never wrong.
      let counting: Promise<void> | undefined;
      const beforeReplacing = () => (counting ??= this.countCompaction());
      for (const { name } of await this.segments()) {
        if (name !== this.currentSegment) removed += await this.rewriteWithout(name, query.field, wanted, needles, beforeReplacing);
      }
      return removed;
    });
  }

  private async rewriteWithout(name: string, field: string, wanted: ReadonlySet<string>, needles: readonly string[], beforeReplacing: () => Promise<void>): Promise<number> {
    const file = join(this.directory, name);
    const kept: string[] = [];
    let removed = 0;
    await readLines(file, (line) => {
      if (line === '') return;
      if (needles.some((needle) => line.includes(needle))) {
        try {
          const value = (JSON.parse(line) as Record<string, unknown>)[field];
          if (typeof value === 'string' && wanted.has(value)) {
            removed++;
            return;
          }
        } catch {
          // unreadable: replay skips it, and it is kept as it was
        }
      }
      kept.push(line);
    });
    if (removed === 0) return 0;
    const side = `${file}${REWRITE_SUFFIX}`;
    const handle = await open(side, 'w');
    try {
      await handle.writeFile(kept.length === 0 ? '' : `${kept.join('\n')}\n`);
      await handle.datasync();
    } finally {
      await handle.close();
    }
    await beforeReplacing();
    await rename(side, file);
    await this.syncDirectory();
    await removeNewestNote(this.directory, name);
    return removed;
  }

  private async countCompaction(): Promise<void> {
    await writeCompactions(this.directory, this.compactions + 1);
    this.compactions++;
  }
  /** Runs maintenance (compaction, retention) one at a time, so a segment is never rewritten while it is dropped. */
  private maintained<T>(work: () => Promise<T>): Promise<T> {
    const run = this.maintenance.then(work, work);
    this.maintenance = run.catch(() => undefined);
    return run;
  }

  /** Holds appends in the queue (they are written right after) while `work` changes the segment being written. */
  private async withWriterPaused(work: () => Promise<void>): Promise<void> {
    while (this.draining) await this.flushing;
    this.draining = true;
    try {
      await work();
    } finally {
      this.draining = false;
      if (this.queue.length > 0) this.flushing = this.drain();
    }
  }

  /** Deletes each closed segment whose newest record is older than `cutoff`; the one being written stays. */
  dropBefore(cutoff: number): Promise<string[]> {
    return this.maintained(() => this.dropClosedBefore(cutoff));
  }

  private async dropClosedBefore(cutoff: number): Promise<string[]> {
    const dropped: string[] = [];
    for (const { name } of await this.segments()) {
      if (name === this.currentSegment) continue;
      if (!this.known.has(name)) await this.learnNewest(name);
      const newest = this.newest.get(name);
      // A segment without any timed record is kept, as there is no telling how old it is.
      if (newest === undefined || newest >= cutoff) continue;
      await rm(join(this.directory, name), { force: true });
      await removeNewestNote(this.directory, name);
      this.newest.delete(name);
      this.known.delete(name);
      dropped.push(name);
    }
    return dropped;
  }

  /** Waits for every queued append, then closes the file. */
  async close(): Promise<void> {
    if (!this.closed) this.onClose?.();
    this.closed = true;
    await this.maintenance;
    await this.flushing;
    await this.handle?.close();
    this.handle = undefined;
  }

  private timeOf(record: unknown): number {
    if (typeof record !== 'object' || record === null) return -Infinity;
    const at = (record as Record<string, unknown>)[this.timeField];
    return typeof at === 'number' && Number.isFinite(at) ? at : -Infinity;
  }

  private noteNewest(segment: string, at: number): void {
    if (at === -Infinity) return;
    this.newest.set(segment, Math.max(this.newest.get(segment) ?? -Infinity, at));
  }

  /** Learns a closed segment's newest record time this instance has not seen: from its note, else by reading it (then noted). */
  private async learnNewest(name: string): Promise<void> {
    let newest = await readNewestNote(this.directory, name);
    const read = newest === undefined;
    if (newest === undefined) {
      let at = -Infinity;
      await readLines(join(this.directory, name), (line) => {
        try {
          at = Math.max(at, this.timeOf(JSON.parse(line)));
        } catch {
          // torn or unreadable: it has no time
        }
      });
      newest = at;
    }
    this.noteNewest(name, newest);
    this.known.add(name);
    if (read) await this.writeNewestNote(name);
  }

  /** Notes the newest time of a closed segment whose every record this instance has seen (segment-notes.ts). */
  private async writeNewestNote(name: string): Promise<void> {
    if (this.known.has(name)) await writeNewestNote(this.directory, name, this.newest.get(name));
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.queue.length > 0) await this.writeBatch();
    } finally {
      this.draining = false;
    }
  }

  private async writeBatch(): Promise<void> {
    const batch = this.queue;
    this.queue = [];
    const data = Buffer.from(batch.map((p) => p.data).join(''), 'utf8');
    try {
      if (this.segmentSize > 0 && this.segmentSize + data.length > this.segmentBytes) {
        await this.startSegment(this.segmentIndex + 1);
      }
      // A write to a regular file may still return short (disk nearly full): finish it or fail.
      for (let written = 0; written < data.length; ) {
        const { bytesWritten } = await this.handle!.write(data, written, data.length - written, this.segmentSize + written);
        if (bytesWritten === 0) throw new Error('The event log could not be written (no space left?).');
        written += bytesWritten;
      }
      if (DSYNC === undefined) await this.handle!.datasync();
      this.durableWrites++;
      this.segmentSize += data.length;
      for (const pending of batch) this.noteNewest(this.currentSegment, pending.newest);
      for (const pending of batch) pending.resolve(this.currentSegment);
    } catch (error) {
      // The write may have landed partly: cut back to the last good line so later lines stay readable.
      await this.handle?.truncate(this.segmentSize).catch(() => undefined);
      for (const pending of batch) pending.reject(error);
    }
  }

  private async startSegment(index: number): Promise<void> {
    await this.handle?.close();
    if (this.handle !== undefined) await this.writeNewestNote(this.currentSegment);
    this.segmentIndex = index;
    this.handle = await open(join(this.directory, segmentName(index)), OPEN_NEW);
    this.segmentSize = 0;
    this.known.add(segmentName(index));
    // The new file's directory entry must be durable too, or a crash could lose the whole segment.
    await this.syncDirectory();
  }

  private async syncDirectory(): Promise<void> {
    const dir = await open(this.directory, 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  }
}

