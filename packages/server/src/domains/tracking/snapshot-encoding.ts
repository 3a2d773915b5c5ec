/**
 * Binary snapshot chunks (activity-snapshots.ts): a part that keeps many small records writes them as
 * length-prefixed strings and packed numbers instead of JSON, so that a restore reads them straight
 * into the structures it keeps, without parsing text or building an object per value.
 * All numbers are little-endian; a string is its UTF-8 byte length (u32) and its bytes.
 */
import type { LoggedActivity } from './activity-record.js';

export class ChunkWriter {
  private bytes = Buffer.allocUnsafe(64 * 1024);
  private at = 0;

  /** Bytes written so far (parts cut chunks at a few hundred kilobytes). */
  get length(): number {
    return this.at;
  }

  private room(n: number): void {
    if (this.at + n <= this.bytes.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.at + n));
    this.bytes.copy(bigger, 0, 0, this.at);
    this.bytes = bigger;
  }

  u32(value: number): void {
    this.room(4);
    this.bytes.writeUInt32LE(value, this.at);
    this.at += 4;
  }

  f64(value: number): void {
    this.room(8);
    this.bytes.writeDoubleLE(value, this.at);
    this.at += 8;
  }

  string(value: string): void {
    const length = Buffer.byteLength(value);
    this.room(4 + length);
    this.bytes.writeUInt32LE(length, this.at);
    this.bytes.write(value, this.at + 4, length, 'utf8');
    this.at += 4 + length;
  }

  /** The raw bytes of a typed array (its length is the caller's to write). */
  array(values: Int32Array | Float32Array | Float64Array): void {
    const view = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
    this.room(view.length);
    this.bytes.set(view, this.at);
    this.at += view.length;
  }

  /** The chunk written, and a fresh start for the next. */
  take(): Buffer {
    const chunk = Buffer.from(this.bytes.subarray(0, this.at));
    this.at = 0;
    return chunk;
  }
}

/** Reads what a ChunkWriter wrote; reading past the end throws (a snapshot that does so is refused). */
export class ChunkReader {
  private at = 0;

  constructor(private readonly bytes: Buffer) {}

  get done(): boolean {
    return this.at >= this.bytes.length;
  }

  private need(n: number): number {
    const at = this.at;
    if (at + n > this.bytes.length) throw new RangeError('a snapshot chunk ends early');
    this.at += n;
    return at;
  }

  u32(): number {
    return this.bytes.readUInt32LE(this.need(4));
  }

  f64(): number {
    return this.bytes.readDoubleLE(this.need(8));
  }

  string(): string {
    const length = this.u32();
    const at = this.need(length);
    return this.bytes.toString('utf8', at, at + length);
  }

  /** Fills `into` from the next bytes (copied: the chunk's buffer is not kept). */
  array(into: Int32Array | Float32Array | Float64Array): void {
    const at = this.need(into.byteLength);
    new Uint8Array(into.buffer, into.byteOffset, into.byteLength).set(this.bytes.subarray(at, at + into.byteLength));
  }
}

/**
 * An activity kept in memory by the history or the idempotency memory: the object the log holds when
 * it was recorded or replayed, or its JSON text when a snapshot restored it (no parsing at start).
 */
export type KeptActivity = string | LoggedActivity;

export function activityOf(kept: KeptActivity): LoggedActivity {
  return typeof kept === 'string' ? (JSON.parse(kept) as LoggedActivity) : kept;
}

export function textOf(kept: KeptActivity): string {
  return typeof kept === 'string' ? kept : JSON.stringify(kept);
}
