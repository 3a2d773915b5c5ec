/**
 * The file adapter's cursors, `<compactions>:<segment number>:<byte offset>`, and the count of
 * compactions they carry. Offsets stay true while segments are only appended to or dropped whole;
 * compaction rewrites segments, so it raises the count (kept in the log's `compactions` file) before
 * it replaces any of them, and every cursor naming an older count is stale.
 */
import { open, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';

export const COMPACTIONS_FILE = 'compactions';
/** The count being replaced; a dot file, so backups skip it as a write in progress. */
export const COMPACTIONS_SIDE_FILE = `.${COMPACTIONS_FILE}.tmp`;

const CURSOR = /^(\d{1,15}):(\d{1,15}):(\d{1,15})$/;

export interface FileCursor {
  compactions: number;
  /** The segment's number (segment-000003.jsonl is 3). */
  index: number;
  /** Bytes of the segment before the place: always just after a newline, or 0. */
  offset: number;
}

export function formatFileCursor(cursor: FileCursor): string {
  return `${cursor.compactions}:${cursor.index}:${cursor.offset}`;
}

export function parseFileCursor(text: string): FileCursor | undefined {
  const match = CURSOR.exec(text);
  return match === null ? undefined : { compactions: Number(match[1]), index: Number(match[2]), offset: Number(match[3]) };
}

export async function readCompactions(directory: string): Promise<number> {
  try {
    const count = Number((await readFile(join(directory, COMPACTIONS_FILE), 'utf8')).trim());
    return Number.isSafeInteger(count) && count >= 0 ? count : 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
}

/** Durably replaces the count (side file, fsync, rename, directory fsync). */
export async function writeCompactions(directory: string, count: number): Promise<void> {
  const side = join(directory, COMPACTIONS_SIDE_FILE);
  const handle = await open(side, 'w');
  try {
    await handle.writeFile(`${count}\n`);
    await handle.datasync();
  } finally {
    await handle.close();
  }
  await rename(side, join(directory, COMPACTIONS_FILE));
  const dir = await open(directory, 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
}

/** Whether the byte before `offset` is a newline: a cursor always follows a complete line. */
export async function endsLineAt(file: string, offset: number): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const byte = Buffer.alloc(1);
    const { bytesRead } = await handle.read(byte, 0, 1, offset - 1);
    return bytesRead === 1 && byte[0] === 0x0a;
  } finally {
    await handle.close();
  }
}
