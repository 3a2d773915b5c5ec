/**
 * The collection APIs' fast path: appends acknowledged before they are folded into histories and
 * aggregates. The fold runs in the check phase of the turn of the event loop that acknowledged them
 * (before the caller can send its next request), one batch after another, each batch whole, giving the
 * loop back to waiting requests every FOLD_SLICE_MS. Whoever must see every acknowledged record first
 * (a replay, another process's records, an in-process caller, a snapshot's cursor) calls `settle`.
 */
import type { LogRecord } from './activity-record.js';

/** The loop time one pass may take before requests get their turn (a batch is never split). */
const FOLD_SLICE_MS = 8;
/** Folded entries at the head past which the array is compacted. */
const COMPACT_AFTER = 1_024;

export interface UnfoldedBatch {
  records: readonly LogRecord[];
  /** Where the log put them (the append's position). */
  position: string | void;
  /** Run once the batch is folded. */
  then?: () => void;
}

export class FoldQueue {
  private batches: Array<UnfoldedBatch | undefined> = [];
  private head = 0;
  private records = 0;
  private scheduled = false;

  constructor(private readonly foldBatch: (batch: UnfoldedBatch) => void) {}

  push(batch: UnfoldedBatch): void {
    if (batch.records.length === 0) return;
    this.batches.push(batch);
    this.records += batch.records.length;
    this.schedule();
  }

  /** Records waiting, and when the oldest of them was received (undefined: none). */
  lag(): { records: number; oldestReceivedAt: number | undefined } {
    return { records: this.records, oldestReceivedAt: this.batches[this.head]?.records[0]?.receivedAt };
  }

  /** Folds everything waiting, now. */
  settle(): void {
    while (this.head < this.batches.length) this.next();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const until = performance.now() + FOLD_SLICE_MS;
      while (this.head < this.batches.length && performance.now() < until) this.next();
      if (this.head < this.batches.length) this.schedule();
    });
  }

  private next(): void {
    const batch = this.batches[this.head]!;
    this.batches[this.head++] = undefined;
    this.records -= batch.records.length;
    if (this.head === this.batches.length) {
      this.batches = [];
      this.head = 0;
    } else if (this.head >= COMPACT_AFTER && this.head * 2 >= this.batches.length) {
      this.batches = this.batches.slice(this.head);
      this.head = 0;
    }
    this.foldBatch(batch);
  }
}
