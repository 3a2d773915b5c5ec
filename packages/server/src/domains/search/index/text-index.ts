/**
 * The text side of a search index, built on FlexSearch: one FlexSearch `Index` per searched field
 * (tokenize "forward", so every prefix of a word finds it), and one "strict" `Index` over all of an
 * item's text that tells a whole word from a prefix and serves text similarity; beside them the words
 * with their document counts (typo-vocabulary.ts) and the titles' fingerprints (title-key.ts).
 *
 * Why one FlexSearch Index per field rather than a FlexSearch Document: a Document matches all of a
 * query's words within one field, but "nike red shoes" has its words in the brand and the title. The
 * query planner (query/matcher.ts) asks each field's Index for each word and intersects across words itself.
 *
 * A slot's text changes in place: FlexSearch is handed only the fields whose text changed, and the old
 * text's terms are taken out of their posting lists (`unindex`), never a rebuild.
 */
import { Index } from 'flexsearch';
import type { ProductView } from '../../catalog/product-view.js';
import { localizedName, localizedValue } from '../../catalog/localized.js';
import type { StoredItem } from '../../catalog/types.js';
import { encoder, words } from './analyzer.js';
import type { FlexInternals } from './index-snapshot.js';
import { TitleFingerprints } from './title-key.js';
import { TypoVocabulary } from './typo-vocabulary.js';
import { RESOLUTION } from '../scoring.js';

export interface SearchDoc {
  /** The parent item (or an item standing alone); its variants' text is indexed into this slot. */
  item: StoredItem;
  /** Folded title words joined by spaces, for the exact-title bonus. */
  title: string;
  /** The indexed text of each field (parallel to `SearchIndex.fields`), kept to undo it on change. */
  texts: string[];
  /** The product view answered for this item, built at its first appearance in a result and dropped when the item changes. */
  view?: ProductView;
}

/** The raw slots FlexSearch keeps for one term: `slots[score]` lists the documents at that position score. */
export type Slots = readonly (readonly number[] | undefined)[];

const EMPTY: Slots = [];
const NOT_TEXT = /^(https?:|data:|\/)/;

function fieldText(item: StoredItem, field: string): string {
  let value: unknown = item.attributes[field];
  // `title@fr`: the French title, from either API (catalog/localized.ts).
  const localized = value === undefined ? localizedName(field) : undefined;
  if (localized !== undefined) value = localizedValue(item, ...localized);
  if (value === undefined && field === 'title') value = item.title;
  if (value === undefined && field === 'categories') value = item.tags?.join(', ');
  return typeof value === 'string' && !NOT_TEXT.test(value) ? value : '';
}

/** An item's title folded as queries are, words joined by spaces. */
export function titleOf(item: StoredItem): string {
  const title = typeof item.attributes.title === 'string' ? item.attributes.title : (item.title ?? '');
  return words(title).join(' ');
}

export class TextIndex {
  /** Fields indexed, each with its FlexSearch Index. */
  readonly fields: readonly string[];
  readonly vocabulary = new TypoVocabulary();
  /** Slot → fingerprints of its folded title and title word pairs (matcher's exact-title and phrase checks). */
  readonly titles = new TitleFingerprints();
  private readonly fieldIndexes: Index[];
  private readonly wordIndex: Index;

  constructor(fields: readonly string[]) {
    this.fields = [...new Set(fields)];
    // No fastupdate: its register of every posting list per slot doubled the index's heap. A changed slot
    // is taken out of the lists its old text's terms name instead (`unindex`), which the index knows.
    this.fieldIndexes = this.fields.map(() => new Index({ tokenize: 'forward', encoder, resolution: RESOLUTION }));
    this.wordIndex = new Index({ tokenize: 'strict', encoder, resolution: RESOLUTION });
  }

  /** The FlexSearch indexes whose term maps a snapshot keeps: each field's, then the whole-word one. */
  flexIndexes(): FlexInternals[] {
    return [...this.fieldIndexes, this.wordIndex] as unknown as FlexInternals[];
  }

