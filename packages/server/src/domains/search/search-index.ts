/**
 * long-file: one class holds the index's structures and every way they change (build, restore from a
 * snapshot, a write's apply); the snapshot's byte layout itself lives in index-snapshot.ts.
 *
 * One catalog version's search index, built on FlexSearch: one FlexSearch `Index` per searched field
 * (tokenize "forward", so every prefix of a word finds it), and one "strict" `Index` over all of an
 * item's text that tells a whole word from a prefix and serves text similarity. Documents are numbered
 * slots (FlexSearch is fastest with numeric ids); variants fold into their parent's slot.
 *
 * Why one FlexSearch Index per field rather than a FlexSearch Document: a Document matches all of a
 * query's words within one field, but "nike red shoes" has its words in the brand and the title. The
 * query planner (matcher.ts) asks each field's Index for each word and intersects across words itself.
 *
 * Writes to the active catalog reach the index through `apply`: the changed slots are updated in place
 * (FlexSearch `update`/`remove` only for fields whose text changed), never a rebuild.
 */
import { Index } from 'flexsearch';
import type { ProductView } from '../catalog/product-view.js';
import type { StoredItem } from '../catalog/types.js';
import { encoder, words } from './analyzer.js';
import { attributeValues } from './attribute-values.js';
import { FacetColumn } from './facet-column.js';
import { FacetScratch } from './facets.js';
import { encodeSnapshot, encodeTermMap, restoreTermMap, SNAPSHOT_FORMAT, textPrint, type DecodedSnapshot, type FlexInternals } from './index-snapshot.js';
import type { FilterValue } from '../../platform/filter-language/filter-tree.js';
import type { FacetConfig } from '../../platform/config/schema.js';
import { MatchScratch } from './match-scratch.js';
import { FilterBits } from './filter-bits.js';
import { runAtOnce, runInSlices } from '../../platform/sliced-work.js';
import type { Language } from './language.js';
import { localizedName, localizedValue } from '../catalog/localized.js';
import { SortRanks, type SortKey } from './sort-ranks.js';
import { TitleFingerprints } from './title-key.js';
import { TypoVocabulary } from './typo-vocabulary.js';

/** FlexSearch's word-position slots: a word early in a field scores a little above a late one. */
export const RESOLUTION = 9;

export type { SortKey } from './sort-ranks.js';

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
/** Reading a column in steps (`valuing`) yields after every this many slots plus one (a mask). */
const COLUMN_STEP = 1023;

function fieldText(item: StoredItem, field: string): string {
  let value: unknown = item.attributes[field];
  // `title@fr`: the French title, from either API (catalog/localized.ts).
  const localized = value === undefined ? localizedName(field) : undefined;
  if (localized !== undefined) value = localizedValue(item, ...localized);
  if (value === undefined && field === 'title') value = item.title;
  if (value === undefined && field === 'categories') value = item.tags?.join(', ');
  return typeof value === 'string' && !NOT_TEXT.test(value) ? value : '';
}

/** Whether a slot's values of an attribute are the same before and after a write. */
function sameValues(before: readonly FilterValue[] | undefined, after: readonly FilterValue[]): boolean {
  if (before === undefined || before.length !== after.length) return false;
  for (let i = 0; i < after.length; i++) if (before[i] !== after[i]) return false;
  return true;
}

function titleOf(item: StoredItem): string {
  const title = typeof item.attributes.title === 'string' ? item.attributes.title : (item.title ?? '');
  return words(title).join(' ');
}

/** A change to the index's documents, as the catalog's change feed carries it. */
export interface IndexChange {
  upserted: readonly StoredItem[];
  removedKeys: readonly string[];
}

/** What a new index computes before it serves: facet columns, attribute columns and sort orders its requests will read. */
export interface IndexWarmUp {
  languages: readonly Language[];
  facets: readonly FacetConfig[];
  attributes: readonly string[];
  sorts: readonly (readonly SortKey[])[];
  /** Attributes suggest grouped the predecessor's matches by (`groupColumn`). */
  groups?: readonly string[];
}

