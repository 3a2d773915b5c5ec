/**
 * One catalog version's search index: an inverted index from folded words to the documents and fields
 * holding them, a sorted vocabulary for prefixes, and a deletion neighbourhood for one-typo matches.
 * Written by hand rather than with FlexSearch's Document index because a query's words may fall in
 * different fields ("nike red shoes"), and the per-field weights differ between configurations: each
 * posting keeps a bitmask of the fields it came from so one index serves every configuration.
 */
import type { StoredItem } from '../catalog/types.js';
import type { FilterValue } from './filter.js';

export interface SearchDoc {
  /** The parent item: variants fold into it. */
  item: StoredItem;
  /** Position in catalog order, the last tie-break. */
  order: number;
  /** Folded title words, for the exact-title bonus. */
  title: string;
}

const MIN_TYPO_LENGTH = 5;
/** Prefix expansion stops here: a one-letter last word must not walk the whole vocabulary. */
const MAX_PREFIX_TERMS = 64;

export function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

export function words(text: string): string[] {
  return fold(text).split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '');
}

/** Attributes whose comma-joined TEXT is a list (the product view splits `categories` the same way). */
export function attributeValues(item: StoredItem, attribute: string): FilterValue[] {
  if (attribute === 'id') return [item.id];
  const value = item.attributes[attribute] ?? (item as unknown as Record<string, unknown>)[attribute];
  if (typeof value === 'number' || typeof value === 'boolean') return [value];
  if (typeof value !== 'string') return [];
  if (attribute === 'categories' || attribute === 'category' || attribute === 'tags') {
    return value.split(',').map((v) => v.trim()).filter((v) => v !== '');
  }
  return [value];
}

export class SearchIndex {
  readonly docs: SearchDoc[] = [];
  /** Field name → bit. */
  readonly fields = new Map<string, number>();
  private readonly postings = new Map<string, Map<number, number>>();
  private readonly byId = new Map<string, number>();
  private vocabulary: string[] = [];
  private deletions = new Map<string, string[]>();

  constructor(items: readonly StoredItem[]) {
    const variants: StoredItem[] = [];
    for (const item of items) {
      if (item.parentId !== undefined) {
        variants.push(item);
        continue;
      }
      this.addDoc(item);
    }
    for (const variant of variants) {
      const parent = this.byId.get(variant.parentId!);
      // A variant whose parent is missing is still findable, standing for itself.
      const doc = parent ?? this.addDoc(variant);
      this.addText(doc, variant);
    }
    this.finish();
  }

  private addDoc(item: StoredItem): number {
    const doc = this.docs.length;
    const title = typeof item.attributes.title === 'string' ? item.attributes.title : (item.title ?? '');
    this.docs.push({ item, order: doc, title: words(title).join(' ') });
    this.byId.set(item.id, doc);
    this.addText(doc, item);
    return doc;
  }

  private addText(doc: number, item: StoredItem): void {
    const texts: [string, unknown][] = Object.entries(item.attributes);
    if (item.title !== undefined) texts.push(['title', item.title]);
    if (item.tags !== undefined) texts.push(['categories', item.tags.join(' ')]);
    for (const [field, value] of texts) {
      if (typeof value !== 'string' || /^(https?:|data:|\/)/.test(value)) continue;
      let bit = this.fields.get(field);
      if (bit === undefined) {
        if (this.fields.size >= 31) continue;
        bit = 1 << this.fields.size;
        this.fields.set(field, bit);
      }
      for (const word of words(value)) {
        let posting = this.postings.get(word);
        if (posting === undefined) this.postings.set(word, (posting = new Map()));
        posting.set(doc, (posting.get(doc) ?? 0) | bit);
      }
    }
  }

  private finish(): void {
    this.vocabulary = [...this.postings.keys()].sort();
    const deletions = new Map<string, string[]>();
    for (const term of this.vocabulary) {
      if (term.length < MIN_TYPO_LENGTH - 1) continue;
      for (const variant of deletionsOf(term)) {
        const list = deletions.get(variant);
        if (list === undefined) deletions.set(variant, [term]);
        else if (list[list.length - 1] !== term) list.push(term);
      }
    }
    this.deletions = deletions;
  }

  private readonly columns = new Map<string, FilterValue[][]>();
  private seen: Int32Array | undefined;
  private generation = 0;

