/**
 * Snapshots of one tenant's activity state: what tracking and every registered aggregate keep, saved
 * through the blob store with the event-log cursor they are consistent with, so that a start restores
 * them and replays only the log after that cursor. A snapshot is a cache: the log stays the truth, and a
 * snapshot that is missing, torn, of another format version, missing a part, or whose cursor the log
 * refuses, is set aside for a full replay (one log line, never a failed start).
 *
 * The blob is gzipped (fast level, on libuv's thread pool): a JSON header line (format, version,
 * tenant, cursor, parts and their versions), then one frame per chunk, then an end frame counting the
 * chunks, so a truncated file is told from a whole one. A frame is its payload length (u32 LE), its
 * kind (u8: JSON text, binary, end) and the index of its part in the header (u8), then the payload. A
 * part's chunk is JSON unless it is a Uint8Array (snapshot-encoding.ts): the large parts write binary,
 * which restores without parsing text. Writing and reading go in slices of a few milliseconds with the
 * event loop served in between: a large snapshot never stalls requests for long.
 */
import { once } from 'node:events';
import { Readable } from 'node:stream';
import { createGunzip, createGzip } from 'node:zlib';
import type { BlobStore } from '../../platform/blob-store/blob-store.js';
import type { SnapshotPart } from './activity-aggregate.js';

export const SNAPSHOT_FORMAT = 'discovery-kit/activity-snapshot';
/** The layout of the file itself (1: JSON lines; 2: binary frames); each part versions its own chunks. */
export const SNAPSHOT_VERSION = 2;
const FRAME_JSON = 0;
const FRAME_BINARY = 1;
const FRAME_END = 2;
const FRAME_HEADER_BYTES = 6;
/** No chunk comes near this; a frame claiming more is damage, refused before anything is allocated. */
const MAX_FRAME_BYTES = 256 * 2 ** 20;
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
  /** The longest single step of one part's chunk maker (a slice cannot end inside one), and the part. */
  longestStep: { part: string; ms: number };
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

function frameHeader(kind: number, part: number, length: number): Buffer {
  const head = Buffer.allocUnsafe(FRAME_HEADER_BYTES);
  head.writeUInt32LE(length, 0);
  head.writeUInt8(kind, 4);
  head.writeUInt8(part, 5);
  return head;
}

/** Serialises the parts' chunks for `header.tenant`, a slice at a time. */
export async function encodeSnapshot(header: SnapshotHeader, parts: readonly SnapshotPart[]): Promise<{ data: Buffer[]; stats: SnapshotWriteStats }> {
  const started = performance.now();
  const gzip = createGzip({ level: 1, chunkSize: 256 * 1024 });
  const out: Buffer[] = [];
  gzip.on('data', (bytes: Buffer) => out.push(bytes));
  const ended = once(gzip, 'end');
  let pending: Uint8Array[] = [];
  const flush = async () => {
    if (pending.length === 0) return;
    const bytes = Buffer.concat(pending);
    pending = [];
    if (!gzip.write(bytes)) await once(gzip, 'drain');
  };
  const slicer = new Slicer();
  pending.push(Buffer.from(`${JSON.stringify(header)}\n`));
  let chunks = 0;
  let longestStep = { part: '', ms: 0 };
  for (const [index, part] of parts.entries()) {
    const steps = part.save(header.tenant)[Symbol.iterator]();
    for (;;) {
      const stepStarted = performance.now();
      const next = steps.next();
      const stepMs = performance.now() - stepStarted;
      if (stepMs > longestStep.ms) longestStep = { part: part.name, ms: stepMs };
      if (next.done === true) break;
      const chunk = next.value;
      const binary = chunk instanceof Uint8Array;
      const payload: Uint8Array = binary ? chunk : Buffer.from(JSON.stringify(chunk));
      pending.push(frameHeader(binary ? FRAME_BINARY : FRAME_JSON, index, payload.length), payload);
      chunks++;
      if (slicer.due()) await slicer.yield(flush);
    }
  }
  const end = Buffer.allocUnsafe(4);
  end.writeUInt32LE(chunks);
  pending.push(frameHeader(FRAME_END, 0, 4), end);
  await flush();
  gzip.end();
  await ended;
  slicer.finish();
  // The pieces gzip made, not joined: the blob store writes them one after the other, and a join of
  // tens of megabytes was one long step (25 to 90 ms here, more when it set off a collection).
  const bytes = out.reduce((n, piece) => n + piece.length, 0);
  return { data: out, stats: { bytes, chunks, ms: performance.now() - started, longestSliceMs: slicer.longest, longestStep } };
}