/** The facet whose column lists an attribute's values for suggest's groups (every value, by its text). */
function groupFacet(attribute: string): FacetConfig {
  return { id: attribute, title: attribute, attribute, type: 'value', size: 1 } as FacetConfig;
}

export class SearchIndex {
  /** Slot → document; a removed document leaves `undefined` (slots are never reused). */
  readonly docs: (SearchDoc | undefined)[] = [];
  /** Fields indexed, each with its FlexSearch Index. */
  readonly fields: readonly string[];
  readonly vocabulary = new TypoVocabulary();
  /** Slot → fingerprints of its folded title and title word pairs (matcher's exact-title and phrase checks). */
  readonly titles = new TitleFingerprints();
  /** Live documents. */
  size = 0;
  /** Bumped on every change, so per-request caches keyed on the index know when to drop. */
  revision = 0;
  private readonly fieldIndexes: Index[];
  private readonly wordIndex: Index;
  private readonly byId = new Map<string, number>();
  private readonly variants = new Map<string, Map<string, StoredItem>>();
  /** Variant id → its parent's id. */
  private readonly parentOf = new Map<string, string>();
  private readonly columns = new Map<string, FilterValue[][]>();
  /** Columns being read in steps (`valuing`), which writes update as they update kept ones. */
  private readonly partialColumns = new Map<FilterValue[][], string>();
  /**
   * Every attribute name some item of the index has (its `attributes` and its own fields). Columns are
   * kept only for these: requests name attributes freely (filters, sorts, suggest's groups), and a
   * kept column per name a shopper makes up would grow the heap without bound.
   */
  private readonly attributeNames = new Set<string>(['id']);
  /** What a name no item has reads: no values for any slot (rebuilt when the index grows). */
  private emptyColumns: { values: FilterValue[][]; numbers: Float64Array } | undefined;
  private readonly sortRanks = new SortRanks(this);
  private readonly facetColumns = new Map<FacetConfig, FacetColumn>();
  /** Value ids per slot of the attributes suggest groups by (`groupColumn`), kept up to date like facets'. */
  private readonly groupColumns = new Map<string, FacetColumn>();
  private readonly numeric = new Map<string, Float64Array | undefined>();
  /** Scratch arrays of this index's queries, which run one at a time: reused by the next query on it. */
  readonly facetScratch = new FacetScratch();
  private matchArrays: MatchScratch | undefined;
  /** The pass bits of the filters requests repeat (filter-bits.ts), kept through writes by `apply`. */
  readonly filterBits = new FilterBits({
    slots: () => this.docs.length,
    live: (slot) => this.docs[slot] !== undefined,
    values: (attribute) => this.values(attribute),
    numbers: (attribute) => this.numbers(attribute),
  });

  /** Builds the index at once (tests, tools); a server builds with `SearchIndex.building` in slices instead. */
  constructor(items: readonly StoredItem[], fields: readonly string[]) {
    this.fields = [...new Set(fields)];
    // No fastupdate: its register of every posting list per slot doubled the index's heap. A changed slot
    // is taken out of the lists its old text's terms name instead (`unindex`), which the index knows.
    this.fieldIndexes = this.fields.map(() => new Index({ tokenize: 'forward', encoder, resolution: RESOLUTION }));
    this.wordIndex = new Index({ tokenize: 'strict', encoder, resolution: RESOLUTION });
    runAtOnce(this.load(items));
  }

  /**
   * The index built a small step at a time (sliced-work.ts drives it), then warmed: the columns and sort
   * orders `warm` names are computed before the index serves, so its first requests do not stall on them.
   */
  static *building(items: readonly StoredItem[], fields: readonly string[], warm: IndexWarmUp): Generator<unknown, SearchIndex> {
    const index = new SearchIndex([], fields);
    // Forms first: each word added after is grouped as it arrives, in the same steps.
    for (const language of warm.languages) index.vocabulary.prepareForms(language);
    yield* index.load(items);
    yield* index.warm(warm);
    return index;
  }