  /**
   * A fresh "have I visited this document" marker for one query, without allocating a Set per query:
   * a document is visited when its slot holds the returned generation.
   */
  visitMarks(): { marks: Int32Array; generation: number } {
    if (this.seen === undefined || this.generation === 0x7fffffff) {
      this.seen = new Int32Array(this.docs.length);
      this.generation = 0;
    }
    return { marks: this.seen, generation: ++this.generation };
  }
  private readonly ranks = new Map<string, Int32Array>();

  /** Each document's values of one attribute, computed once: filters, facets and sorts read them per request. */
  values(attribute: string): FilterValue[][] {
    let column = this.columns.get(attribute);
    if (column === undefined) {
      column = this.docs.map((doc) => attributeValues(doc.item, attribute));
      this.columns.set(attribute, column);
    }
    return column;
  }

  /**
   * Each document's position under a sort order (equal keys share a rank), computed once per order, so
   * a request sorts by comparing integers. Items lacking an attribute go last in either direction.
   */
  rank(sortBy: readonly { attribute: string; order: 'asc' | 'desc' }[]): Int32Array {
    const key = JSON.stringify(sortBy);
    let ranks = this.ranks.get(key);
    if (ranks !== undefined) return ranks;
    const keys = sortBy.map(({ attribute, order }) => ({ column: this.values(attribute), sign: order === 'desc' ? -1 : 1, text: new Map<number, string>() }));
    const compare = (a: number, b: number): number => {
      for (const { column, sign } of keys) {
        const x = column[a]![0];
        const y = column[b]![0];
        if (x === undefined || y === undefined) {
          if (x !== y) return x === undefined ? 1 : -1;
          continue;
        }
        const c = typeof x === 'number' && typeof y === 'number' ? x - y : fold(String(x)).localeCompare(fold(String(y)));
        if (c !== 0) return sign * c;
      }
      return 0;
    };
    const order = this.docs.map((_, doc) => doc).sort((a, b) => compare(a, b) || a - b);
    ranks = new Int32Array(this.docs.length);
    let rank = 0;
    for (let i = 0; i < order.length; i++) {
      if (i > 0 && compare(order[i - 1]!, order[i]!) !== 0) rank = i;
      ranks[order[i]!] = rank;
    }
    this.ranks.set(key, ranks);
    return ranks;
  }

  docOf(id: string): number | undefined {
    return this.byId.get(id);
  }

  posting(term: string): Map<number, number> | undefined {
    return this.postings.get(term);
  }

  /** Vocabulary terms starting with `prefix` (itself excluded), the most frequent first. */
  prefixed(prefix: string): string[] {
    let low = 0;
    let high = this.vocabulary.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.vocabulary[mid]! < prefix) low = mid + 1;
      else high = mid;
    }
    const found: string[] = [];
    for (let i = low; i < this.vocabulary.length && this.vocabulary[i]!.startsWith(prefix); i++) {
      if (this.vocabulary[i] !== prefix) found.push(this.vocabulary[i]!);
    }
    if (found.length <= MAX_PREFIX_TERMS) return found;
    return found.sort((a, b) => this.postings.get(b)!.size - this.postings.get(a)!.size).slice(0, MAX_PREFIX_TERMS);
  }

  /** Terms one edit (insertion, deletion, substitution) from `word`, for words long enough that a typo is likely. */
  typos(word: string): string[] {
    // "hart" may be "heart" misspelt: the word the shopper meant decides, so a four-letter input can still be a typo.
    if (word.length < MIN_TYPO_LENGTH - 1) return [];
    const found = new Set<string>();
    for (const term of this.deletions.get(word) ?? []) found.add(term);
    for (const variant of deletionsOf(word)) {
      if (this.postings.has(variant)) found.add(variant);
      for (const term of this.deletions.get(variant) ?? []) found.add(term);
    }
    found.delete(word);
    // A deletion match can be two edits apart (a transposition-free swap); keep only true edit distance 1.
    return [...found].filter((term) => Math.max(term.length, word.length) >= MIN_TYPO_LENGTH && withinOneEdit(word, term));
  }
}

function deletionsOf(word: string): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i < word.length; i++) out.add(word.slice(0, i) + word.slice(i + 1));
  return out;
}

function withinOneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) return a.slice(i + 1) === b.slice(i + 1);
  if (a.length > b.length) return a.slice(i + 1) === b.slice(i);
  return a.slice(i) === b.slice(i + 1);
}