/** Bytes as they come out of gunzip, taken off the front in frames without copying more than once. */
class ByteQueue {
  private pieces: Buffer[] = [];
  length = 0;

  push(piece: Buffer): void {
    this.pieces.push(piece);
    this.length += piece.length;
  }

  unshift(piece: Buffer): void {
    this.pieces.unshift(piece);
    this.length += piece.length;
  }

  /** The index of the first `byte` within the first `limit` bytes, or -1. */
  indexOf(byte: number, limit: number): number {
    let base = 0;
    for (const piece of this.pieces) {
      const at = piece.subarray(0, Math.max(0, limit - base)).indexOf(byte);
      if (at !== -1) return base + at;
      base += piece.length;
      if (base >= limit) break;
    }
    return -1;
  }

  take(n: number): Buffer {
    let joined: Buffer;
    if (this.pieces[0]!.length >= n) {
      joined = this.pieces[0]!;
    } else {
      let count = 0;
      let bytes = 0;
      while (bytes < n) bytes += this.pieces[count++]!.length;
      joined = Buffer.concat(this.pieces.splice(0, count, Buffer.alloc(0)), bytes);
    }
    const taken = joined.subarray(0, n);
    const rest = joined.subarray(n);
    if (rest.length > 0) this.pieces[0] = rest;
    else this.pieces.shift();
    this.length -= n;
    return taken;
  }
}

/**
 * Reads a snapshot into the parts (each cleared first) and resolves with its header. Throws
 * SnapshotRejected (or a gzip, JSON or chunk error) when it cannot be used; parts may then hold part
 * of it, and the caller clears them.
 */
export async function decodeSnapshot(data: Buffer, expected: { tenant: string; parts: readonly SnapshotPart[]; cutoff: number }): Promise<SnapshotHeader> {
  const byName = new Map(expected.parts.map((part) => [part.name, part]));
  let header: SnapshotHeader | undefined;
  let saved: Array<SnapshotPart | undefined> = [];
  let chunks = 0;
  let ended = false;
  const slicer = new Slicer();
  const queue = new ByteQueue();
  /** Takes what is complete off the queue; false when it needs more bytes. */
  const step = (): boolean => {
    if (header === undefined) {
      const newline = queue.indexOf(0x0a, 64 * 1024);
      if (newline === -1) {
        if (queue.length >= 64 * 1024) throw new SnapshotRejected('it is not an activity snapshot');
        return false;
      }
      header = checkHeader(JSON.parse(queue.take(newline + 1).toString('utf8')), expected.tenant, expected.parts);
      // Records past the retention are not folded by a replay: a snapshot that counts them is not used.
      if (header.oldest !== null && header.oldest < expected.cutoff) throw new SnapshotRejected('it counts activities now past the retention period');
      saved = header.parts.map((p) => byName.get(p.name));
      for (const part of expected.parts) part.clear(expected.tenant);
      return true;
    }
    if (queue.length < FRAME_HEADER_BYTES) return false;
    const head = queue.take(FRAME_HEADER_BYTES);
    const length = head.readUInt32LE(0);
    const kind = head.readUInt8(4);
    if (length > MAX_FRAME_BYTES) throw new SnapshotRejected(`a chunk claims ${length} bytes`);
    if (ended) throw new SnapshotRejected('it goes on after its end');
    if (queue.length < length) {
      // Put the frame's head back in front: the rest of the frame is still in the gzip stream.
      queue.unshift(head);
      return false;
    }
    const payload = queue.take(length);
    if (kind === FRAME_END) {
      const count = length === 4 ? payload.readUInt32LE(0) : -1;
      if (count !== chunks) throw new SnapshotRejected(`it ends after ${chunks} chunks but says ${count}`);
      ended = true;
      return true;
    }
    const part = saved[head.readUInt8(5)];
    if (part === undefined) throw new SnapshotRejected(`a chunk of an unknown part (${head.readUInt8(5)})`);
    if (kind === FRAME_BINARY) part.restore(expected.tenant, payload);
    else if (kind === FRAME_JSON) part.restore(expected.tenant, JSON.parse(payload.toString('utf8')));
    else throw new SnapshotRejected(`a chunk of unknown kind ${kind}`);
    chunks++;
    return true;
  };
  for await (const piece of Readable.from([data]).pipe(createGunzip({ chunkSize: 256 * 1024 }))) {
    queue.push(piece as Buffer);
    while (step()) if (slicer.due()) await slicer.yield();
  }
  if (header === undefined) throw new SnapshotRejected(queue.length === 0 ? 'it is empty' : 'it is not an activity snapshot');
  if (!ended || queue.length > 0) throw new SnapshotRejected(ended ? 'it goes on after its end' : 'it is truncated');
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
