/**
 * A search index written as a snapshot after a build, and restored from one at a restart instead of
 * built again (search-indexes.ts decides when): the term maps and word counts come from the snapshot,
 * the documents from the catalog's items, each slot checked against the snapshot's fingerprint of its
 * text. The byte layout itself is index-snapshot.ts's.
 */
import type { StoredItem } from '../../catalog/types.js';
import { encodeSnapshot, encodeTermMap, restoreTermMap, SNAPSHOT_FORMAT, textPrint, type DecodedSnapshot } from './index-snapshot.js';
import type { Language } from './language.js';
import type { TextIndex } from './text-index.js';
import type { IndexDocuments } from './variant-folding.js';

/**
 * Restores an empty index's documents and text from `snapshot` of the same `items` (the word forms of
 * `languages` prepared first, as a build does). Returns why the
 * snapshot is refused when it does not match them (another field list, an item missing or added, a
 * slot's text changed), undefined when restored.
 */
export function* restoring(documents: IndexDocuments, text: TextIndex, languages: readonly Language[], items: readonly StoredItem[], snapshot: DecodedSnapshot): Generator<unknown, string | undefined> {
  const { header } = snapshot;
  if (header.fields.join('\n') !== text.fields.join('\n')) return 'the snapshot indexes other fields';
  if (header.prints.length !== header.ids.length || header.words.length !== header.counts.length) return 'the snapshot header is inconsistent';
  for (const language of languages) text.vocabulary.prepareForms(language);
  const own = new Map<string, StoredItem>();
  for (const item of items) if (item.parentId === undefined) own.set(item.id, item);
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (item.parentId !== undefined) {
      documents.foldVariant(item, item.parentId);
      // A variant whose parent is missing stands for itself, as in a build.
      if (!own.has(item.parentId)) own.set(item.id, item);
    }
    if ((i & 1023) === 1023) yield;
  }
  for (let slot = 0; slot < header.ids.length; slot++) {
    const id = header.ids[slot];
    if (id === null) {
      documents.restoreSlot(undefined);
      continue;
    }
    const item = id === undefined ? undefined : own.get(id);
    if (item === undefined || documents.docOf(id!) !== undefined) return 'an item of the snapshot is no longer in the catalog';
    const doc = documents.documentOf(item);
    if (textPrint(item.id, doc.texts) !== header.prints[slot]) return 'an item changed after the snapshot was taken';
    documents.restoreSlot(doc);
    if ((slot & 255) === 255) yield;
  }
  if (documents.size !== own.size) return 'the catalog has items the snapshot does not';
  for (let i = 0; i < header.words.length; i++) {
    text.vocabulary.add(header.words[i]!, header.counts[i]!);
    if ((i & 255) === 255) yield;
  }
  const targets = text.flexIndexes();
  for (let i = 0; i < targets.length; i++) yield* restoreTermMap(targets[i]!, snapshot.maps[i]!, documents.docs.length);
  return undefined;
}

/** The index in the binary form a restart restores (index-snapshot.ts), a few hundred terms per step. */
export function* snapshotting(documents: IndexDocuments, text: TextIndex, catalogVersion: number): Generator<unknown, Uint8Array> {
  const ids: (string | null)[] = [];
  const prints: number[] = [];
  for (let slot = 0; slot < documents.docs.length; slot++) {
    const doc = documents.docs[slot];
    ids.push(doc === undefined ? null : doc.item.id);
    prints.push(doc === undefined ? 0 : textPrint(doc.item.id, doc.texts));
    // A fingerprint reads every text of its slot: 256 slots are about a millisecond.
    if ((slot & 255) === 255) yield;
  }
  const words: string[] = [];
  const counts: number[] = [];
  for (const [word, count] of text.vocabulary.entries()) {
    words.push(word);
    counts.push(count);
    if ((words.length & 8191) === 0) yield;
  }
  const maps = [];
  for (const flex of text.flexIndexes()) maps.push(yield* encodeTermMap(flex.map));
  return yield* encodeSnapshot({ format: SNAPSHOT_FORMAT, catalogVersion, fields: [...text.fields], ids, prints, words, counts }, maps);
}