  /**
   * The index restored from a snapshot (index-snapshot.ts) of the same items: the term maps and word
   * counts come from the snapshot, the documents from `items`. Returns why the snapshot is refused when
   * it does not match them (another field list, an item missing or added, a slot's text changed).
   */
  static *restoring(items: readonly StoredItem[], fields: readonly string[], warm: IndexWarmUp, snapshot: DecodedSnapshot): Generator<unknown, SearchIndex | string> {
    const { header } = snapshot;
    const index = new SearchIndex([], fields);
    if (header.fields.join('\n') !== index.fields.join('\n')) return 'the snapshot indexes other fields';
    if (header.prints.length !== header.ids.length || header.words.length !== header.counts.length) return 'the snapshot header is inconsistent';
    for (const language of warm.languages) index.vocabulary.prepareForms(language);
    const own = new Map<string, StoredItem>();
    for (const item of items) if (item.parentId === undefined) own.set(item.id, item);
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      if (item.parentId !== undefined) {
        index.variantsOf(item.parentId).set(item.id, item);
        index.parentOf.set(item.id, item.parentId);
        // A variant whose parent is missing stands for itself, as in `load`.
        if (!own.has(item.parentId)) own.set(item.id, item);
      }
      if ((i & 1023) === 1023) yield;
    }
    let live = 0;
    for (let slot = 0; slot < header.ids.length; slot++) {
      const id = header.ids[slot];
      if (id === null) {
        index.docs.push(undefined);
        continue;
      }
      const item = id === undefined ? undefined : own.get(id);
      if (item === undefined || index.byId.has(id!)) return 'an item of the snapshot is no longer in the catalog';
      const doc: SearchDoc = { item, title: titleOf(item), texts: index.textsOf(item) };
      if (textPrint(item.id, doc.texts) !== header.prints[slot]) return 'an item changed after the snapshot was taken';
      index.docs.push(doc);
      index.noteNames(item);
      index.byId.set(item.id, slot);
      index.titles.set(slot, doc.title);
      index.vocabulary.titlePairs(doc.title, 1);
      live++;
      if ((slot & 255) === 255) yield;
    }
    if (live !== own.size) return 'the catalog has items the snapshot does not';
    index.size = live;
    for (let i = 0; i < header.words.length; i++) {
      index.vocabulary.add(header.words[i]!, header.counts[i]!);
      if ((i & 255) === 255) yield;
    }
    const targets = [...index.fieldIndexes, index.wordIndex];
    for (let i = 0; i < targets.length; i++) yield* restoreTermMap(targets[i] as unknown as FlexInternals, snapshot.maps[i]!, index.docs.length);
    yield* index.warm(warm);
    return index;
  }

  /** The index in the binary form a restart restores (index-snapshot.ts), a few hundred terms per step. */
  *snapshot(catalogVersion: number): Generator<unknown, Uint8Array> {
    const ids: (string | null)[] = [];
    const prints: number[] = [];
    for (let slot = 0; slot < this.docs.length; slot++) {
      const doc = this.docs[slot];
      ids.push(doc === undefined ? null : doc.item.id);
      prints.push(doc === undefined ? 0 : textPrint(doc.item.id, doc.texts));
      // A fingerprint reads every text of its slot: 256 slots are about a millisecond.
      if ((slot & 255) === 255) yield;
    }
    const words: string[] = [];
    const counts: number[] = [];
    for (const [word, count] of this.vocabulary.entries()) {
      words.push(word);
      counts.push(count);
      if ((words.length & 8191) === 0) yield;
    }
    const maps = [];
    for (const flex of [...this.fieldIndexes, this.wordIndex]) maps.push(yield* encodeTermMap((flex as unknown as FlexInternals).map));
    return yield* encodeSnapshot({ format: SNAPSHOT_FORMAT, catalogVersion, fields: [...this.fields], ids, prints, words, counts }, maps);
  }

  /** Computes the columns and sort orders `warm` names, so the index's first requests do not stall on them. */
  private *warm(warm: IndexWarmUp): Generator<unknown, void> {
    for (const facet of warm.facets) if (!this.facetColumns.has(facet)) this.facetColumns.set(facet, yield* FacetColumn.building(facet, this.docs));
    // A sort order reads its attributes' columns: built here in steps, or ranking would build them in
    // one go (75,000 slots of attribute values: the longest pause of a 100,000-item promotion).
    const sortAttributes = warm.sorts.flatMap((sortBy) => sortBy.map((key) => key.attribute));
    for (const attribute of new Set([...warm.attributes, ...sortAttributes])) {
      if (!this.columns.has(attribute)) yield* this.columnReading(attribute);
    }
    for (const sortBy of warm.sorts) yield* this.sortRanks.ranking(sortBy);
    for (const attribute of warm.groups ?? []) yield* this.groupColumnBuilding(attribute);
    this.matchScratch();
    this.matchScratch();
  }

  /** What requests made this index compute (columns, sort orders), so that its successor is built warm. */
  warmedUp(): Pick<IndexWarmUp, 'attributes' | 'sorts' | 'groups'> {
    return { attributes: [...this.columns.keys()], sorts: this.sortRanks.orders(), groups: [...this.groupColumns.keys()] };
  }

  /** Places `items` into this empty index, one step per item. */
  private *load(items: readonly StoredItem[]): Generator<unknown, void> {
    // Variants first, so each parent is handed to FlexSearch once with its variants' text.
    const parents = new Set<string>();
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      if (item.parentId === undefined) parents.add(item.id);
      else {
        this.variantsOf(item.parentId).set(item.id, item);
        this.parentOf.set(item.id, item.parentId);
      }
      if ((i & 1023) === 1023) yield;
    }
    for (const item of items) {
      if (item.parentId !== undefined) continue;
      this.place(item);
      yield;
    }
    // A variant whose parent is missing is still findable, standing for itself.
    for (const [parentId, variants] of this.variants) {
      if (parents.has(parentId)) continue;
      for (const orphan of variants.values()) this.place(orphan);
      yield;
    }
  }

  /** The matcher's per-slot arrays, grown with room to spare so single-item additions do not reallocate each time. */
  matchScratch(): MatchScratch {
    if (this.matchArrays === undefined || this.matchArrays.capacity < this.docs.length) {
      this.matchArrays = new MatchScratch(Math.max(1024, Math.ceil(this.docs.length * 1.25)));
    }
    return this.matchArrays;
  }

  docOf(id: string): number | undefined {
    return this.byId.get(id);
  }

  /** Documents holding a word starting with `term` in `field` (FlexSearch's forward tokenization). */
  fieldSlots(field: number, term: string): Slots {
    return (this.fieldIndexes[field]!.search(term, { resolve: false }) as unknown as { result: Slots }).result ?? EMPTY;
  }

  /** Documents holding the whole word `term` in any field. */
  wordSlots(term: string): Slots {
    return (this.wordIndex.search(term, { resolve: false }) as unknown as { result: Slots }).result ?? EMPTY;
  }

  /** Applies the catalog's writes to the changed documents only. */
  apply(change: IndexChange): void {
    const touched = new Set<number>();
    const slotsBefore = this.docs.length;
    for (const key of change.removedKeys) {
      const slot = this.byId.get(key);
      const item = slot === undefined ? undefined : this.docs[slot]?.item;
      if (slot !== undefined && item?.id === key) {
        this.drop(slot);
        touched.delete(slot);
      }
      const parentId = this.parentOf.get(key);
      if (parentId !== undefined) {
        this.detachVariant(key, parentId);
        const parent = this.byId.get(parentId);
        if (parent !== undefined && this.docs[parent]?.item.id === parentId) touched.add(parent);
      }
    }
    for (const item of change.upserted) {
      if (item.parentId === undefined) {
        const slot = this.byId.get(item.id);
        if (slot !== undefined && this.docs[slot]!.item.parentId === undefined) {
          this.docs[slot]!.item = item;
          this.noteNames(item);
          touched.add(slot);
          continue;
        }
        // A parent arriving after its variants: they stop standing alone.
        for (const variant of this.variants.get(item.id)?.values() ?? []) {
          const own = this.byId.get(variant.id);
          if (own !== undefined) this.drop(own);
        }
        touched.add(this.place(item));
        continue;
      }
      const formerParent = this.parentOf.get(item.id);
      if (formerParent !== undefined && formerParent !== item.parentId) {
        // A variant moved to another parent: the former one loses its text.
        this.detachVariant(item.id, formerParent);
        const former = this.byId.get(formerParent);
        if (former !== undefined) touched.add(former);
      }
      this.variantsOf(item.parentId).set(item.id, item);
      this.parentOf.set(item.id, item.parentId);
      const parent = this.byId.get(item.parentId);
      if (parent !== undefined && this.docs[parent]!.item.id === item.parentId) {
        touched.add(parent);
      } else {
        const own = this.byId.get(item.id);
        if (own === undefined) touched.add(this.place(item));
        else {
          this.docs[own]!.item = item;
          this.noteNames(item);
          touched.add(own);
        }
      }
    }
    for (const slot of touched) if (this.docs[slot] !== undefined) this.reindex(slot);
    this.revision++;
    // Attributes whose values changed: a sort order by others keeps its ranks.
    const changed = new Set<string>();
    for (const [attribute, column] of this.columns) {
      for (const slot of touched) {
        const values = this.docs[slot] === undefined ? [] : attributeValues(this.docs[slot]!.item, attribute);
        // A removed item's slot is never read again (slots are not reused): its ranks may stay.
        if (this.docs[slot] !== undefined && !sameValues(column[slot], values)) changed.add(attribute);
        column[slot] = values;
      }
    }
    for (const [column, attribute] of this.partialColumns) {
      if (touched.size > 0) changed.add(attribute);
      for (const slot of touched) column[slot] = this.docs[slot] === undefined ? [] : attributeValues(this.docs[slot]!.item, attribute);
    }
    for (const column of this.facetColumns.values()) for (const slot of touched) column.update(slot, this.docs[slot]?.item);
    for (const column of this.groupColumns.values()) for (const slot of touched) column.update(slot, this.docs[slot]?.item);
    for (const building of this.buildTouches) for (const slot of touched) building.add(slot);
    for (const [attribute, numbers] of this.numeric) {
      if (numbers === undefined) continue;
      const column = this.values(attribute);
      let grown = numbers;
      if (column.length > numbers.length) {
        grown = new Float64Array(Math.max(column.length, numbers.length * 2)).fill(NaN);
        grown.set(numbers);
        this.numeric.set(attribute, grown);
      }
      for (const slot of touched) {
        const values = column[slot] ?? [];
        if (values.length > 1 || (values.length === 1 && typeof values[0] !== 'number')) {
          // No longer one number per document: the generic comparison takes over.
          this.numeric.set(attribute, undefined);
          break;
        }
        grown[slot] = values.length === 0 ? NaN : (values[0] as number);
      }
    }
    // New slots have no rank in any order. An attribute without a kept column may have just gained values.
    const grew = this.docs.length > slotsBefore;
    this.sortRanks.markStale((attribute) => grew || changed.has(attribute) || !this.columns.has(attribute));
    this.filterBits.update(touched);
  }

  /** Recomputes the sort orders in use after changes, off the request path and in steps, rather than at the next query. */
  refreshingOrders(): Generator<unknown, void> {
    return this.sortRanks.refreshing();
  }

  /** How many attribute columns the index keeps (one per attribute some item has and a request read). */
  get keptColumns(): number {
    return this.columns.size + this.numeric.size + this.groupColumns.size;
  }

  /** Each slot's values of one attribute, computed once: filters, facets and sorts read them per request. */
  values(attribute: string): FilterValue[][] {
    let column = this.columns.get(attribute);
    if (column === undefined) {
      if (!this.attributeNames.has(attribute)) return this.empty().values;
      column = this.docs.map((doc) => (doc === undefined ? [] : attributeValues(doc.item, attribute)));
      this.columns.set(attribute, column);
    }
    return column;
  }

  /**
   * `values` in steps that yield every few thousand slots, for a sort order ranked in slices: reading
   * a text attribute over the whole catalog is tens of milliseconds. Writes applied meanwhile reach
   * the column being read as they reach kept ones.
   */
  *valuing(attribute: string): Generator<unknown, FilterValue[][]> {
    const kept = this.columns.get(attribute);
    if (kept !== undefined) return kept;
    if (!this.attributeNames.has(attribute)) return this.empty().values;
    const column: FilterValue[][] = [];
    this.partialColumns.set(column, attribute);
    try {
      // The index may grow meanwhile: its length is read again at every slot.
      for (let slot = 0; slot < this.docs.length; slot++) {
        const doc = this.docs[slot];
        column[slot] = doc === undefined ? [] : attributeValues(doc.item, attribute);
        if ((slot & COLUMN_STEP) === COLUMN_STEP) yield;
      }
    } finally {
      this.partialColumns.delete(column);
    }
    // Read at once by another request meanwhile: that one is kept (and equal).
    const read = this.columns.get(attribute);
    if (read !== undefined) return read;
    this.columns.set(attribute, column);
    return column;
  }

  /** The sort orders a request reads, ranked in slices while it waits; undefined when they are ready (sort-ranks.ts). */
  preparing(sortBy: readonly SortKey[]): Promise<void> | undefined {
    return this.sortRanks.preparing(sortBy);
  }

  /**
   * The attribute columns a request's filter reads and the group column suggest's `groupBy` reads,
   * built in slices while the request waits; undefined when the index keeps them already (nearly
   * always: a successor index is warmed with its predecessor's). Built at once, a column of list
   * values (categories) over 100,000 items held the loop 136 ms, a group column 46 ms. Every name is
   * one some item has, so what can be built (and kept) is bounded by the catalog.
   */
  columnsPreparing(attributes: Iterable<string>, group: string | undefined): Promise<void> | undefined {
    let waits: Promise<void>[] | undefined;
    for (const attribute of attributes) {
      if (this.columns.has(attribute) || !this.attributeNames.has(attribute)) continue;
      (waits ??= []).push(this.columnBuild(`values:${attribute}`, () => this.columnReading(attribute)));
    }
    if (group !== undefined && !this.groupColumns.has(group) && this.attributeNames.has(group)) {
      (waits ??= []).push(this.columnBuild(`group:${group}`, () => this.groupColumnBuilding(group)));
    }
    if (waits === undefined) return undefined;
    return waits.length === 1 ? waits[0] : Promise.all(waits).then(() => undefined);
  }

  /** An attribute's column read in steps (`valuing`), then its typed numbers (`numbers`). */
  private *columnReading(attribute: string): Generator<unknown, void> {
    yield* this.valuing(attribute);
    yield;
    this.numbers(attribute);
    yield;
  }

  /** One column's build in slices, shared by every request that waits for it. */
  private columnBuild(key: string, work: () => Generator<unknown, void>): Promise<void> {
    let waiting = this.columnWork.get(key);
    if (waiting === undefined) {
      waiting = runInSlices(work()).finally(() => this.columnWork.delete(key));
      this.columnWork.set(key, waiting);
    }
    return waiting;
  }

  /** Column builds requests wait on (`columnsPreparing`), by what they build. */
  private readonly columnWork = new Map<string, Promise<void>>();
  /** Slots written while group columns are built in steps: each is updated again once its column is whole. */
  private readonly buildTouches = new Set<Set<number>>();

  /** `groupColumn`, built in steps (writes meanwhile are applied to it after). */
  private *groupColumnBuilding(attribute: string): Generator<unknown, void> {
    if (this.groupColumns.has(attribute) || !this.attributeNames.has(attribute)) return;
    const touched = new Set<number>();
    this.buildTouches.add(touched);
    let column: FacetColumn;
    try {
      column = yield* FacetColumn.building(groupFacet(attribute), this.docs);
    } finally {
      this.buildTouches.delete(touched);
    }
    for (const slot of touched) column.update(slot, this.docs[slot]?.item);
    if (!this.groupColumns.has(attribute)) this.groupColumns.set(attribute, column);
  }

  /**
   * One attribute as a typed array when every document holds at most one value and it is a number
   * (NaN for none), so numeric filters compare without boxing; undefined for any other attribute.
   */
  numbers(attribute: string): Float64Array | undefined {
    if (this.numeric.has(attribute)) return this.numeric.get(attribute);
    if (!this.attributeNames.has(attribute)) return this.empty().numbers;
    const column = this.values(attribute);
    let out: Float64Array | undefined = new Float64Array(column.length).fill(NaN);
    for (let slot = 0; slot < column.length; slot++) {
      const values = column[slot]!;
      if (values.length === 0) continue;
      if (values.length > 1 || typeof values[0] !== 'number') {
        out = undefined;
        break;
      }
      out[slot] = values[0];
    }
    this.numeric.set(attribute, out);
    return out;
  }

  /**
   * Value ids per slot of an attribute suggest groups by (a facet column of its values), built at the
   * first request that groups by it, kept up to date after; undefined for an attribute no item has.
   * Grouping reads these 16-bit ids where it read each slot's value list and its strings, scattered
   * over the heap (three cache misses a match).
   */
  groupColumn(attribute: string): FacetColumn | undefined {
    if (!this.attributeNames.has(attribute)) return undefined;
    let column = this.groupColumns.get(attribute);
    if (column === undefined) this.groupColumns.set(attribute, (column = new FacetColumn(groupFacet(attribute), this.docs)));
    return column;
  }

  /** One facet's value ids per slot, built at the first request that counts it and kept up to date after. */
  facetColumn(facet: FacetConfig): FacetColumn {
    let column = this.facetColumns.get(facet);
    if (column === undefined) this.facetColumns.set(facet, (column = new FacetColumn(facet, this.docs)));
    return column;
  }

  /** Each slot's rank under a sort order (sort-ranks.ts), so a request sorts by comparing integers. */
  rank(sortBy: readonly SortKey[]): Int32Array {
    return this.sortRanks.rank(sortBy);
  }

  private variantsOf(parentId: string): Map<string, StoredItem> {
    let variants = this.variants.get(parentId);
    if (variants === undefined) this.variants.set(parentId, (variants = new Map()));
    return variants;
  }

  private detachVariant(variantId: string, parentId: string): void {
    const variants = this.variants.get(parentId);
    variants?.delete(variantId);
    if (variants?.size === 0) this.variants.delete(parentId);
    this.parentOf.delete(variantId);
  }

  /** Notes the attribute names `item` has (see `attributeNames`). */
  private noteNames(item: StoredItem): void {
    for (const name in item.attributes) this.attributeNames.add(name);
    for (const name in item) this.attributeNames.add(name);
  }

  /** The columns of an attribute no item has, one pair shared by every such name. */
  private empty(): { values: FilterValue[][]; numbers: Float64Array } {
    if (this.emptyColumns === undefined || this.emptyColumns.values.length < this.docs.length) {
      const none: FilterValue[] = [];
      this.emptyColumns = { values: new Array<FilterValue[]>(this.docs.length).fill(none), numbers: new Float64Array(this.docs.length).fill(NaN) };
    }
    return this.emptyColumns;
  }

  private place(item: StoredItem): number {
    this.noteNames(item);
    const slot = this.docs.length;
    this.docs.push({ item, title: titleOf(item), texts: [] });
    this.byId.set(item.id, slot);
    this.size++;
    this.reindex(slot);
    return slot;
  }

  private drop(slot: number): void {
    const doc = this.docs[slot];
    if (doc === undefined) return;
    this.setTexts(slot, doc, this.fields.map(() => ''));
    this.vocabulary.titlePairs(doc.title, -1);
    this.byId.delete(doc.item.id);
    this.docs[slot] = undefined;
    this.size--;
  }

  /** Recomputes a slot's texts (the item's own, then its variants') and hands FlexSearch the fields that changed. */
  private reindex(slot: number): void {
    const doc = this.docs[slot]!;
    // A placed document has its title but nothing indexed yet: its pairs are not counted.
    const before = doc.texts.length === 0 ? '' : doc.title;
    doc.title = titleOf(doc.item);
    doc.view = undefined;
    if (before !== doc.title) {
      this.vocabulary.titlePairs(before, -1);
      this.vocabulary.titlePairs(doc.title, 1);
    }
    this.titles.set(slot, doc.title);
    this.setTexts(slot, doc, this.textsOf(doc.item));
  }

  /** The text indexed per field for a document: the item's own, then its variants'. */
  private textsOf(item: StoredItem): string[] {
    const variants = item.parentId === undefined ? [...(this.variants.get(item.id)?.values() ?? [])] : [];
    return this.fields.map((field) => [item, ...variants].map((one) => fieldText(one, field)).filter((t) => t !== '').join('\n'));
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
