/**
 * One catalog version's search index: the documents in numbered slots (variant-folding.ts, variants
 * folded into their parent's), their text in FlexSearch (text-index.ts), the per-slot attribute columns
 * filters, facets, sorts and groups read (attribute-columns.ts), sort orders' ranks (order/sort-ranks.ts)
 * and repeated filters' pass bits (filter/filter-bits.ts). Built at once, in slices, or restored from
 * a snapshot (index-restore.ts).
 *
 * Writes to the active catalog reach the index through `apply`: it updates the documents (and their
 * text), then tells each structure kept per slot which slots changed. Never a rebuild.
 */
import type { StoredItem } from '../../catalog/types.js';
import type { FacetConfig } from '../../../platform/config/schema.js';
import type { FilterValue } from '../../../platform/filter-language/filter-tree.js';
import { runAtOnce } from '../../../platform/sliced-work.js';
import type { FacetColumn } from '../facets/facet-column.js';
import { FacetScratch } from '../facets/facets.js';
import { FilterBits } from '../filter/filter-bits.js';
import { SortRanks, type SortKey } from '../order/sort-ranks.js';
import { MatchScratch } from '../query/match-scratch.js';
import { AttributeColumns } from './attribute-columns.js';
import { restoring, snapshotting } from './index-restore.js';
import type { DecodedSnapshot } from './index-snapshot.js';
import type { Language } from './language.js';
import { TextIndex, type SearchDoc, type Slots } from './text-index.js';
import type { TitleFingerprints } from './title-key.js';
import type { TypoVocabulary } from './typo-vocabulary.js';
import { IndexDocuments, type IndexChange } from './variant-folding.js';

export type { SortKey } from '../order/sort-ranks.js';
export type { SearchDoc, Slots } from './text-index.js';
export type { IndexChange } from './variant-folding.js';

/** What a new index computes before it serves: facet columns, attribute columns and sort orders its requests will read. */
export interface IndexWarmUp {
  languages: readonly Language[];
  facets: readonly FacetConfig[];
  attributes: readonly string[];
  sorts: readonly (readonly SortKey[])[];
  /** Attributes suggest grouped the predecessor's matches by (`groupColumn`). */
  groups?: readonly string[];
}

