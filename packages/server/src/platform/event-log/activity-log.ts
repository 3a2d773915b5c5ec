/**
 * An append-only, segmented log of JSON lines with group commit: appends wait in memory while the
 * previous batch is being fsynced, then go to disk together, so durability costs one fsync per batch
 * rather than per activity. An append's promise resolves only after the fsync that covers it.
 */
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';

export interface ActivityLogOptions {
  directory: string;
  /** A segment is closed and a new one started once it would pass this size. */
  segmentBytes: number;
}

interface Pending {
  data: string;
  resolve: () => void;
  reject: (error: unknown) => void;
}

const SEGMENT_NAME = /^segment-(\d{6,})\.jsonl$/;

export function segmentName(index: number): string {
  return `segment-${String(index).padStart(6, '0')}.jsonl`;
}

export class ActivityLog {
  readonly directory: string;
  private readonly segmentBytes: number;
  private handle: FileHandle | undefined;
  private segmentIndex = 0;
  private segmentSize = 0;
  private queue: Pending[] = [];
  private flushing: Promise<void> = Promise.resolve();
  /** Cleared in the same tick the queue is seen empty, so an append never waits for a drain that already ended. */
  private draining = false;
  private closed = false;

  private constructor(options: ActivityLogOptions) {
    this.directory = options.directory;
    this.segmentBytes = options.segmentBytes;
  }

  /** Opens the log, cutting off a line torn by a crash so that new lines never join it. */
  static async open(options: ActivityLogOptions): Promise<ActivityLog> {
    const log = new ActivityLog(options);
    await mkdir(options.directory, { recursive: true });
    const segments = await log.segments();
    const last = segments.at(-1);
    if (last === undefined) {
      await log.startSegment(1);
    } else {
      log.segmentIndex = last.index;
      log.handle = await open(join(options.directory, last.name), 'r+');
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

  get currentSegment(): string {
    return segmentName(this.segmentIndex);
  }

  /** Appends records as one group; resolves once they are on disk. */
  append(records: readonly unknown[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error('The activity log is closed.'));
    if (records.length === 0) return Promise.resolve();
    let data = '';
    for (const record of records) data += `${JSON.stringify(record)}\n`;
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ data, resolve, reject });
      if (!this.draining) this.flushing = this.drain();
    });
  }

  /** Reads every line of every segment, oldest first; a line that does not parse (torn by a crash) is skipped. */
  async replay(onRecord: (record: unknown, segment: string) => void): Promise<{ records: number; skipped: number }> {
    let records = 0;
    let skipped = 0;
    for (const { name } of await this.segments()) {
      let rest = '';
      const take = (line: string) => {
        if (line === '') return;
        try {
          onRecord(JSON.parse(line), name);
          records++;
        } catch {
          skipped++;
        }
      };
      for await (const chunk of createReadStream(join(this.directory, name), { encoding: 'utf8', highWaterMark: 1 << 20 })) {
        const text = rest + (chunk as string);
        let start = 0;
        for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
          take(text.slice(start, end));
          start = end + 1;
        }
        rest = text.slice(start);
      }
      take(rest);
    }
    return { records, skipped };
  }

  /** Deletes closed segments; the current one is never dropped. */
  async dropSegments(names: readonly string[]): Promise<void> {
    for (const name of names) {
      if (name === this.currentSegment) continue;
      await rm(join(this.directory, name), { force: true });
    }
  }

  /** Waits for every queued append, then closes the file. */
  async close(): Promise<void> {
    this.closed = true;
    await this.flushing;
    await this.handle?.close();
    this.handle = undefined;
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
        if (bytesWritten === 0) throw new Error('The activity log could not be written (no space left?).');
        written += bytesWritten;
      }
      await this.handle!.datasync();
      this.segmentSize += data.length;
      for (const pending of batch) pending.resolve();
    } catch (error) {
      // The write may have landed partly: cut back to the last good line so later lines stay readable.
      await this.handle?.truncate(this.segmentSize).catch(() => undefined);
      for (const pending of batch) pending.reject(error);
    }
  }

  private async startSegment(index: number): Promise<void> {
    await this.handle?.close();
    this.segmentIndex = index;
    this.handle = await open(join(this.directory, segmentName(index)), 'wx+');
    this.segmentSize = 0;
    // The new file's directory entry must be durable too, or a crash could lose the whole segment.
    const dir = await open(this.directory, 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  }
}

/** Returns the size up to and including the last newline, truncating anything after it. */
async function cutTornTail(handle: FileHandle): Promise<number> {
  const { size } = await handle.stat();
  const chunk = Buffer.alloc(64 * 1024);
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - chunk.length);
    const { bytesRead } = await handle.read(chunk, 0, end - start, start);
    const at = chunk.subarray(0, bytesRead).lastIndexOf(0x0a);
    if (at !== -1) {
      const good = start + at + 1;
      if (good !== size) await handle.truncate(good);
      return good;
    }
    end = start;
  }
  if (size > 0) await handle.truncate(0);
  return 0;
}
