/**
 * A configured facet's values per index slot (facets.ts counts a request's matches from it): ids in
 * typed arrays, updated with the index, so counting is integer increments, not string work.
 */
import type { StoredItem } from '../../catalog/types.js';
import type { FacetConfig } from '../../../platform/config/schema.js';
import { fold } from '../index/analyzer.js';
import { attributeValues } from '../index/attribute-values.js';

/** `FacetColumn.singles`' entry for a slot without a value; also the first value id it cannot hold. */
export const NO_SINGLE = 255;

export class FacetColumn {
  /** Value id → the value as first seen (range facets: the range label). */
  readonly labels: string[] = [];
  /** The same values folded (case, accents), as selections are compared. */
  readonly folded: string[] = [];
  private readonly ids = new Map<string, number>();
  /**
   * Slot → its first and second value ids (at 2 × slot and 2 × slot + 1), -1 for none: most items have
   * one or two (a category pair), and both sit in the same cache line when counting reads them.
   * 16-bit while the facet has fewer than 32,767 values (nearly every facet), 32-bit past that: counting
   * reads it at every match in no useful order, and half the bytes keep more of it in the processor's
   * caches (a 100,000-slot column is 400 KB instead of 800 KB).
   */
  pairs: Int16Array | Int32Array;
  /** Slot → its value ids past the second, for the rare items with more. */
  readonly more = new Map<number, number[]>();
  /**
   * Slot → its only value id (NO_SINGLE for none), while no slot holds two values and none a value id
   * past 254: a colour, a brand, a price range. One byte a slot (100 KB for 100,000 slots, where
   * `pairs` takes 400 KB), so the per-match passes (facet-pass.ts), which read it in no useful order,
   * find more of it in the processor's caches. Dropped for good (undefined) when a slot stops fitting.
   */
  singles: Uint8Array | undefined;
  /**
   * Value id → how many slots hold it over the whole index, kept with every update: a match set holding
   * most of the catalog is counted as these totals minus the slots it lacks (countFacets).
   */
  totals = new Int32Array(16);

  constructor(
    readonly facet: FacetConfig,
    docs: readonly ({ item: StoredItem } | undefined)[],
  ) {
    if (facet.type === 'range') for (const range of facet.ranges ?? []) this.idOf(range.label);
    this.pairs = new Int16Array(2 * Math.max(16, docs.length)).fill(-1);
    this.singles = new Uint8Array(Math.max(16, docs.length)).fill(NO_SINGLE);
    docs.forEach((doc, slot) => this.update(slot, doc?.item));
  }

  /** The same column filled a few hundred slots per step, for a build that yields (sliced-work.ts). */
  static *building(facet: FacetConfig, docs: readonly ({ item: StoredItem } | undefined)[]): Generator<unknown, FacetColumn> {
    const column = new FacetColumn(facet, []);
    column.pairs = new Int16Array(2 * Math.max(16, docs.length)).fill(-1);
    column.singles = new Uint8Array(Math.max(16, docs.length)).fill(NO_SINGLE);
    for (let slot = 0; slot < docs.length; slot++) {
      column.update(slot, docs[slot]?.item);
      if ((slot & 511) === 511) yield;
    }
    return column;
  }

  /** Counts every update, so what was counted from the column can tell it is stale (filter-bits.ts `passCounts`). */
  changes = 0;

  update(slot: number, item: StoredItem | undefined): void {
    this.changes++;
    if (2 * slot >= this.pairs.length) this.pairs = this.widened(2 * Math.max(slot + 1, this.pairs.length), this.pairs instanceof Int32Array);
    this.adjustTotals(slot, -1);
    const ids = item === undefined ? [] : this.valueIds(item);
    this.pairs[2 * slot] = ids[0] ?? -1;
    this.pairs[2 * slot + 1] = ids[1] ?? -1;
    if (ids.length > 2) this.more.set(slot, ids.slice(2));
    else this.more.delete(slot);
    this.adjustTotals(slot, 1);
    if (this.singles !== undefined) {
      if (ids.length > 1 || (ids[0] ?? 0) >= NO_SINGLE) this.singles = undefined;
      else {
        if (slot >= this.singles.length) {
          const grown = new Uint8Array(this.pairs.length >> 1).fill(NO_SINGLE);
          grown.set(this.singles);
          this.singles = grown;
        }
        this.singles[slot] = ids[0] ?? NO_SINGLE;
      }
    }
  }

  /** Slots the column has room for (some past the index's last slot, holding no value). */
  get capacity(): number {
    return this.pairs.length >> 1;
  }

  private adjustTotals(slot: number, delta: 1 | -1): void {
    const one = this.pairs[2 * slot]!;
    if (one < 0) return;
    this.totals[one]! += delta;
    const two = this.pairs[2 * slot + 1]!;
    if (two < 0) return;
    this.totals[two]! += delta;
    for (const id of this.more.get(slot) ?? []) this.totals[id]! += delta;
  }

  has(slot: number, wanted: Uint8Array): boolean {
    const first = this.pairs[2 * slot]!;
    if (first < 0) return false;
    if (wanted[first] === 1) return true;
    const second = this.pairs[2 * slot + 1]!;
    if (second < 0) return false;
    if (wanted[second] === 1) return true;
    if (this.more.size === 0) return false;
    const more = this.more.get(slot);
    if (more !== undefined) for (const id of more) if (wanted[id] === 1) return true;
    return false;
  }

  /** The value ids of `slot`, in the order its item lists the values. */
  idsOf(slot: number): number[] {
    const one = this.pairs[2 * slot]!;
    if (one < 0) return [];
    const two = this.pairs[2 * slot + 1]!;
    if (two < 0) return [one];
    return [one, two, ...(this.more.get(slot) ?? [])];
  }

  /** A mask over value ids of the values a shopper selected (compared without case or accents). */
  selection(values: ReadonlySet<string>): Uint8Array {
    // Entries past the values, never set: where a slot without a value is sent (facet-pass.ts), the
    // id past the last in `pairs`, NO_SINGLE in `singles`.
    const mask = new Uint8Array(Math.max(this.labels.length + 1, NO_SINGLE + 1));
    for (let id = 0; id < this.folded.length; id++) if (values.has(this.folded[id]!)) mask[id] = 1;
    return mask;
  }

  /** `pairs` copied into a column of `length` entries, 32-bit when `wide`. */
  private widened(length: number, wide: boolean): Int16Array | Int32Array {
    const grown = (wide ? new Int32Array(length) : new Int16Array(length)).fill(-1);
    grown.set(this.pairs);
    return grown;
  }

  private idOf(label: string): number {
    let id = this.ids.get(label);
    if (id === undefined) {
      id = this.labels.length;
      if (id === 0x7fff && this.pairs instanceof Int16Array) this.pairs = this.widened(this.pairs.length, true);
      this.labels.push(label);
      this.folded.push(fold(label));
      this.ids.set(label, id);
      if (id >= this.totals.length) {
        const grown = new Int32Array(this.totals.length * 2);
        grown.set(this.totals);
        this.totals = grown;
      }
    }
    return id;
  }

  private valueIds(item: StoredItem): number[] {
    const values = attributeValues(item, this.facet.attribute);
    const out: number[] = [];
    if (this.facet.type === 'value') {
      for (const value of values) {
        const id = this.idOf(String(value));
        if (!out.includes(id)) out.push(id);
      }
      return out;
    }
    (this.facet.ranges ?? []).forEach((range, id) => {
      if (values.some((v) => typeof v === 'number' && (range.from === undefined || v >= range.from) && (range.to === undefined || v < range.to))) out.push(id);
    });
    return out;
  }
}