export class SearchIndex {
  /** Slot → document; a removed document leaves `undefined` (slots are never reused). */
  readonly docs: (SearchDoc | undefined)[];
  /** Fields indexed, each with its FlexSearch Index. */
  readonly fields: readonly string[];
  readonly vocabulary: TypoVocabulary;
  /** Slot → fingerprints of its folded title and title word pairs (matcher's exact-title and phrase checks). */
  readonly titles: TitleFingerprints;
  /** Bumped on every change, so per-request caches keyed on the index know when to drop. */
  revision = 0;
  private readonly text: TextIndex;
  private readonly documents: IndexDocuments;
  private readonly attributes: AttributeColumns;
  private readonly sortRanks: SortRanks;
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
    this.text = new TextIndex(fields);
    this.fields = this.text.fields;
    this.vocabulary = this.text.vocabulary;
    this.titles = this.text.titles;
    this.documents = new IndexDocuments(this.text, (item) => this.attributes.noteNames(item));
    this.docs = this.documents.docs;
    this.attributes = new AttributeColumns(this.docs);
    this.sortRanks = new SortRanks(this.attributes);
    runAtOnce(this.documents.load(items));
  }

  /** Live documents. */
  get size(): number {
    return this.documents.size;
  }

  /**
   * The index built a small step at a time (sliced-work.ts drives it), then warmed: the columns and sort
   * orders `warm` names are computed before the index serves, so its first requests do not stall on them.
   */
  static *building(items: readonly StoredItem[], fields: readonly string[], warm: IndexWarmUp): Generator<unknown, SearchIndex> {
    const index = new SearchIndex([], fields);
    // Forms first: each word added after is grouped as it arrives, in the same steps.
    for (const language of warm.languages) index.vocabulary.prepareForms(language);
    yield* index.documents.load(items);
    yield* index.warm(warm);
    return index;
  }

  /**
   * The index restored from a snapshot (index-snapshot.ts) of the same items (index-restore.ts).
   * Returns why the snapshot is refused when it does not match them.
   */
  static *restoring(items: readonly StoredItem[], fields: readonly string[], warm: IndexWarmUp, snapshot: DecodedSnapshot): Generator<unknown, SearchIndex | string> {
    const index = new SearchIndex([], fields);
    const refused = yield* restoring(index.documents, index.text, warm.languages, items, snapshot);
    if (refused !== undefined) return refused;
    yield* index.warm(warm);
    return index;
  }

  /** The index in the binary form a restart restores (index-restore.ts), a few hundred terms per step. */
  snapshot(catalogVersion: number): Generator<unknown, Uint8Array> {
    return snapshotting(this.documents, this.text, catalogVersion);
  }

  /** Computes the columns and sort orders `warm` names, so the index's first requests do not stall on them. */
  private *warm(warm: IndexWarmUp): Generator<unknown, void> {
    // A sort order reads its attributes' columns: built here in steps, or ranking would build them in
    // one go (75,000 slots of attribute values: the longest pause of a 100,000-item promotion).
    const sortAttributes = warm.sorts.flatMap((sortBy) => sortBy.map((key) => key.attribute));
    yield* this.attributes.warm(warm.facets, new Set([...warm.attributes, ...sortAttributes]));
    for (const sortBy of warm.sorts) yield* this.sortRanks.ranking(sortBy);
    for (const attribute of warm.groups ?? []) yield* this.attributes.groupColumnBuilding(attribute);
    this.matchScratch();
    this.matchScratch();
  }

  /** What requests made this index compute (columns, sort orders), so that its successor is built warm. */
  warmedUp(): Pick<IndexWarmUp, 'attributes' | 'sorts' | 'groups'> {
    const { attributes, groups } = this.attributes.warmedUp();
    return { attributes, sorts: this.sortRanks.orders(), groups };
  }

  /** The matcher's per-slot arrays, grown with room to spare so single-item additions do not reallocate each time. */
  matchScratch(): MatchScratch {
    if (this.matchArrays === undefined || this.matchArrays.capacity < this.docs.length) {
      this.matchArrays = new MatchScratch(Math.max(1024, Math.ceil(this.docs.length * 1.25)));
    }
    return this.matchArrays;
  }

  docOf(id: string): number | undefined {
    return this.documents.docOf(id);
  }

  /** Documents holding a word starting with `term` in `field` (FlexSearch's forward tokenization). */
  fieldSlots(field: number, term: string): Slots {
    return this.text.fieldSlots(field, term);
  }

  /** Documents holding the whole word `term` in any field. */
  wordSlots(term: string): Slots {
    return this.text.wordSlots(term);
  }

  /**
   * Applies the catalog's writes: the documents (and their text) first, then each structure kept per
   * slot hears which slots changed: the attribute columns, the sort orders (stale where an attribute
   * they read changed, or the index grew), the filters' pass bits.
   */
  apply(change: IndexChange): void {
    const slotsBefore = this.docs.length;
    const touched = this.documents.apply(change);
    this.revision++;
    const changed = this.attributes.update(touched);
    // New slots have no rank in any order. An attribute without a kept column may have just gained values.
    const grew = this.docs.length > slotsBefore;
    this.sortRanks.markStale((attribute) => grew || changed.has(attribute) || !this.attributes.keeps(attribute));
    this.filterBits.update(touched);
  }

  /** Recomputes the sort orders in use after changes, off the request path and in steps, rather than at the next query. */
  refreshingOrders(): Generator<unknown, void> {
    return this.sortRanks.refreshing();
  }

  /** How many attribute columns the index keeps (one per attribute some item has and a request read). */
  get keptColumns(): number {
    return this.attributes.kept;
  }

  /** Each slot's values of one attribute (attribute-columns.ts). */
  values(attribute: string): FilterValue[][] {
    return this.attributes.values(attribute);
  }

  /** `values` in steps, for a sort order ranked in slices (attribute-columns.ts). */
  valuing(attribute: string): Generator<unknown, FilterValue[][]> {
    return this.attributes.valuing(attribute);
  }

  /** One attribute as a typed number per slot, or undefined (attribute-columns.ts). */
  numbers(attribute: string): Float64Array | undefined {
    return this.attributes.numbers(attribute);
  }

  /** The sort orders a request reads, ranked in slices while it waits; undefined when they are ready (sort-ranks.ts). */
  preparing(sortBy: readonly SortKey[]): Promise<void> | undefined {
    return this.sortRanks.preparing(sortBy);
  }

  /** The attribute and group columns a request reads, built in slices while it waits; undefined when kept (attribute-columns.ts). */
  columnsPreparing(attributes: Iterable<string>, group: string | undefined): Promise<void> | undefined {
    return this.attributes.preparing(attributes, group);
  }

  /** Value ids per slot of an attribute suggest groups by; undefined for an attribute no item has (attribute-columns.ts). */
  groupColumn(attribute: string): FacetColumn | undefined {
    return this.attributes.groupColumn(attribute);
  }

  /** One facet's value ids per slot, built at the first request that counts it and kept up to date after. */
  facetColumn(facet: FacetConfig): FacetColumn {
    return this.attributes.facetColumn(facet);
  }

  /** Each slot's rank under a sort order (sort-ranks.ts), so a request sorts by comparing integers. */
  rank(sortBy: readonly SortKey[]): Int32Array {
    return this.sortRanks.rank(sortBy);
  }
}
