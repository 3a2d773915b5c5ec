/** Reading the lines of one JSON-lines segment file: all of them, only those holding given bytes, and the torn tail a crash leaves. */
import { createReadStream } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';

const NEWLINE = 0x0a;

/** Calls `take` with every line of the file, in order, including a last line without a newline. */
export async function readLines(file: string, take: (line: string) => void): Promise<void> {
  let rest = '';
  for await (const chunk of createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
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

/**
 * Calls `take` with every complete line (ended by a newline) from byte `start` up to byte `end`
 * (exclusive; the file's end when absent), in order, and resolves with the byte offset just after the
 * last of them, which a later read may start from. What follows the last newline (a line being
 * written, or one torn by a crash) is not handed over; `tail` says how many bytes it held.
 */
export async function readCompleteLines(file: string, range: { start: number; end?: number }, take: (line: string) => void): Promise<{ offset: number; tail: number }> {
  let offset = range.start;
  let rest: Buffer = Buffer.alloc(0);
  if (range.end !== undefined && range.end <= range.start) return { offset, tail: 0 };
  const stream = createReadStream(file, { start: range.start, ...(range.end === undefined ? {} : { end: range.end - 1 }), highWaterMark: 1 << 20 });
  for await (const chunk of stream) {
    const bytes = rest.length === 0 ? (chunk as Buffer) : Buffer.concat([rest, chunk as Buffer]);
    const complete = bytes.lastIndexOf(NEWLINE);
    if (complete === -1) {
      rest = bytes;
      continue;
    }
    // One decode per chunk, then a split: far cheaper than a decode per line.
    const text = bytes.toString('utf8', 0, complete);
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      take(text.slice(start, end));
      start = end + 1;
    }
    take(text.slice(start));
    offset += complete + 1;
    rest = Buffer.from(bytes.subarray(complete + 1));
  }
  return { offset, tail: rest.length };
}

/**
 * Calls `take` with each line of the file holding one of `needles`, once per line, in file order.
 * Bytes, not text: searching the raw chunk skips decoding the whole file; only matched lines are decoded.
 */
export async function readLinesHolding(file: string, needles: readonly Buffer[], take: (line: string) => void): Promise<void> {
  let rest = Buffer.alloc(0);
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
    const bytes = rest.length === 0 ? (chunk as Buffer) : Buffer.concat([rest, chunk as Buffer]);
    const complete = bytes.lastIndexOf(NEWLINE);
    rest = Buffer.from(bytes.subarray(complete + 1));
    for (const line of linesHolding(bytes, complete, needles)) take(line);
  }
  for (const line of linesHolding(rest, rest.length, needles)) take(line);
}

/** The lines of `bytes` before `end` that hold one of `needles`, decoded, in file order, each once. */
function linesHolding(bytes: Buffer, end: number, needles: readonly Buffer[]): string[] {
  const hits: Array<[number, string]> = [];
  for (const needle of needles) {
    for (let at = bytes.indexOf(needle); at !== -1 && at < end; ) {
      const lineStart = bytes.lastIndexOf(NEWLINE, at) + 1;
      const found = bytes.indexOf(NEWLINE, at);
      const lineEnd = found === -1 || found > end ? end : found;
      hits.push([lineStart, bytes.toString('utf8', lineStart, lineEnd)]);
      at = bytes.indexOf(needle, lineEnd);
    }
  }
  if (needles.length > 1) hits.sort((a, b) => a[0] - b[0]);
  // A line holding two of the needles (an id in a nested field too) is still one record.
  return hits.filter(([start], i) => i === 0 || hits[i - 1]![0] !== start).map(([, line]) => line);
}

/** Returns the size up to and including the last newline, truncating anything after it. */
export async function cutTornTail(handle: FileHandle): Promise<number> {
  const { size } = await handle.stat();
  const chunk = Buffer.alloc(64 * 1024);
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - chunk.length);
    const { bytesRead } = await handle.read(chunk, 0, end - start, start);
    const at = chunk.subarray(0, bytesRead).lastIndexOf(NEWLINE);
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
