/**
 * The searches this process answered lately, by response id: the key it was learned under and the
 * items it showed in order. A click naming one of them is credited to that key at the position the
 * shopper really saw (the click's own `metadata.position` is the client's word). Bounded: the oldest
 * entries go first; an id answered by another process, or before a restart, is simply not here.
 */
import { deleteOldest } from '../../../platform/collections/oldest-first.js';
export const LEDGER_SIZE = 20_000;

/** Items remembered per search (the first page; deeper positions are taken from the click). */
const ITEMS_KEPT = 50;

export interface LedgerEntry {
  tenantId: string;
  key: string;
  /** Position of the first item in `items` (1 for the first page). */
  first: number;
  items: string[];
}

export class SearchLedger {
  private readonly entries = new Map<string, LedgerEntry>();

  constructor(private readonly size = LEDGER_SIZE) {}

  record(id: string, entry: LedgerEntry): void {
    this.entries.delete(id);
    this.entries.set(id, { ...entry, items: entry.items.slice(0, ITEMS_KEPT) });
    if (this.entries.size > this.size) deleteOldest(this.entries);
  }

  /** The search `id` names, when this process answered it for `tenantId`. */
  get(tenantId: string, id: string): LedgerEntry | undefined {
    const entry = this.entries.get(id);
    return entry?.tenantId === tenantId ? entry : undefined;
  }

  /** Where `itemId` was shown in `entry` (1-based), or undefined when it was not among the items kept. */
  static positionOf(entry: LedgerEntry, itemId: string): number | undefined {
    const at = entry.items.indexOf(itemId);
    return at < 0 ? undefined : entry.first + at;
  }
}
