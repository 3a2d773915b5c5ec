/**
 * A search index in a compact binary form, written through the BlobStore after a build so that a
 * restart restores the index instead of building it again (search-indexes.ts decides when).
 *
 * What is kept is what a build spends its time on: the term maps of each FlexSearch Index (every
 * prefix of every word, with the slots holding it per position score) and the typo vocabulary's word
 * counts. Everything else (documents, titles, columns, sort orders) is computed again from the stored
 * items, which the restore reads anyway. Each slot's indexed text is fingerprinted, so a snapshot that
 * no longer matches the items (a write after it was taken) is refused rather than served.
 *
 * Layout: "DKIX", the format version, the CRC-32 of the rest, then chunks, each a 32-bit length and
 * its bytes padded to 4: a JSON header, then per FlexSearch Index its terms (UTF-8, NUL-separated)
 * and its postings (32-bit words: per term a mask of the position scores present, then per score
 * its slot count and slots).
 */
import { crc32 } from 'node:zlib';

/** Bumped whenever the layout or what an index computes from its items changes: older snapshots are refused. */
export const SNAPSHOT_FORMAT = 1;
const MAGIC = 0x58494b44; // "DKIX" little-endian

/** One FlexSearch Index's term map as FlexSearch keeps it: term → per position score, the slots. */
export type TermMap = Map<string, (number[] | undefined)[]>;

/** The parts of FlexSearch's Index a snapshot reads and fills (fastupdate off: `reg` is the set of slots held). */
export interface FlexInternals {
  map: TermMap;
  reg: Set<number>;
}

export interface SnapshotHeader {
  format: number;
  catalogVersion: number;
  fields: string[];
  /** Slot → item id, null for a removed slot. */
  ids: (string | null)[];
  /** Slot → fingerprint of the text indexed for it (`textPrint`). */
  prints: number[];
  /** Typo vocabulary: words and how many documents hold each. */
  words: string[];
  counts: number[];
}

export interface DecodedSnapshot {
  header: SnapshotHeader;
  /** Per FlexSearch Index (the fields' in order, then the word index): its terms and postings. */
  maps: { terms: string[]; postings: Uint32Array }[];
}

/** A fingerprint of the text indexed for one slot: a changed text (a write after the snapshot) changes it. */
export function textPrint(id: string, texts: readonly string[]): number {
  let h = 0x811c9dc5;
  h = mix(h, id);
  for (const text of texts) h = mix(Math.imul(h ^ 1, 0x01000193), text);
  return h | 0;
}

function mix(hash: number, text: string): number {
  let h = hash;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h;
}

/** Postings copied per step of `encodeTermMap` (about a millisecond's work). */
const POSTINGS_STEP = 65_536;

/** One term map in binary form, a few hundred terms per step; the postings array is sized exactly by a first pass. */
export function* encodeTermMap(map: TermMap): Generator<unknown, { terms: string[]; postings: Uint32Array }> {
  let size = 0;
  let n = 0;
  for (const scores of map.values()) {
    let any = false;
    for (const slots of scores) {
      if (slots === undefined || slots.length === 0) continue;
      size += 1 + slots.length;
      any = true;
    }
    if (any) size++;
    if ((++n & 1023) === 0) yield;
  }
  const terms: string[] = [];
  const out = new Uint32Array(size);
  let at = 0;
  // Steps end by postings copied, not terms: a word in most items has tens of thousands of them.
  let stepEnds = POSTINGS_STEP;
  for (const [term, scores] of map) {
    let mask = 0;
    for (let s = 0; s < scores.length; s++) if ((scores[s]?.length ?? 0) > 0) mask |= 1 << s;
    // An emptied term (all its slots removed) is left out: FlexSearch answers it as absent either way.
    if (mask === 0) continue;
    terms.push(term);
    out[at++] = mask;
    for (let s = 0; s < scores.length; s++) {
      const slots = scores[s];
      if (slots === undefined || slots.length === 0) continue;
      out[at++] = slots.length;
      for (let i = 0; i < slots.length; i++) out[at++] = slots[i]!;
    }
    if (at >= stepEnds || (++n & 255) === 0) {
      stepEnds = at + POSTINGS_STEP;
      yield;
    }
  }
  return { terms, postings: out };
}