  /** Documents holding a word starting with `term` in `field` (FlexSearch's forward tokenization). */
  fieldSlots(field: number, term: string): Slots {
    return (this.fieldIndexes[field]!.search(term, { resolve: false }) as unknown as { result: Slots }).result ?? EMPTY;
  }

  /** Documents holding the whole word `term` in any field. */
  wordSlots(term: string): Slots {
    return (this.wordIndex.search(term, { resolve: false }) as unknown as { result: Slots }).result ?? EMPTY;
  }

  /** The text indexed per field for a document: its item's own, then its variants' (`folded`, the item first). */
  textsOf(folded: readonly StoredItem[]): string[] {
    return this.fields.map((field) => folded.map((one) => fieldText(one, field)).filter((t) => t !== '').join('\n'));
  }

  /** A slot whose item was placed or restored: its title's fingerprints and word pairs. */
  addTitle(slot: number, doc: SearchDoc): void {
    this.titles.set(slot, doc.title);
    this.vocabulary.titlePairs(doc.title, 1);
  }

  /** Recomputes a slot's title and hands FlexSearch the fields whose text changed (`texts`: textsOf). */
  reindex(slot: number, doc: SearchDoc, texts: string[]): void {
    // A placed document has its title but nothing indexed yet: its pairs are not counted.
    const before = doc.texts.length === 0 ? '' : doc.title;
    doc.title = titleOf(doc.item);
    doc.view = undefined;
    if (before !== doc.title) {
      this.vocabulary.titlePairs(before, -1);
      this.vocabulary.titlePairs(doc.title, 1);
    }
    this.titles.set(slot, doc.title);
    this.setTexts(slot, doc, texts);
  }

  /** A removed slot's text taken out of every index. */
  drop(slot: number, doc: SearchDoc): void {
    this.setTexts(slot, doc, this.fields.map(() => ''));
    this.vocabulary.titlePairs(doc.title, -1);
  }

  private setTexts(slot: number, doc: SearchDoc, texts: string[]): void {
    const before = doc.texts;
    let changed = before.length === 0;
    for (let f = 0; f < this.fields.length; f++) {
      const old = before[f] ?? '';
      const now = texts[f]!;
      if (old === now) continue;
      changed = true;
      const index = this.fieldIndexes[f]!;
      if (old !== '') unindex(index, slot, old, true);
      if (now !== '') index.add(slot, now);
    }
    doc.texts = texts;
    if (!changed) return;
    const oldWords = new Set(before.length === 0 ? [] : encoder.encode(before.join('\n')));
    const all = texts.join('\n');
    const newWords = new Set(all === '' ? [] : encoder.encode(all));
    for (const word of oldWords) if (!newWords.has(word)) this.vocabulary.remove(word);
    for (const word of newWords) if (!oldWords.has(word)) this.vocabulary.add(word);
    if (before.length !== 0) unindex(this.wordIndex, slot, before.join('\n'), false);
    if (all !== '') this.wordIndex.add(slot, all);
  }
}

/**
 * Takes `slot` out of the posting lists of the terms `text` gives (every prefix of each word for a
 * forward index, the word for a strict one), as FlexSearch's `remove` would without scanning its whole
 * term map; a term left with no slot is dropped.
 */
function unindex(index: Index, slot: number, text: string, forward: boolean): void {
  const { map, reg } = index as unknown as FlexInternals;
  for (const word of new Set(encoder.encode(text))) {
    for (let end = forward && word.length > 1 ? 1 : word.length; end <= word.length; end++) {
      const term = word.slice(0, end);
      const scores = map.get(term);
      if (scores === undefined) continue;
      let left = 0;
      for (const slots of scores) {
        if (slots === undefined) continue;
        const at = slots.indexOf(slot);
        if (at >= 0) slots.splice(at, 1);
        left += slots.length;
      }
      if (left === 0) map.delete(term);
    }
  }
  reg.delete(slot);
}
