/**
 * Which item is in which slot of a search index: variants fold into their parent's slot (their text
 * is indexed after the parent's own, so a query matching a variant returns the parent), and a variant
 * whose parent is missing stands for itself. Slots are numbered in order of arrival and never reused:
 * a removed document leaves `undefined`.
 *
 * A catalog write changes the slots it names here first (`apply`), their text with them
 * (text-index.ts); the index then tells its other structures which slots changed.
 */
import type { StoredItem } from '../../catalog/types.js';
import { titleOf, type SearchDoc, type TextIndex } from './text-index.js';

/** A change to the index's documents, as the catalog's change feed carries it. */
export interface IndexChange {
  upserted: readonly StoredItem[];
  removedKeys: readonly string[];
}

export class IndexDocuments {
  /** Slot → document; a removed document leaves `undefined` (slots are never reused). */
  readonly docs: (SearchDoc | undefined)[] = [];
  /** Live documents. */
  size = 0;
  private readonly byId = new Map<string, number>();
  private readonly variants = new Map<string, Map<string, StoredItem>>();
  /** Variant id → its parent's id. */
  private readonly parentOf = new Map<string, string>();

  /** `noteItem` hears of every item placed in a slot (the attribute columns note its attribute names). */
  constructor(
    private readonly text: TextIndex,
    private readonly noteItem: (item: StoredItem) => void,
  ) {}

  docOf(id: string): number | undefined {
    return this.byId.get(id);
  }

  /** Places `items` into this empty index, one step per item. */
  *load(items: readonly StoredItem[]): Generator<unknown, void> {
    // Variants first, so each parent is handed to FlexSearch once with its variants' text.
    const parents = new Set<string>();
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      if (item.parentId === undefined) parents.add(item.id);
      else this.foldVariant(item, item.parentId);
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

  /** Notes `item` as a variant of `parentId` (its text goes into the parent's slot). */
  foldVariant(item: StoredItem, parentId: string): void {
    this.variantsOf(parentId).set(item.id, item);
    this.parentOf.set(item.id, parentId);
  }

  /**
   * A slot restored from a snapshot (index-restore.ts), the next in order: `item` with its texts as the
   * snapshot holds them, or undefined for a removed slot.
   */
  restoreSlot(doc: SearchDoc | undefined): void {
    const slot = this.docs.length;
    this.docs.push(doc);
    if (doc === undefined) return;
    this.noteItem(doc.item);
    this.byId.set(doc.item.id, slot);
    this.text.addTitle(slot, doc);
    this.size++;
  }

  /** The document a slot would hold for `item`, its variants' text folded in. */
  documentOf(item: StoredItem): SearchDoc {
    return { item, title: titleOf(item), texts: this.text.textsOf(this.folded(item)) };
  }

  /** Applies the catalog's writes to the documents and their text; returns the slots that changed. */
  apply(change: IndexChange): Set<number> {
    const touched = new Set<number>();
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
          this.noteItem(item);
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
      this.foldVariant(item, item.parentId);
      const parent = this.byId.get(item.parentId);
      if (parent !== undefined && this.docs[parent]!.item.id === item.parentId) {
        touched.add(parent);
      } else {
        const own = this.byId.get(item.id);
        if (own === undefined) touched.add(this.place(item));
        else {
          this.docs[own]!.item = item;
          this.noteItem(item);
          touched.add(own);
        }
      }
    }
    for (const slot of touched) if (this.docs[slot] !== undefined) this.reindex(slot);
    return touched;
  }

  /** The item and its variants, in the order their text is indexed (a variant has none of its own). */
  private folded(item: StoredItem): StoredItem[] {
    return item.parentId === undefined ? [item, ...(this.variants.get(item.id)?.values() ?? [])] : [item];
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

  private place(item: StoredItem): number {
    this.noteItem(item);
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
    this.text.drop(slot, doc);
    this.byId.delete(doc.item.id);
    this.docs[slot] = undefined;
    this.size--;
  }

  /** Recomputes a slot's texts (the item's own, then its variants') for the text index. */
  private reindex(slot: number): void {
    const doc = this.docs[slot]!;
    this.text.reindex(slot, doc, this.text.textsOf(this.folded(doc.item)));
  }
}