/**
 * Fills an empty FlexSearch Index's term map and its set of slots from a snapshot's form, a few hundred
 * terms per step; `slots` bounds the slot numbers, so a damaged posting cannot plant a wild one.
 */
export function* restoreTermMap(target: FlexInternals, form: DecodedSnapshot['maps'][number], slots: number): Generator<unknown, void> {
  const { terms, postings } = form;
  const reg = target.reg;
  const held = new Uint8Array(slots);
  let at = 0;
  for (let t = 0; t < terms.length; t++) {
    const mask = postings[at++]!;
    const scores: (number[] | undefined)[] = [];
    for (let s = 0; s < 32 && mask >>> s !== 0; s++) {
      if ((mask & (1 << s)) === 0) {
        scores.push(undefined);
        continue;
      }
      const count = postings[at++]!;
      if (count === undefined || at + count > postings.length) throw new Error('postings end early');
      const list: number[] = new Array(count);
      for (let i = 0; i < count; i++) {
        const slot = postings[at + i]!;
        if (slot >= slots) throw new Error('a posting names a slot the snapshot does not have');
        list[i] = slot;
        if (held[slot] === 0) {
          held[slot] = 1;
          reg.add(slot);
        }
      }
      at += count;
      scores.push(list);
    }
    target.map.set(terms[t]!, scores);
    if ((t & 255) === 255) yield;
  }
  if (at !== postings.length) throw new Error('postings do not match the terms');
}

/** Bytes checksummed per step: the CRC of a 40 MB snapshot is 100-200 ms here, far too long for one step. */
const CRC_STEP = 1 << 18;
/** Bytes copied into the snapshot per step (a postings chunk can be tens of megabytes, and first writes to fresh pages are slow in a VM). */
const COPY_STEP = 1 << 18;
/** Header values (ids, fingerprints, words, counts) or terms turned into text and encoded per step. */
const TEXT_STEP = 4_096;

/**
 * Chunks of bytes in the layout above. Every step is a bounded piece of work (about a millisecond): the
 * header's long arrays and the terms are written as text a few thousand values at a time, and the bytes
 * are copied and checksummed a quarter megabyte at a time. Written as one
 * `JSON.stringify` and one copy per chunk, the header of a 100,000-item catalog and its largest
 * postings chunk each held the event loop 12-22 ms, and the snapshot is written while the server serves.
 */
export function* encodeSnapshot(header: SnapshotHeader, maps: readonly { terms: readonly string[]; postings: Uint32Array }[]): Generator<unknown, Uint8Array> {
  // Each chunk as its pieces: the bytes are the pieces one after the other.
  const chunks: Uint8Array[][] = [yield* headerPieces(header)];
  for (const map of maps) {
    chunks.push(yield* textPieces(map.terms, '\u0000', (batch) => batch.join('\u0000')));
    chunks.push([new Uint8Array(map.postings.buffer, map.postings.byteOffset, map.postings.byteLength)]);
  }
  let size = 12;
  const lengths = chunks.map((pieces) => pieces.reduce((n, piece) => n + piece.length, 0));
  for (const length of lengths) size += 4 + pad(length);
  const bytes = new Uint8Array(size);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, SNAPSHOT_FORMAT, true);
  let at = 12;
  for (let c = 0; c < chunks.length; c++) {
    view.setUint32(at, lengths[c]!, true);
    let to = at + 4;
    for (const piece of chunks[c]!) {
      for (let from = 0; from < piece.length; from += COPY_STEP) {
        bytes.set(piece.subarray(from, Math.min(piece.length, from + COPY_STEP)), to + from);
        yield;
      }
      to += piece.length;
    }
    at += 4 + pad(lengths[c]!);
  }
  let crc = 0;
  for (let from = 12; from < size; from += CRC_STEP) {
    crc = crc32(bytes.subarray(from, Math.min(size, from + CRC_STEP)), crc);
    yield;
  }
  view.setUint32(8, crc, true);
  return bytes;
}

