/**
 * A search index's per-slot attribute columns, which filters, facets, sorts and suggest's groups read:
 * each attribute's values per slot, the same as one typed number per slot where it is one, and the
 * value ids of the configured facets and of the attributes suggest groups by (facets/facet-column.ts).
 * Each is computed at first use (or, for a new index, before it serves: `warm`) and kept up to date
 * with the slots a write changed (`update`).
 */
import type { StoredItem } from '../../catalog/types.js';
import type { FacetConfig } from '../../../platform/config/schema.js';
import type { FilterValue } from '../../../platform/filter-language/filter-tree.js';
import { runInSlices } from '../../../platform/sliced-work.js';
import { FacetColumn } from '../facets/facet-column.js';
import { attributeValues } from './attribute-values.js';
import type { SearchDoc } from './text-index.js';

/** Reading a column in steps (`valuing`) yields after every this many slots plus one (a mask). */
const COLUMN_STEP = 1023;

/** Whether a slot's values of an attribute are the same before and after a write. */
function sameValues(before: readonly FilterValue[] | undefined, after: readonly FilterValue[]): boolean {
  if (before === undefined || before.length !== after.length) return false;
  for (let i = 0; i < after.length; i++) if (before[i] !== after[i]) return false;
  return true;
}

/** The facet whose column lists an attribute's values for suggest's groups (every value, by its text). */
function groupFacet(attribute: string): FacetConfig {
  return { id: attribute, title: attribute, attribute, type: 'value', size: 1 } as FacetConfig;
}

export class AttributeColumns {
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
  private readonly facetColumns = new Map<FacetConfig, FacetColumn>();
  /** Value ids per slot of the attributes suggest groups by (`groupColumn`), kept up to date like facets'. */
  private readonly groupColumns = new Map<string, FacetColumn>();
  private readonly numeric = new Map<string, Float64Array | undefined>();
  /** Column builds requests wait on (`columnsPreparing`), by what they build. */
  private readonly columnWork = new Map<string, Promise<void>>();
  /** Slots written while group columns are built in steps: each is updated again once its column is whole. */
  private readonly buildTouches = new Set<Set<number>>();

  /** `docs`: the index's slots (the same array, which grows with it). */
  constructor(readonly docs: readonly (SearchDoc | undefined)[]) {}

  /** Notes the attribute names `item` has (see `attributeNames`). */
  noteNames(item: StoredItem): void {
    for (const name in item.attributes) this.attributeNames.add(name);
    for (const name in item) this.attributeNames.add(name);
  }

  /** Whether a column of `attribute`'s values is kept. */
  keeps(attribute: string): boolean {
    return this.columns.has(attribute);
  }

  /** How many attribute columns are kept (one per attribute some item has and a request read). */
  get kept(): number {
    return this.columns.size + this.numeric.size + this.groupColumns.size;
  }

  /** The attributes and groups with kept columns, so that a successor index is built with them. */
  warmedUp(): { attributes: string[]; groups: string[] } {
    return { attributes: [...this.columns.keys()], groups: [...this.groupColumns.keys()] };
  }

  /** Computes the facet columns and attribute columns named, in steps. */
  *warm(facets: readonly FacetConfig[], attributes: Iterable<string>): Generator<unknown, void> {
    for (const facet of facets) if (!this.facetColumns.has(facet)) this.facetColumns.set(facet, yield* FacetColumn.building(facet, this.docs));
    for (const attribute of attributes) if (!this.columns.has(attribute)) yield* this.columnReading(attribute);
  }

  /**
   * After a write changed the `touched` slots (their documents already updated): every kept column
   * follows. Returns the attributes whose values changed, so that sort orders by others keep their ranks.
   */
  update(touched: ReadonlySet<number>): Set<string> {
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
    return changed;
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

  /**
   * The attribute columns a request's filter reads and the group column suggest's `groupBy` reads,
   * built in slices while the request waits; undefined when they are kept already (nearly always: a
   * successor index is warmed with its predecessor's). Built at once, a column of list values
   * (categories) over 100,000 items held the loop 136 ms, a group column 46 ms. Every name is one
   * some item has, so what can be built (and kept) is bounded by the catalog.
   */
  preparing(attributes: Iterable<string>, group: string | undefined): Promise<void> | undefined {
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

  /** `groupColumn`, built in steps (writes meanwhile are applied to it after). */
  *groupColumnBuilding(attribute: string): Generator<unknown, void> {
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

  /** The columns of an attribute no item has, one pair shared by every such name. */
  private empty(): { values: FilterValue[][]; numbers: Float64Array } {
    if (this.emptyColumns === undefined || this.emptyColumns.values.length < this.docs.length) {
      const none: FilterValue[] = [];
      this.emptyColumns = { values: new Array<FilterValue[]>(this.docs.length).fill(none), numbers: new Float64Array(this.docs.length).fill(NaN) };
    }
    return this.emptyColumns;
  }
}
