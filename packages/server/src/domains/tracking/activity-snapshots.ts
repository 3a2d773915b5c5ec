/**
 * Snapshots of one tenant's activity state: what tracking and every registered aggregate keep, saved
 * through the blob store with the event-log cursor they are consistent with, so that a start restores
 * them and replays only the log after that cursor. A snapshot is a cache: the log stays the truth, and a
 * snapshot that is missing, torn, of another format version, missing a part, or whose cursor the log
 * refuses, is set aside for a full replay (one log line, never a failed start).
 *
 * The blob is gzipped JSON lines: a header (format, version, tenant, cursor, parts and their versions),
 * then one `[part, chunk]` line per chunk, then `{"end": <chunk lines>}`, so a truncated file is told
 * from a whole one. Writing and reading go in slices of a few milliseconds with the event loop served
 * in between, and gzip runs on libuv's thread pool: a large snapshot never stalls requests for long.
 */
import { once } from 'node:events';
import { Readable } from 'node:stream';
import { createGunzip, createGzip } from 'node:zlib';
import type { BlobStore } from '../../platform/blob-store/blob-store.js';
import type { SnapshotPart } from './activity-aggregate.js';

export const SNAPSHOT_FORMAT = 'discovery-kit/activity-snapshot';
/** The layout of the file itself; each part versions its own chunks. */
export const SNAPSHOT_VERSION = 1;
/** Work done between two turns of the event loop while a snapshot is written or read. */
const SLICE_MS = 8;

export interface SnapshotHeader {
  format: typeof SNAPSHOT_FORMAT;
  version: number;
  tenant: string;
  /** The event-log cursor: the snapshot holds exactly the records before it. */
  cursor: string;
  takenAt: number;
  /** The oldest record time (`receivedAt`) counted in it, null when none: past the retention, a start replays the whole log. */
  oldest: number | null;
  parts: Array<{ name: string; version: number }>;
}

/** Why a snapshot was not used; the start then replays the whole log. */
export class SnapshotRejected extends Error {}

export interface SnapshotWriteStats {
  bytes: number;
  chunks: number;
  ms: number;
  /** The longest stretch of work without a turn of the event loop. */
  longestSliceMs: number;
}