/** The header's JSON (the text `JSON.stringify(header)` gives), encoded in pieces: its arrays TEXT_STEP values per step. */
function* headerPieces(header: SnapshotHeader): Generator<unknown, Uint8Array[]> {
  const text = new TextEncoder();
  const pieces: Uint8Array[] = [text.encode(`{"format":${JSON.stringify(header.format)},"catalogVersion":${JSON.stringify(header.catalogVersion)},"fields":${JSON.stringify(header.fields)}`)];
  for (const name of ['ids', 'prints', 'words', 'counts'] as const) {
    pieces.push(text.encode(`,"${name}":[`));
    // JSON.stringify of an array is its elements' JSON joined by commas, inside brackets.
    const values: readonly unknown[] = header[name];
    pieces.push(...(yield* textPieces(values, ',', (batch) => JSON.stringify(batch).slice(1, -1))));
    pieces.push(text.encode(']'));
  }
  pieces.push(text.encode('}'));
  return pieces;
}

/** `values` as the text `write` makes of them with `separator` between values, encoded TEXT_STEP values per step. */
function* textPieces<T>(values: readonly T[], separator: string, write: (batch: readonly T[]) => string): Generator<unknown, Uint8Array[]> {
  const text = new TextEncoder();
  const pieces: Uint8Array[] = [];
  for (let from = 0; from < values.length; from += TEXT_STEP) {
    pieces.push(text.encode((from === 0 ? '' : separator) + write(values.slice(from, from + TEXT_STEP))));
    yield;
  }
  return pieces;
}

/** The snapshot in `bytes`, or why it is refused (damaged, truncated, another format). */
export function decodeSnapshot(bytes: Uint8Array): DecodedSnapshot | string {
  if (bytes.length < 12) return 'the snapshot is shorter than its header';
  // Postings are read as 32-bit words in place: the bytes must start on a 4-byte boundary.
  const own = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  const view = new DataView(own.buffer, own.byteOffset, own.byteLength);
  if (view.getUint32(0, true) !== MAGIC) return 'the blob is not a search index snapshot';
  if (view.getUint32(4, true) !== SNAPSHOT_FORMAT) return `the snapshot has format ${view.getUint32(4, true)}, this server reads format ${SNAPSHOT_FORMAT}`;
  if (view.getUint32(8, true) !== crc32(own.subarray(12))) return 'the snapshot is damaged or incomplete (its checksum does not match)';
  const chunks: Uint8Array[] = [];
  let at = 12;
  while (at < own.length) {
    if (at + 4 > own.length) return 'the snapshot ends inside a chunk';
    const length = view.getUint32(at, true);
    if (at + 4 + length > own.length) return 'the snapshot ends inside a chunk';
    chunks.push(own.subarray(at + 4, at + 4 + length));
    at += 4 + pad(length);
  }
  const text = new TextDecoder();
  let header: SnapshotHeader;
  try {
    header = JSON.parse(text.decode(chunks[0])) as SnapshotHeader;
  } catch {
    return 'the snapshot header is not JSON';
  }
  if (chunks.length !== 1 + 2 * (header.fields.length + 1)) return 'the snapshot does not hold a term map per field';
  const maps: DecodedSnapshot['maps'] = [];
  for (let i = 1; i < chunks.length; i += 2) {
    const terms = text.decode(chunks[i]);
    const raw = chunks[i + 1]!;
    maps.push({ terms: terms === '' ? [] : terms.split('\u0000'), postings: new Uint32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4) });
  }
  return { header, maps };
}

function pad(length: number): number {
  return (length + 3) & ~3;
}
