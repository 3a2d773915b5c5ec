/**
 * Beside each closed segment of the file event log, the newest record time in it (`none` when it has
 * no timed record), so that the retention pass at a start need not read every segment it did not
 * replay (seconds at a million records). Best effort: a missing or unreadable note means the segment
 * is read once more. A compaction removes the note of a segment it rewrites; a crash before that
 * leaves a note at least as new as the records (removal only removes), which keeps the segment
 * longer, never shorter.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

function noteFile(directory: string, segment: string): string {
  return join(directory, segment.replace(/\.jsonl$/, '.newest'));
}

/** The noted newest time (-Infinity: no timed record), or undefined when there is no usable note. */
export async function readNewestNote(directory: string, segment: string): Promise<number | undefined> {
  const noted = await readFile(noteFile(directory, segment), 'utf8').catch(() => undefined);
  if (noted === 'none') return -Infinity;
  if (noted === undefined || noted.trim() === '') return undefined;
  const at = Number(noted);
  return Number.isFinite(at) ? at : undefined;
}

/** Notes a closed segment's newest time (undefined: none); a failure only costs a read later. */
export async function writeNewestNote(directory: string, segment: string, newest: number | undefined): Promise<void> {
  await writeFile(noteFile(directory, segment), newest === undefined ? 'none' : String(newest)).catch(() => undefined);
}

export async function removeNewestNote(directory: string, segment: string): Promise<void> {
  await rm(noteFile(directory, segment), { force: true });
}