export function snapshotBlobName(tenant: string): string {
  return `snapshots/${tenant}/activities.snapshot.gz`;
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Measures stretches of synchronous work and yields once one passes SLICE_MS. */
class Slicer {
  private started = performance.now();
  longest = 0;

  due(): boolean {
    return performance.now() - this.started >= SLICE_MS;
  }

  /** Ends the slice, then waits for `wait` (other work runs meanwhile, not counted) and a turn of the event loop. */
  async yield(wait?: () => Promise<void>): Promise<void> {
    this.longest = Math.max(this.longest, performance.now() - this.started);
    await wait?.();
    await turn();
    this.started = performance.now();
  }

  finish(): void {
    this.longest = Math.max(this.longest, performance.now() - this.started);
  }
}

/** Serialises the parts' chunks for `header.tenant`, a slice at a time. */
export async function encodeSnapshot(header: SnapshotHeader, parts: readonly SnapshotPart[]): Promise<{ data: Buffer; stats: SnapshotWriteStats }> {
  const started = performance.now();
  const gzip = createGzip({ level: 3 });
  const out: Buffer[] = [];
  gzip.on('data', (bytes: Buffer) => out.push(bytes));
  const ended = once(gzip, 'end');
  let pending: string[] = [];
  const flush = async () => {
    if (pending.length === 0) return;
    const text = pending.join('');
    pending = [];
    if (!gzip.write(text)) await once(gzip, 'drain');
  };
  const slicer = new Slicer();
  pending.push(`${JSON.stringify(header)}\n`);
  let chunks = 0;
  for (const part of parts) {
    for (const chunk of part.save(header.tenant)) {
      pending.push(`${JSON.stringify([part.name, chunk])}\n`);
      chunks++;
      if (slicer.due()) await slicer.yield(flush);
    }
  }
  pending.push(`${JSON.stringify({ end: chunks })}\n`);
  await flush();
  gzip.end();
  await ended;
  slicer.finish();
  const data = Buffer.concat(out);
  return { data, stats: { bytes: data.length, chunks, ms: performance.now() - started, longestSliceMs: slicer.longest } };
}

/**
 * Reads a snapshot into the parts (each cleared first) and resolves with its header. Throws
 * SnapshotRejected (or a gzip or JSON error) when it cannot be used; parts may then hold part of it,
 * and the caller clears them.
 */
export async function decodeSnapshot(data: Buffer, expected: { tenant: string; parts: readonly SnapshotPart[]; cutoff: number }): Promise<SnapshotHeader> {
  const byName = new Map(expected.parts.map((part) => [part.name, part]));
  let header: SnapshotHeader | undefined;
  let chunks = 0;
  let ended = false;
  const slicer = new Slicer();
  const take = (line: string) => {
    if (line === '') return;
    if (ended) throw new SnapshotRejected('lines after its end');
    const value: unknown = JSON.parse(line);
    if (header === undefined) {
      header = checkHeader(value, expected.tenant, expected.parts);
      // Records past the retention are not folded by a replay: a snapshot that counts them is not used.
      if (header.oldest !== null && header.oldest < expected.cutoff) throw new SnapshotRejected('it counts activities now past the retention period');
      for (const part of expected.parts) part.clear(expected.tenant);
      return;
    }
    if (!Array.isArray(value)) {
      const end = (value as { end?: unknown }).end;
      if (end !== chunks) throw new SnapshotRejected(`it ends after ${chunks} chunks but says ${String(end)}`);
      ended = true;
      return;
    }
    const part = byName.get(value[0] as string);
    if (part === undefined) throw new SnapshotRejected(`an unknown part "${String(value[0])}"`);
    part.restore(expected.tenant, value[1]);
    chunks++;
  };
  let rest = '';
  for await (const piece of Readable.from([data]).pipe(createGunzip())) {
    const text = rest + (piece as Buffer).toString('utf8');
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      take(text.slice(start, end));
      start = end + 1;
      if (slicer.due()) await slicer.yield();
    }
    rest = text.slice(start);
  }
  take(rest);
  if (header === undefined) throw new SnapshotRejected('it is empty');
  if (!ended) throw new SnapshotRejected('it is truncated');
  return header;
}

function checkHeader(value: unknown, tenant: string, parts: readonly SnapshotPart[]): SnapshotHeader {
  const header = value as Partial<SnapshotHeader>;
  if (header.format !== SNAPSHOT_FORMAT) throw new SnapshotRejected('it is not an activity snapshot');
  if (header.version !== SNAPSHOT_VERSION) throw new SnapshotRejected(`it has format version ${String(header.version)}, this server reads ${SNAPSHOT_VERSION}`);
  if (header.tenant !== tenant) throw new SnapshotRejected(`it belongs to tenant "${String(header.tenant)}"`);
  if (typeof header.cursor !== 'string' || !Array.isArray(header.parts) || (header.oldest !== null && typeof header.oldest !== 'number')) throw new SnapshotRejected('its header is incomplete');
  const saved = new Map(header.parts.map((p) => [p.name, p.version]));
  for (const part of parts) {
    if (saved.get(part.name) !== part.version) throw new SnapshotRejected(`its part "${part.name}" is missing or of another version`);
  }
  return header as SnapshotHeader;
}

export function snapshotHeader(tenant: string, cursor: string, takenAt: number, oldest: number | undefined, parts: readonly SnapshotPart[]): SnapshotHeader {
  return { format: SNAPSHOT_FORMAT, version: SNAPSHOT_VERSION, tenant, cursor, takenAt, oldest: oldest ?? null, parts: parts.map((p) => ({ name: p.name, version: p.version })) };
}

/** Reads the tenant's snapshot blob, or undefined when there is none. */
export function readSnapshotBlob(blobs: BlobStore, tenant: string): Promise<Buffer | undefined> {
  return blobs.get(snapshotBlobName(tenant));
}
